// mpi-lazy: Lazy SMP across ranks (Stockfish's cluster branch, Texel's lazy
// cluster). Every rank runs the lazysmp machinery with T threads over a
// table of its own; each thread's table stores at least `share_depth` deep
// go into its outbox (the deepest `share_batch` since the last tick), and
// once per tick the rank's wire thread ships the boxes to the other ranks
// (to all at once, or round a ring), which store what they receive from a
// table slot of their own under their replacement rule. Threads are told
// apart by their global id rank * T + i (the depth skips and window shifts
// of lazysmp); only rank 0's thread 0 is bound by the depth limit and
// reports iterations. Rank 0 owns the clock: when its main thread is done it
// sends STOP; every rank then sends FIN to every other as its last message,
// waits for theirs (messages between two ranks keep their order, so nothing
// of the search is in flight any more) and sends rank 0 its RESULT: its
// threads' ballots and counters. Node limits bind the cluster's count: the
// ranks report their nodes each tick while one is set. The result is rank 0's
// main thread's, or with best_thread=vote (searches without a depth limit,
// outside exact mode) the thread a vote over every rank picks.
//
// The wire (parallel/dist/transport.h, param `wire`) is MPI when this
// process is rank 0 of a world that mpirun started (ranks 1..R-1 serve the
// backend: parallel/dist/mpi_world.h), or else the loop wire: ranks as
// thread groups of this process, each with its own table, so that the
// protocol runs, and is tested, in every build. Ranks wait for messages on
// the wire, never by spinning: a rank's wire thread wakes once per tick.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/dist/loop.h"
#include "parallel/dist/mpi_world.h"
#include "parallel/dist/rank.h"
#include "parallel/shared/lazysmp.h"
#include "parallel/shared/root_threads.h"
#include "parallel/thread_pool.h"
#include "search/driver.h"
#include "search/virtual_time.h"

namespace xq {

extern const BackendInfo kLazySmpBackend;

namespace {

using dist::Reader;
using dist::Tag;
using dist::Writer;
using Clock = std::chrono::steady_clock;

// How long rank 0 waits for the other ranks' FIN and RESULT after STOP.
constexpr auto kDrainLimit = std::chrono::seconds(30);

struct ClusterParams {
  int ranks = 1;
  int threads = 1;  // per rank
  lazysmp::Skip skip = lazysmp::Skip::None;
  Value offset = 0;
  bool vote = false;
  Depth share_depth = 0;  // 0: nothing is shipped
  int batch = 16;
  bool ring = false;
  std::chrono::microseconds tick{1000};
  std::chrono::microseconds latency{0};
  bool mpi = false;  // the MPI world's ranks, not the loop wire's

  explicit ClusterParams(const BackendConfig& c)
      : ranks(int(c.param("ranks"))),
        threads(c.threads),
        skip(lazysmp::Skip(c.param("skip_schedule"))),
        offset(Value(c.param("window_offset"))),
        vote(c.param("best_thread") != 0),
        share_depth(Depth(c.param("share_depth"))),
        batch(int(c.param("share_batch"))),
        ring(c.param("exchange") == 1),
        tick(c.param("tick_us")),
        latency(c.param("latency_us")),
        mpi(c.param("wire") == 2 ||
            (c.param("wire") == 0 && dist::mpi_world() && dist::mpi_world()->size() > 1)) {}
  bool sharing() const { return ranks > 1 && share_depth > 0; }
};

struct RankThread : Worker {
  explicit RankThread(int thread_id) : Worker(thread_id) {}
  SearchResult result;  // written by its thread, read after it has parked
};

// What a rank reports to rank 0 at the end of a search.
struct Report {
  std::vector<dist::Ballot> ballots;
  SearchStats stats;
};

template <class Table>
class Rank;

template <class Table>
class RankHooks : public SerialHooks {
 public:
  static constexpr bool kSkipsDepths = true;
  explicit RankHooks(const Rank<Table>& rank) : rank_(rank) {}

