// The rank machinery every distributed backend runs on (mpi-lazy,
// mpi-abdada, mpi-aphid): R ranks, each with T search threads over a table of its own
// and a wire thread, joined by a wire (parallel/distributed/transport.h). A *mode*
// says what the ranks tell each other during a search (mpi_lazy.cpp: deep
// entries shipped to every rank; mpi_abdada.cpp: entries kept at a home
// rank, claimed by round trips); the protocol around it is the same:
//
// Rank 0 owns the clock and the limits. It sends SEARCH to the other ranks
// and searches itself; when its main thread is done it sends STOP. A rank
// that ends (rank 0 by its clock, another by STOP) stops its threads, keeps
// answering the wire until they have all unwound and its mode awaits no
// answer, lets its mode flush what it still owes, then sends FIN to every other rank as its last message of
// the search and waits for theirs (messages between two ranks keep their
// order, so after every FIN nothing of the search is in flight); another
// rank then sends rank 0 its RESULT: its threads' ballots and counters.
// Node limits bind the cluster's count: the ranks report their nodes each
// tick while one is set.
//
// The wire (param `wire`) is MPI when this process is rank 0 of a world that
// mpirun started (ranks 1..R-1 serve the backend: parallel/distributed/mpi_world.h),
// or else the loop wire: ranks as thread groups of this process, each with
// its own table, so that the protocol runs, and is tested, in every build.
// Ranks wait for messages on the wire, never by spinning: a rank's wire
// thread wakes at least once per tick.
//
// The backend class over these ranks: parallel/distributed/cluster_backend.h.
//
// A mode M<Table> provides:
//   using Tt = ...;                        the table type the ranks search
//   template <class R> using Hooks = ...;  the node function's hooks, made from R&
//   static constexpr std::string_view kName; static constexpr bool kVotes;
//   static constexpr bool kDepthLimitOnEveryRank;  (else rank 0's alone)
//   static constexpr bool kSimulable;      (ranks > 1 on the loop wire)
//   M(const BackendConfig&, const ClusterParams&);
//   template <class R> void attach(R&);    once, when the rank is made
//   void reset(std::uint64_t id, const std::atomic<bool>& stop);
//                                          at the start of each search (stop:
//                                          the search's flag, SearchShared::stop)
//   template <class R> void begin(R&, SearchShared&);
//                                          optional: after reset and the
//                                          threads' reset, with the search's
//                                          options (mpi-aphid)
//   template <class R> void tick(R&);      once per tick, by the wire thread
//   template <class R> void stopping(R&);  the rank's threads are told to stop
//                                          (done_ or the search's stop flag is
//                                          set): wake those that wait
//   bool settled(const std::vector<bool>& fin_from) const;
//                                          they have all unwound: may FIN go?
//   template <class R> void closing(R&);   before FIN: it is settled
//   template <class R> bool handle(R&, const Message&, Reader&, bool fin_sent);
//                                          a message of this search (id read)
//   void add_stats(SearchStats&) const;    the mode's counters of the search
//   RoundTrips round_trips() const;
//   template <class R> void finished(R&);  after the drain (no thread runs)
#pragma once

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "parallel/backend_base.h"
#include "parallel/distributed/mpi_world.h"
#include "parallel/distributed/rank.h"
#include "parallel/sim/machine.h"
#include "parallel/thread_pool.h"
#include "search/driver.h"
#include "parallel/distributed/wire_counters.h"

namespace xq::dist {

// How long rank 0 waits for the other ranks' FIN and RESULT after STOP.
constexpr auto kDrainLimit = std::chrono::seconds(30);

// The parameters every distributed backend has.
struct ClusterParams {
  int ranks = 1;
  int threads = 1;  // per rank
  std::chrono::microseconds tick{1000};
  std::chrono::microseconds latency{0};
  bool mpi = false;  // the MPI world's ranks, not the loop wire's

  explicit ClusterParams(const BackendConfig& c)
      : ranks(int(c.param("ranks"))),
        threads(c.threads),
        tick(c.param("tick_us")),
        latency(c.param("latency_us")),
        mpi(c.param("wire") == 2 ||
            (c.param("wire") == 0 && mpi_world() && mpi_world()->size() > 1)) {}
};

// The parameters above, for a backend's registry entry (a parameter's name
// means one thing, so every backend declares it alike).
inline std::vector<ParamSpec> cluster_params() {
  return {{"ranks", "ranks (processes with their own table), each running --threads threads", 1,
           64, {}, 2, /*tuned=*/false},
          {"tick_us", "microseconds between two shipments of a rank", 50, 1000000, {}, 1000},
          {"latency_us", "loop wire: microseconds a message takes to arrive", 0, 1000000, {}, 0,
           /*tuned=*/false},
          {"wire", "the ranks' wire: MPI under mpirun, else in-process (auto), or either", 0, 2,
           {"auto", "loop", "mpi"}, 0, /*tuned=*/false}};
}

struct RankThread : Worker {
  explicit RankThread(int thread_id) : Worker(thread_id) {}
  SearchResult result;  // written by its thread, read after it has parked
};

// What a rank reports to rank 0 at the end of a search.
struct Report {
  std::vector<Ballot> ballots;
  SearchStats stats;
  RoundTrips round_trips;
};

// One rank: its threads (on a pool: rank 0's thread 0 is the caller's), its
// wire thread (rank 0: the pool's last helper; another rank: the thread
// that serves) and the table it searches (the backend's, on rank 0).
template <class Table, template <class> class Mode>
class Rank {
 public:
  using M = Mode<Table>;
  using Tt = typename M::Tt;
  using Hooks = typename M::template Hooks<Rank>;

  Rank(const BackendConfig& c, Transport& wire, Tt& table)
      : p_(c), mode_(c, p_), wire_(wire), tt_(table),
        // One rank needs no wire thread (so that it runs on the simulated
        // machine as its one-process counterpart does).
        pool_(p_.ranks > 1 ? p_.threads + 1 : p_.threads) {
    for (int i = 0; i < p_.threads; ++i) threads_.push_back(std::make_unique<RankThread>(i));
    mode_.attach(*this);
    baseline_ = wire_.traffic();
  }
  ~Rank() { finish_quietly(); }
  Rank(const Rank&) = delete;
  Rank& operator=(const Rank&) = delete;

  const ClusterParams& params() const { return p_; }
  M& mode() { return mode_; }
  const M& mode() const { return mode_; }
  Transport& wire() { return wire_; }
  Tt& table() { return tt_; }
  int rank() const { return wire_.rank(); }
  std::uint64_t search_id() const { return id_; }
  int global_id(const Worker& w) const { return rank() * p_.threads + w.id; }
  // The rank's threads stop (rank 0's main thread by its own limits).
  const std::atomic<bool>& done_flag() const { return done_; }
  bool stopped(const Worker& w) const {
    return (rank() != 0 || w.id != 0) && done_.load(std::memory_order_relaxed);
  }
  // For rank 0's iteration reports: its helpers' counters and the other
  // ranks' nodes as last reported.
  void add_helpers(SearchStats& s) const {
    for (std::size_t i = rank() == 0 ? 1 : 0; i < threads_.size(); ++i) s += threads_[i]->stats;
    s.nodes += remote_nodes_.load(std::memory_order_relaxed);
  }
  RankThread& thread(int i) { return *threads_[std::size_t(i)]; }
  Search<Tt, Hooks>& search() { return *search_; }

  void clear() {
    tt_.clear();
    for (auto& t : threads_) t->clear_heuristics();
  }

  // Another rank on the loop wire: its next SEARCH runs as logical thread
  // `id` of `m` (nullptr: on the host). Set by rank 0 before it sends it.
  void simulate_next(sim::Machine* m, int id) {
    sim_ = m;
    sim_id_ = id;
  }
  // Rank 0: whether the search begun asked the other ranks.
  bool asked() const { return p_.ranks > 1 && !solo_; }
  // Whether rank 0's search ended by a stop or a limit (its STOP says so):
  // a mode may then leave slow clean-up to the next search's start, off the
  // path of the best move (mpi-abdada's sweep for leaked busy marks).
  bool ended_by_stop() const { return ended_by_stop_; }