  bool aborted(const Worker& w) const { return rank_.stopped(w); }
  void add_helper_stats(SearchStats& s) const { rank_.add_helpers(s); }
  bool skip_depth(const Worker& w, Depth d) const {
    return lazysmp::skips(rank_.params().skip, rank_.global_id(w), d);
  }
  bool bound_by_depth_limit(const Worker& w) const { return rank_.global_id(w) == 0; }
  Value window_shift(const Worker& w) const {
    return lazysmp::window_shift(rank_.params().offset, rank_.global_id(w));
  }

 private:
  const Rank<Table>& rank_;
};

// One rank: its threads (on a pool: rank 0's thread 0 is the caller's), its
// wire thread (rank 0: the pool's last helper; another rank: the thread
// that serves) and the table it searches (the backend's, on rank 0).
template <class Table>
class Rank {
 public:
  using Tt = dist::ShippingTable<Table>;

  Rank(const ClusterParams& p, dist::Transport& wire, Tt& table)
      : p_(p), wire_(wire), tt_(table), boxes_(p.threads, p.batch),
        // One rank needs no wire thread (so that it runs on the simulated
        // machine as lazysmp does).
        pool_(p.ranks > 1 ? p.threads + 1 : p.threads) {
    for (int i = 0; i < p.threads; ++i) threads_.push_back(std::make_unique<RankThread>(i));
    tt_.ship_to(p.sharing() ? &boxes_ : nullptr, p.share_depth);
    baseline_ = wire_.traffic();
  }
  ~Rank() { finish_quietly(); }
  Rank(const Rank&) = delete;
  Rank& operator=(const Rank&) = delete;

  const ClusterParams& params() const { return p_; }
  int rank() const { return wire_.rank(); }
  int global_id(const Worker& w) const { return rank() * p_.threads + w.id; }
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
  Search<Tt, RankHooks<Table>>& search() { return *search_; }

  void clear() {
    tt_.clear();
    for (auto& t : threads_) t->clear_heuristics();
  }

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
      dist::put_request(w, id, pos, shared.options);
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
    done_.store(true, std::memory_order_relaxed);
    ending_.store(true, std::memory_order_relaxed);
    pool_.wait_parked();
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
    dist::add_traffic(s, traffic_);
    for (const std::optional<Report>& r : reports_)
      if (r) s += r->stats;
    return s;
  }
  // Each rank's nodes and traffic in the finished search, rank 0 first.
  std::vector<RankFigures> figures() const {
    const auto of = [](const SearchStats& s) {
      return RankFigures{s.nodes, s.msgs_sent, s.bytes_sent, s.msgs_received, s.bytes_received};
    };
    SearchStats own = local_stats();
    dist::add_traffic(own, traffic_);
    std::vector<RankFigures> v = {of(own)};
    for (std::size_t r = 1; r < reports_.size(); ++r)
      v.push_back(reports_[r] ? of(reports_[r]->stats) : RankFigures{});
    return v;
  }
  // Every thread's ballot, rank by rank (rank 0's thread 0 first).
  std::vector<dist::Ballot> ballots() const {
    std::vector<dist::Ballot> v = local_ballots();
    for (const std::optional<Report>& r : reports_)
      if (r) v.insert(v.end(), r->ballots.begin(), r->ballots.end());
    return v;
  }

  // Another rank: messages of its first search that arrived before it
  // existed (counted by the wire before this rank's baseline: moved into
  // the first search's interval).
  void adopt_early(std::vector<dist::Message> early) {
    for (dist::Message& m : early) {
      baseline_.msgs_received -= 1;
      baseline_.bytes_received -= m.body.size();
      early_.push_back(std::move(m));
    }
  }