  // Rank 0: sends the search to the other ranks, then starts its helpers
  // and its wire thread; the caller runs thread 0.
  void begin(const Position& pos, SearchShared& shared, std::uint64_t id) {
    // A stop requested before the start: the search completes no iteration,
    // so the other ranks are not even asked (they would search until the
    // STOP reached them).
    const SearchOptions& o = shared.options;
    solo_ = shared.stopped() || (o.stop_signal && o.stop_signal->load(std::memory_order_acquire));
    if (rank() == 0 && p_.ranks > 1 && !solo_) {
      Writer w;
      put_request(w, id, pos, shared.options);
      const std::vector<std::uint8_t> body = w.take();
      for (int r = 1; r < p_.ranks; ++r) wire_.send(r, Tag::Search, body);
    }
    start(pos, shared, id);
  }

  // Rank 0: ends the search on every rank and returns once every rank has
  // reported (throws when one does not answer). Idempotent.
  void finish() {
    if (!running_) return;
    running_ = false;
    ended_by_stop_ = shared_->stopped();  // before ending_: the wire thread's STOP says it
    done_.store(true, std::memory_order_relaxed);
    ending_.store(true, std::memory_order_release);
    pool_.wait_parked();
    mode_.finished(*this);
    traffic_ = wire_.traffic() - baseline_;
    baseline_ = wire_.traffic();
  }
  void finish_quietly() noexcept {
    try {
      finish();
    } catch (...) {
      // Reported by the finish() of the search that failed.
    }
  }

  // The counters of the finished search over every rank.
  SearchStats stats() const {
    SearchStats s = local_stats();
    add_traffic(s, traffic_);
    for (const std::optional<Report>& r : reports_)
      if (r) s += r->stats;
    return s;
  }
  RoundTrips round_trips() const {
    RoundTrips t = mode_.round_trips();
    for (const std::optional<Report>& r : reports_)
      if (r) t += r->round_trips;
    return t;
  }
  // Each rank's nodes and traffic in the finished search, rank 0 first.
  std::vector<RankFigures> figures() const {
    const auto of = [](const SearchStats& s) {
      return RankFigures{s.nodes, s[dist::msgs_sent], s[dist::bytes_sent], s[dist::msgs_received], s[dist::bytes_received]};
    };
    SearchStats own = local_stats();
    add_traffic(own, traffic_);
    std::vector<RankFigures> v = {of(own)};
    for (std::size_t r = 1; r < reports_.size(); ++r)
      v.push_back(reports_[r] ? of(reports_[r]->stats) : RankFigures{});
    return v;
  }
  // Every thread's ballot, rank by rank (rank 0's thread 0 first).
  std::vector<Ballot> ballots() const {
    std::vector<Ballot> v = local_ballots();
    for (const std::optional<Report>& r : reports_)
      if (r) v.insert(v.end(), r->ballots.begin(), r->ballots.end());
    return v;
  }

  // Another rank: messages of its first search that arrived before it
  // existed (counted by the wire before this rank's baseline: moved into
  // the first search's interval).
  void adopt_early(std::vector<Message> early) {
    for (Message& m : early) {
      baseline_.msgs_received -= 1;
      baseline_.bytes_received -= m.body.size();
      early_.push_back(std::move(m));
    }
  }

  // Another rank: serves searches until rank 0 says Quit (returns false)
  // or Shutdown (rank 0 is leaving: returns true).
  bool serve() {
    for (;;) {
      std::optional<Message> m = wire_.receive(std::chrono::milliseconds(100));
      if (!m) continue;
      if (m->tag == Tag::Quit) return false;
      if (m->tag == Tag::Shutdown) return true;
      if (m->tag == Tag::Clear) {
        clear();
      } else if (m->tag == Tag::Search) {
        die_if_told();
        Reader r(m->body);
        get_request(r, request_);
        if (sim::Machine* machine = std::exchange(sim_, nullptr)) {
          // On a simulated machine (the loop wire): this search runs as a
          // logical thread, spawned by rank 0 when it sent the SEARCH.
          machine->attach(sim_id_);
          struct Leave {
            sim::Machine* m;
            ~Leave() { m->detach(); }
          } leave{machine};
          serve_search();
        } else {
          serve_search();
        }
      } else if (m->body.size() >= sizeof(std::uint64_t) && Reader(m->body).get<std::uint64_t>() > id_) {
        // Another rank's message of the next search, which reached this
        // rank before rank 0's SEARCH did (only each pair keeps its order).
        early_.push_back(std::move(*m));
      }
      // Anything else is late traffic of an ended search: counted, dropped.
    }
  }

 private:
  void start(const Position& pos, SearchShared& shared, std::uint64_t id) {
    id_ = id;
    shared_ = &shared;
    done_.store(false, std::memory_order_relaxed);
    ending_.store(false, std::memory_order_relaxed);
    remote_nodes_.store(0, std::memory_order_relaxed);
    reports_.assign(std::size_t(p_.ranks), std::nullopt);
    last_progress_.assign(std::size_t(p_.ranks), 0);
    last_sent_nodes_ = 0;
    stop_seen_ = false;
    ended_by_stop_ = false;
    fin_from_.assign(std::size_t(p_.ranks), false);
    mode_.reset(id, shared.stop);
    for (auto& t : threads_) {
      reset_worker(*t, pos);
      t->result = SearchResult{};
    }
    if constexpr (requires { mode_.begin(*this, shared); }) mode_.begin(*this, shared);
    hooks_.emplace(*this);
    search_.emplace(tt_, *hooks_, shared);
    running_ = true;
    // The pool's search threads (rank 0's thread 0 is the caller).
    active_.store(rank() == 0 ? p_.threads - 1 : p_.threads, std::memory_order_relaxed);
    pool_.run([this](int pool_id) { job(pool_id); });
  }

  // Pool helper `pool_id`: on rank 0, threads 1..T-1 and then the wire; on
  // another rank, threads 0..T-1 (its wire thread is the caller).
  void job(int pool_id) {
    if (rank() == 0) {
      if (pool_id < p_.threads)
        run_thread(*threads_[std::size_t(pool_id)]);
      else if (p_.ranks > 1 && !solo_)
        wire_loop();
    } else {
      run_thread(*threads_[std::size_t(pool_id - 1)]);
    }
  }
  void run_thread(RankThread& t) {
    struct Leave {
      std::atomic<int>& active;
      ~Leave() { active.fetch_sub(1, std::memory_order_release); }
    } leave{active_};
    t.result = iterative_deepening(*search_, t, *shared_, nullptr);
  }

  // Fault injection for the tests of a dead rank: with XQLAB_FAULT_KILL_RANK
  // set to this rank's number, the rank kills itself at its first search.
  void die_if_told() const {
    const char* v = std::getenv("XQLAB_FAULT_KILL_RANK");
    if (p_.mpi && v && std::atoi(v) == rank()) std::raise(SIGKILL);
  }

  // This process's CPU seconds so far (user + system).
  static double process_cpu_seconds() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }

  void serve_search() {
    const double cpu_before = process_cpu_seconds();
    SearchShared shared;
    shared.options = request_.options;
    // Rank 0 owns the limits (a mode whose threads cooperate on one
    // iteration keeps the depth limit); a node limit makes this rank report
    // its count.
    progress_wanted_ = shared.options.limits.nodes > 0;
    Limits kept;
    if constexpr (M::kDepthLimitOnEveryRank) kept.depth = shared.options.limits.depth;
    shared.options.limits = kept;
    tt_.new_search();
    start(request_.pos, shared, request_.id);
    std::exception_ptr error;
    try {
      wire_loop();
    } catch (...) {
      error = std::current_exception();
    }
    done_.store(true, std::memory_order_relaxed);
    running_ = false;
    pool_.wait_parked();
    if (error) std::rethrow_exception(error);
    mode_.finished(*this);
    Writer w;
    w.put(id_).put(std::uint16_t(threads_.size()));
    for (const Ballot& b : local_ballots()) put_ballot(w, b);
    SearchStats s = local_stats();
    add_traffic(s, wire_.traffic() - baseline_);
    // Over MPI this rank is a process of its own, whose CPU time rank 0's
    // getrusage does not see (the lab adds helper_cpu_seconds to it).
    if (p_.mpi) s.helper_cpu_seconds += process_cpu_seconds() - cpu_before;
    put_stats(w, s);
    w.put(mode_.round_trips());
    wire_.send(0, Tag::Result, w.take());
    // The RESULT belongs to this search: rank 0 adds it to this rank's count.
    baseline_ = wire_.traffic();
  }