  // Another rank: serves searches until rank 0 says Quit (returns false)
  // or Shutdown (rank 0 is leaving: returns true).
  bool serve() {
    for (;;) {
      std::optional<dist::Message> m = wire_.receive(std::chrono::milliseconds(100));
      if (!m) continue;
      if (m->tag == Tag::Quit) return false;
      if (m->tag == Tag::Shutdown) return true;
      if (m->tag == Tag::Clear) {
        clear();
      } else if (m->tag == Tag::Search) {
        Reader r(m->body);
        dist::get_request(r, request_);
        serve_search();
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
    shipped_ = received_ = boxes_offered_ = last_sent_nodes_ = 0;
    boxes_.reset();
    for (auto& t : threads_) {
      reset_worker(*t, pos);
      t->result = SearchResult{};
    }
    hooks_.emplace(*this);
    search_.emplace(tt_, *hooks_, shared);
    running_ = true;
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
  void run_thread(RankThread& t) { t.result = iterative_deepening(*search_, t, *shared_, nullptr); }

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
    // Rank 0 owns the limits; a node limit makes this rank report its count.
    progress_wanted_ = shared.options.limits.nodes > 0;
    shared.options.limits = Limits{};
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
    Writer w;
    w.put(id_).put(std::uint16_t(threads_.size()));
    for (const dist::Ballot& b : local_ballots()) dist::put_ballot(w, b);
    SearchStats s = local_stats();
    dist::add_traffic(s, wire_.traffic() - baseline_);
    // Over MPI this rank is a process of its own, whose CPU time rank 0's
    // getrusage does not see (the lab adds helper_cpu_seconds to it).
    if (p_.mpi) s.helper_cpu_seconds += process_cpu_seconds() - cpu_before;
    dist::put_stats(w, s);
    wire_.send(0, Tag::Result, w.take());
    // The RESULT belongs to this search: rank 0 adds it to this rank's count.
    baseline_ = wire_.traffic();
  }

  SearchStats local_stats() const {
    SearchStats s;
    for (const auto& t : threads_) s += t->stats;
    if (p_.ranks > 1) {
      s.entries_offered += boxes_offered_;
      s.entries_shipped += shipped_;
      s.entries_received += received_;
    }
    return s;
  }
  std::vector<dist::Ballot> local_ballots() const {
    std::vector<dist::Ballot> v;
    for (const auto& t : threads_) {
      const SearchResult& r = t->result;
      v.push_back({r.best_move, r.score, r.completed ? r.depth : 0, r.pv});
    }
    return v;
  }

  // The rank's wire thread for one search: ships the outboxes once per tick
  // and stores what arrives; at the end (rank 0: finish(); another rank:
  // STOP) sends FIN to every other rank and returns once every other rank's
  // FIN (and on rank 0, every RESULT) has arrived.
  void wire_loop() {
    const bool root = rank() == 0;
    const int others = p_.ranks - 1;
    bool stop_seen = false, fin_sent = false;
    int fins = 0, results = 0;
    Clock::time_point next_tick = Clock::now() + p_.tick, give_up{};
    std::vector<dist::WireEntry> batch;
    for (dist::Message& m : early_)
      if (Reader(m.body).get<std::uint64_t>() == id_) handle(m, fin_sent, stop_seen, fins, results);
    early_.clear();
    for (;;) {
      if (!fin_sent && (root ? ending_.load(std::memory_order_relaxed) : stop_seen)) {
        boxes_offered_ = boxes_.offered();
        done_.store(true, std::memory_order_relaxed);
        for (int r = 0; r < p_.ranks; ++r) {
          if (r == rank()) continue;
          if (root) wire_.send(r, Tag::Stop, Writer().put(id_).take());
          wire_.send(r, Tag::Fin, Writer().put(id_).take());
        }
        fin_sent = true;
        give_up = Clock::now() + kDrainLimit;
      }
      if (fin_sent && fins == others && (!root || results == others)) return;
      Clock::time_point now = Clock::now();
      if (!fin_sent && now >= next_tick) {
        ship(batch);
        next_tick = now + p_.tick;
      }
      if (fin_sent && now >= give_up)
        throw std::runtime_error("mpi-lazy: " + missing(fins, results) + " within " +
                                 std::to_string(kDrainLimit.count()) + " s of the stop");
      // Rank 0 looks at ending_ at least once a millisecond.
      auto wait = fin_sent ? std::chrono::microseconds(10000)
                           : std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::max(next_tick - now, Clock::duration::zero()));
      if (root) wait = std::min(wait, std::chrono::microseconds(1000));
      if (std::optional<dist::Message> m = wire_.receive(wait))
        handle(*m, fin_sent, stop_seen, fins, results);
    }
  }

  std::string missing(int fins, int results) const {
    if (rank() != 0) return "rank " + std::to_string(rank()) + " heard FIN from only " +
                            std::to_string(fins) + " of " + std::to_string(p_.ranks - 1) + " ranks";
    std::string s;
    for (int r = 1; r < p_.ranks; ++r)
      if (!reports_[std::size_t(r)]) s += (s.empty() ? "" : ", ") + std::to_string(r);
    return "rank(s) " + (s.empty() ? std::string("?") : s) + " did not report (" +
           std::to_string(fins) + " FIN, " + std::to_string(results) + " RESULT of " +
           std::to_string(p_.ranks - 1) + ")";
  }

  void ship(std::vector<dist::WireEntry>& batch) {
    if (!p_.sharing()) return;
    batch.clear();
    boxes_.collect(batch);
    if (!batch.empty()) {
      shipped_ += batch.size();
      Writer w;
      w.put(id_).put(std::uint16_t(rank())).put(std::uint32_t(batch.size()));
      for (const dist::WireEntry& e : batch) w.put(e);
      const std::vector<std::uint8_t> body = w.take();
      if (p_.ring) {
        wire_.send((rank() + 1) % p_.ranks, Tag::Entries, body);
      } else {
        for (int r = 0; r < p_.ranks; ++r)
          if (r != rank()) wire_.send(r, Tag::Entries, body);
      }
    }
    if (rank() != 0 && progress_wanted_) {
      std::uint64_t nodes = 0;
      for (const auto& t : threads_) nodes += t->stats.nodes;
      if (nodes != last_sent_nodes_) {
        last_sent_nodes_ = nodes;
        wire_.send(0, Tag::Progress, Writer().put(id_).put(nodes).take());
      }
    }
  }

  void handle(const dist::Message& m, bool fin_sent, bool& stop_seen, int& fins, int& results) {
    if (m.tag != Tag::Entries && m.tag != Tag::Progress && m.tag != Tag::Fin &&
        m.tag != Tag::Stop && m.tag != Tag::Result)
      throw std::runtime_error("mpi-lazy: rank " + std::to_string(rank()) +
                               " received message tag " + std::to_string(int(m.tag)) +
                               " from rank " + std::to_string(m.source) + " during a search");
    Reader r(m.body);
    const auto id = r.get<std::uint64_t>();
    switch (m.tag) {
      case Tag::Entries: {
        const auto origin = r.get<std::uint16_t>();
        const auto n = r.get<std::uint32_t>();
        if (id != id_) return;
        for (std::uint32_t i = 0; i < n; ++i) tt_.store_received(r.get<dist::WireEntry>(), p_.threads);
        received_ += n;
        const int next = (rank() + 1) % p_.ranks;
        if (p_.ring && !fin_sent && next != origin) wire_.send(next, Tag::Entries, m.body);
        return;
      }
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
        if (id == id_) ++fins;
        return;
      case Tag::Stop:
        if (id == id_) stop_seen = true;
        return;
      case Tag::Result: {
        if (id != id_ || rank() != 0) return;
        Report rep;
        rep.ballots.resize(r.get<std::uint16_t>());
        for (dist::Ballot& b : rep.ballots) b = dist::get_ballot(r);
        rep.stats = dist::get_stats(r);
        // The RESULT itself left that rank after it counted its traffic.
        rep.stats.msgs_sent += 1;
        rep.stats.bytes_sent += m.body.size();
        reports_[std::size_t(m.source)] = std::move(rep);
        ++results;
        return;
      }
      default:
        throw std::runtime_error("mpi-lazy: rank " + std::to_string(rank()) +
                                 " received message tag " + std::to_string(int(m.tag)) +
                                 " from rank " + std::to_string(m.source) + " during a search");
    }
  }

  const ClusterParams p_;
  dist::Transport& wire_;
  Tt& tt_;
  dist::Outboxes boxes_;
  std::vector<std::unique_ptr<RankThread>> threads_;
  std::optional<RankHooks<Table>> hooks_;
  std::optional<Search<Tt, RankHooks<Table>>> search_;
  SearchShared* shared_ = nullptr;
  dist::Request request_;  // another rank: the search it serves
  std::vector<dist::Message> early_;  // another rank: messages ahead of their SEARCH
  std::uint64_t id_ = 0;
  bool running_ = false;  // the caller's thread only
  bool solo_ = false;     // rank 0: this search asked no other rank
  std::atomic<bool> done_{false};    // the rank's threads stop
  std::atomic<bool> ending_{false};  // rank 0: the wire thread drains
  std::atomic<std::uint64_t> remote_nodes_{0};
  // The wire thread's (read by others after the pool has parked).
  std::vector<std::optional<Report>> reports_;
  std::vector<std::uint64_t> last_progress_;
  std::uint64_t shipped_ = 0, received_ = 0, boxes_offered_ = 0, last_sent_nodes_ = 0;
  bool progress_wanted_ = false;
  dist::Traffic baseline_, traffic_;
  // Last: its helpers are joined before the state above goes away.
  ThreadPool pool_;
};

template <class Table>
class MpiLazyBackend final : public BackendBase<dist::ShippingTable<Table>> {
  using Base = BackendBase<dist::ShippingTable<Table>>;
  using Tt = dist::ShippingTable<Table>;