  SearchStats local_stats() const {
    SearchStats s;
    for (const auto& t : threads_) s += t->stats;
    if (p_.ranks > 1) mode_.add_stats(s);
    return s;
  }
  std::vector<Ballot> local_ballots() const {
    std::vector<Ballot> v;
    for (const auto& t : threads_) {
      const SearchResult& r = t->result;
      v.push_back({r.best_move, r.score, r.completed ? r.depth : 0, r.pv});
    }
    return v;
  }

  // The rank's wire thread for one search: runs the mode's tick and hands
  // it what arrives; at the end (rank 0: finish(); another rank: STOP)
  // stops the threads, sends FIN to every other rank once they have
  // unwound, and returns once every other rank's FIN (and on rank 0, every
  // RESULT) has arrived.
  void wire_loop() {
    const bool root = rank() == 0;
    const int others = p_.ranks - 1;
    bool stopping = false, fin_sent = false;
    int fins = 0, results = 0;
    Clock::time_point next_tick = wire_now() + p_.tick, give_up{};
    for (Message& m : early_)
      if (Reader(m.body).get<std::uint64_t>() == id_) handle(m, fin_sent, fins, results);
    early_.clear();
    for (;;) {
      // Rank 0's threads check the clock and the stop signal once per batch
      // of nodes; a thread that waits on round trips (mpi-abdada's claims)
      // counts few nodes, and heard a "stop" 20 ms late. The wire thread,
      // awake at least once a millisecond, checks them too and wakes it.
      if (root && !stopping && !shared_->stopped() && clock_or_signal_stops(*shared_)) {
        shared_->stop.store(true, std::memory_order_relaxed);
        mode_.stopping(*this);
      }
      if (!stopping && (root ? ending_.load(std::memory_order_acquire) : stop_seen_)) {
        stopping = true;
        done_.store(true, std::memory_order_relaxed);
        if (root) {
          for (int r = 1; r < p_.ranks; ++r)
            wire_.send(r, Tag::Stop, Writer().put(id_).put(ended_by_stop_).take());
        }
        mode_.stopping(*this);
        give_up = wire_now() + kDrainLimit;
      }
      if (stopping && !fin_sent && active_.load(std::memory_order_acquire) == 0 &&
          mode_.settled(fin_from_)) {
        mode_.closing(*this);
        for (int r = 0; r < p_.ranks; ++r)
          if (r != rank()) wire_.send(r, Tag::Fin, Writer().put(id_).take());
        fin_sent = true;
      }
      if (fin_sent && fins == others && (!root || results == others)) return;
      Clock::time_point now = wire_now();
      if (!stopping && now >= next_tick) {
        mode_.tick(*this);
        report_progress();
        next_tick = now + p_.tick;
      }
      if (stopping && now >= give_up)
        throw std::runtime_error(std::string(M::kName) + ": " + missing(fins, results) +
                                 " within " + std::to_string(kDrainLimit.count()) +
                                 " s of the stop");
      // Rank 0 looks at ending_ at least once a millisecond; a stopping
      // rank at its unwinding threads every 50 us (they send no message
      // when they are done, and the stop's latency waits on them).
      // (Once stopping it ticks no more: the 50 us, not the next tick,
      // bound its wait.)
      auto wait = fin_sent   ? std::chrono::microseconds(10000)
                  : stopping ? std::chrono::microseconds(50)
                             : std::chrono::ceil<std::chrono::microseconds>(
                                   std::max(next_tick - now, Clock::duration::zero()));
      if (root) wait = std::min(wait, std::chrono::microseconds(1000));
      if (std::optional<Message> m = wire_.receive(wait)) handle(*m, fin_sent, fins, results);
    }
  }

  std::string missing(int fins, int results) const {
    if (rank() != 0)
      return "rank " + std::to_string(rank()) + " heard FIN from only " + std::to_string(fins) +
             " of " + std::to_string(p_.ranks - 1) + " ranks";
    std::string s;
    for (int r = 1; r < p_.ranks; ++r)
      if (!reports_[std::size_t(r)]) s += (s.empty() ? "" : ", ") + std::to_string(r);
    return "rank(s) " + (s.empty() ? std::string("?") : s) + " did not report (" +
           std::to_string(fins) + " FIN, " + std::to_string(results) + " RESULT of " +
           std::to_string(p_.ranks - 1) + ")";
  }