 public:
  explicit MpiLazyBackend(const BackendConfig& c)
      : Base(c, TableMemory::Private, /*extra_slots=*/1), p_(c) {
    this->require_thread_slots(c.threads + 1);
    if (p_.mpi) {
      start_mpi_ranks(c);
    } else {
      world_ = std::make_unique<dist::LoopWorld>(p_.ranks, p_.latency);
      wire_ = &world_->rank(0);
      start_loop_ranks(c);
    }
    root_ = std::make_unique<Rank<Table>>(p_, *wire_, this->tt_);
  }
  ~MpiLazyBackend() override {
    root_.reset();
    for (int r = 1; r < p_.ranks; ++r) wire_->send(r, Tag::Quit, {});
    for (std::thread& t : serving_) t.join();
    if (p_.mpi) dist::release_mpi_ranks();
  }

  std::string_view name() const override { return "mpi-lazy"; }
  bool exclusive() const override { return p_.mpi; }
  void clear() override {
    root_->clear();
    for (int r = 1; r < p_.ranks; ++r) wire_->send(r, Tag::Clear, {});
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    if (p_.ranks > 1 && sim::current())
      throw std::invalid_argument(
          "mpi-lazy cannot run on the simulated machine: its ranks wait for messages, which "
          "the simulator does not schedule");
    root_->begin(pos, shared, ++search_id_);
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    const SearchOptions& o = shared.options;
    Helpers helpers{*this};
    LastIterationGate<Helpers> gate(observer, helpers, o.limits.depth);
    SearchResult r = iterative_deepening(root_->search(), root_->thread(0), shared, &gate);
    root_->finish();
    if (!p_.vote || o.limits.depth > 0 || o.exact || !r.completed) return r;
    std::vector<dist::Ballot> all = root_->ballots();
    std::vector<lazysmp::Ballot> ballots;
    for (const dist::Ballot& b : all) ballots.push_back({b.move, b.score, b.depth});
    const std::size_t winner = lazysmp::vote(ballots);
    if (winner == 0) return r;
    SearchResult chosen = r;
    chosen.best_move = all[winner].move;
    chosen.score = all[winner].score;
    chosen.depth = all[winner].depth;
    chosen.pv = all[winner].pv;
    return chosen;
  }

  void end_search() noexcept override { root_->finish_quietly(); }
  SearchStats thread_stats() const override { return root_->stats(); }
  std::vector<RankFigures> rank_figures() const override { return root_->figures(); }

 private:
  struct Helpers {
    MpiLazyBackend& b;
    void finish() { b.root_->finish(); }
    SearchStats sum() const { return b.root_->stats(); }
  };

  // The loop wire's other ranks: a table and a rank each, serving on a
  // thread of this process.
  void start_loop_ranks(const BackendConfig& c) {
    for (int r = 1; r < p_.ranks; ++r) {
      tables_.push_back(std::make_unique<Tt>());
      configure_table(*tables_.back(), c, c.threads + 1);
      servers_.push_back(std::make_unique<Rank<Table>>(p_, world_->rank(r), *tables_.back()));
    }
    for (int r = 1; r < p_.ranks; ++r) {
      Rank<Table>& server = *servers_[std::size_t(r - 1)];
      serving_.emplace_back([&server, r] {
        try {
          server.serve();
        } catch (const std::exception& e) {
          std::fprintf(stderr, "xqlab: mpi-lazy rank %d stopped serving: %s\n", r, e.what());
        }
      });
    }
  }

  // The MPI world's ranks 1..R-1 serve this backend (mpi_world.cpp's loop).
  void start_mpi_ranks(const BackendConfig& c) {
    wire_ = dist::mpi_world();
    if (!wire_)
      throw std::invalid_argument(
          dist::mpi_built()
              ? "mpi-lazy: wire=mpi needs ranks started by mpirun (mpirun -np R xqlab ...)"
              : "mpi-lazy: wire=mpi: this xqlab was built without MPI (configure with "
                "-DXQLAB_MPI=ON)");
    if (wire_->size() < p_.ranks)
      throw std::invalid_argument("mpi-lazy: ranks=" + std::to_string(p_.ranks) +
                                  " but mpirun started " + std::to_string(wire_->size()) +
                                  " processes");
    dist::claim_mpi_ranks("mpi-lazy");
    Writer w;
    dist::put_config(w, "mpi-lazy", c);
    const std::vector<std::uint8_t> body = w.take();
    for (int r = 1; r < p_.ranks; ++r) wire_->send(r, Tag::Config, body);
  }