  void report_progress() {
    if (rank() == 0 || !progress_wanted_) return;
    std::uint64_t nodes = 0;
    for (const auto& t : threads_) nodes += t->stats.nodes;
    if (nodes == last_sent_nodes_) return;
    last_sent_nodes_ = nodes;
    wire_.send(0, Tag::Progress, Writer().put(id_).put(nodes).take());
  }

  void handle(const Message& m, bool fin_sent, int& fins, int& results) {
    const auto unexpected = [&] {
      return std::runtime_error(std::string(M::kName) + ": rank " + std::to_string(rank()) +
                                " received message tag " + std::to_string(int(m.tag)) +
                                " from rank " + std::to_string(m.source) + " during a search");
    };
    if (m.tag == Tag::Search || m.tag == Tag::Clear || m.tag == Tag::Quit ||
        m.tag == Tag::Config || m.tag == Tag::Shutdown)
      throw unexpected();
    Reader r(m.body);
    const auto id = r.get<std::uint64_t>();
    switch (m.tag) {
      case Tag::Progress: {
        const auto nodes = r.get<std::uint64_t>();
        if (id != id_ || rank() != 0) return;
        std::uint64_t& last = last_progress_[std::size_t(m.source)];
        const std::uint64_t delta = nodes - last;
        last = nodes;
        remote_nodes_.fetch_add(delta, std::memory_order_relaxed);
        shared_->nodes.fetch_add(delta, std::memory_order_relaxed);
        return;
      }
      case Tag::Fin:
        if (id != id_) return;
        ++fins;
        fin_from_[std::size_t(m.source)] = true;
        return;
      case Tag::Stop:
        if (id != id_) return;
        stop_seen_ = true;
        ended_by_stop_ = r.get<bool>();
        return;
      case Tag::Result: {
        if (id != id_ || rank() != 0) return;
        Report rep;
        rep.ballots.resize(r.get<std::uint16_t>());
        for (Ballot& b : rep.ballots) b = get_ballot(r);
        rep.stats = get_stats(r);
        rep.round_trips = r.get<RoundTrips>();
        // The RESULT itself left that rank after it counted its traffic.
        rep.stats[dist::msgs_sent] += 1;
        rep.stats[dist::bytes_sent] += m.body.size();
        reports_[std::size_t(m.source)] = std::move(rep);
        ++results;
        return;
      }
      default:
        if (id != id_) return;  // late traffic of an ended search
        if (!mode_.handle(*this, m, r, fin_sent)) throw unexpected();
        return;
    }
  }

  const ClusterParams p_;
  M mode_;
  Transport& wire_;
  Tt& tt_;
  std::vector<std::unique_ptr<RankThread>> threads_;
  std::optional<Hooks> hooks_;
  std::optional<Search<Tt, Hooks>> search_;
  SearchShared* shared_ = nullptr;
  Request request_;             // another rank: the search it serves
  std::vector<Message> early_;  // another rank: messages ahead of their SEARCH
  sim::Machine* sim_ = nullptr;  // another rank: the next SEARCH's simulated machine
  int sim_id_ = 0;               // ... and its logical thread there
  std::uint64_t id_ = 0;
  bool running_ = false;  // the caller's thread only
  bool solo_ = false;     // rank 0: this search asked no other rank
  std::atomic<bool> done_{false};    // the rank's threads stop
  std::atomic<bool> ending_{false};  // rank 0: the wire thread drains
  std::atomic<int> active_{0};       // pool search threads still searching
  std::atomic<std::uint64_t> remote_nodes_{0};
  // The wire thread's (read by others after the pool has parked).
  std::vector<std::optional<Report>> reports_;
  std::vector<std::uint64_t> last_progress_;
  std::uint64_t last_sent_nodes_ = 0;
  bool progress_wanted_ = false;
  bool stop_seen_ = false;
  // Rank 0: written by finish() before ending_; another rank: by its wire
  // thread (read after the pool has parked).
  bool ended_by_stop_ = false;
  std::vector<bool> fin_from_;  // the ranks whose FIN has arrived
  Traffic baseline_, traffic_;
  // Last: its helpers are joined before the state above goes away.
  ThreadPool pool_;
};

}  // namespace xq::dist