  const ClusterParams p_;
  std::uint64_t search_id_ = 0;
  dist::Transport* wire_ = nullptr;
  std::unique_ptr<dist::LoopWorld> world_;
  std::vector<std::unique_ptr<Tt>> tables_;
  std::vector<std::unique_ptr<Rank<Table>>> servers_;
  std::vector<std::thread> serving_;
  std::unique_ptr<Rank<Table>> root_;
};

}  // namespace

// The distributed backends a rank other than 0 can serve (MPI).
bool dist::serve_backend(std::string_view backend, const BackendConfig& c, Transport& wire,
                         std::vector<Message> early) {
  if (backend != "mpi-lazy")
    throw std::runtime_error("rank " + std::to_string(wire.rank()) + " cannot serve backend '" +
                             std::string(backend) + "'");
  validate_config(c);
  return visit_scheme(c.hash, [&](auto tag) {
    using Table = typename decltype(tag)::type;
    dist::ShippingTable<Table> table;
    configure_table(table, c, c.threads + 1);
    const ClusterParams p(c);
    Rank<Table> rank(p, wire, table);
    rank.adopt_early(std::move(early));
    return rank.serve();
  });
}

// The registry's entry (parallel/registry.cpp): every scheme.
extern const BackendInfo kMpiLazyBackend = {
    "mpi-lazy",
    "Lazy SMP across ranks with their own tables, deep entries shipped between them (loop wire)",
    "xor", Sharing::Table, every_scheme,
    [](const BackendConfig& config) { return make_for_scheme<MpiLazyBackend>(config); },
    []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = [] {
        std::vector<ParamSpec> v = {
            {"ranks", "ranks (processes with their own table), each running --threads threads", 1,
             64, {}, 2, /*tuned=*/false},
            {"share_depth", "least depth of a table store shipped to the other ranks (0: none)", 0,
             64, {}, 4},
            {"share_batch", "deepest stores each thread keeps for the next tick", 1, 1024, {}, 16},
            {"exchange", "where a rank ships its entries: every rank, or the next round a ring", 0,
             1, {"all", "ring"}, 0},
            {"tick_us", "microseconds between two shipments of a rank", 50, 1000000, {}, 1000},
            {"latency_us", "loop wire: microseconds a message takes to arrive", 0, 1000000, {}, 0,
             /*tuned=*/false},
            {"wire", "the ranks' wire: MPI under mpirun, else in-process (auto), or either",
             0, 2, {"auto", "loop", "mpi"}, 0, /*tuned=*/false}};
        const std::vector<ParamSpec>& lazy = kLazySmpBackend.params();
        v.insert(v.end(), lazy.begin(), lazy.end());
        return v;
      }();
      return kParams;
    },
    // At one thread per rank it still runs `ranks` threads.
    /*serial_at_one_thread=*/false,
    // Run when named: the distributed comparison is its own question.
    /*in_default_lab=*/false,
    // The simulated machine cannot schedule its wire threads' waits.
    /*simulable=*/false};

}  // namespace xq
