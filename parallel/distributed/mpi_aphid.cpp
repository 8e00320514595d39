// mpi-aphid: APHID across ranks, the setting Brockington & Schaeffer built
// it for (a network of workstations, no shared memory), on the rank
// machinery of parallel/distributed/cluster.h. Rank 0's thread 0 is the master
// (parallel/shared/aphid_master.h: passes over the top plies on the leaf
// results in its APHID table); every other thread of every rank is a
// searcher with the rank's own table (per-thread tables by default, as in
// the paper). The table lives at rank 0 only; searchers elsewhere get their
// leaves by message:
//
//   LEAF_ASK   searcher -> 0: give me leaves (sent once, at the start);
//   LEAF_JOB   0 -> searcher's rank: a leaf to search (its line from the
//              root, depths, window), sent at once when the table has one
//              for it, else as soon as a pass (or a dropped leaf) does; a
//              searcher holds up to `aphid_queue` leaves, so that with 2 or
//              more the next is there when a result leaves (Brockington's
//              searchers read a local copy of the table instead of asking);
//              a leaf beyond the first held is never speculative;
//   LEAF_RESULT searcher -> 0: what one depth of the leaf's search proved;
//              the last depth's also frees the leaf's place in the queue;
//   LEAF_YIELD 0 -> searcher's rank: the pass wants a leaf of yours; give
//              up the speculative search (one ply deeper than needed) of
//              the leaf named, or drop it from the queue;
//   LEAF_DROP  searcher's rank -> 0: the leaf named was given up (a yield)
//              and goes back to the table; its place is free.
//
// So no searcher waits on the master inside a tree, and the master never
// waits on a message: results move its table, and it passes again when one
// it needs arrived (as on threads). A searcher with no leaf sleeps on its
// inbox until one arrives or its rank stops. Rank 0's other threads take
// their leaves from the table directly, as `aphid`'s helpers do. The leaves
// a searcher searches, the passes, the uncertain leaves and the re-searches
// are counted as in `aphid` (summed over every rank), and every thread's
// time is booked (idle while a searcher waits for a leaf).
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "parallel/distributed/cluster_backend.h"
#include "parallel/shared/aphid_master.h"

namespace xq {
namespace {

using dist::Reader;
using dist::Tag;
using dist::Writer;

template <class R>
class AphidRankHooks : public SerialHooks {
 public:
  static constexpr bool kRunsIterations = true;
  explicit AphidRankHooks(R& rank) : rank_(rank) {}

  bool aborted(const Worker& w) const { return rank_.stopped(w) || rank_.mode().yielded(w); }
  void add_helper_stats(SearchStats& s) const { rank_.add_helpers(s); }

  template <class S>
  Value run_iteration(S& search, Worker& w, Depth depth, Value prev, const Worker*& line) {
    line = &w;
    return rank_.mode().iteration(rank_, search, w, depth, prev);
  }

 private:
  R& rank_;
};

// A searcher of a rank other than 0: the leaves rank 0 sent it.
struct alignas(64) Inbox {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<aphid::Job> jobs;       // under mutex, oldest first
  std::atomic<Key> current{0};       // the leaf it searches (a YIELD names it)
  std::atomic<bool> yield{false};    // read at every node
};

// A leaf's line or result line: at most kMaxPly moves, each a move.
std::vector<Move> get_line(Reader& r) {
  std::vector<Move> v;
  dist::get_moves(r, v, std::size_t(kMaxPly));
  for (Move m : v)
    if (!m.is_ok()) throw std::runtime_error("malformed message: a line holds no move");
  return v;
}

template <class Table>
class AphidMode final : public aphid::Crew {
 public:
  using Tt = Table;
  template <class R>
  using Hooks = AphidRankHooks<R>;
  static constexpr std::string_view kName = "mpi-aphid";
  static constexpr bool kVotes = false;
  static constexpr bool kSimulable = false;
  static constexpr bool kDepthLimitOnEveryRank = false;

  AphidMode(const BackendConfig& c, const dist::ClusterParams& p)
      : config_(c),
        ranks_(p.ranks),
        threads_(p.threads),
        master_searches_(c.param("aphid_master") != 0 || p.ranks * p.threads == 1),
        queue_(int(c.param("aphid_queue"))),
        master_(c, p.threads),
        inboxes_(std::size_t(p.threads)),
        ledgers_(std::size_t(p.threads)),
        remote_(std::size_t(p.ranks * p.threads)) {}

  template <class R>
  void attach(R& rank) {
    wire_ = &rank.wire();
    done_ = &rank.done_flag();
    rank_ = rank.rank();
  }
  void reset(std::uint64_t id, const std::atomic<bool>&) {
    id_ = id;
    for (Inbox& b : inboxes_) {
      b.jobs.clear();
      b.current.store(0, std::memory_order_relaxed);
      b.yield.store(false, std::memory_order_relaxed);
    }
    for (Remote& s : remote_) s = Remote{};
    const auto start = split_timing::now();
    for (std::size_t i = 0; i < ledgers_.size(); ++i)
      ledgers_[i].open(start, rank_ == 0 && i == 0 ? aphid::Part::Search : aphid::Part::Idle);
  }
  // After reset and the threads' (cluster.h), with the search's options:
  // rank 0 readies the master's table before any searcher can ask it for
  // a leaf.
  template <class R>
  void begin(R& rank, SearchShared& shared) {
    if (rank_ != 0) return;
    std::vector<int> searchers;
    for (int g = master_searches_ ? 0 : 1; g < ranks_ * threads_; ++g) searchers.push_back(g);
    using Probe = Search<Tt, SerialHooks>;
    master_.begin(aphid::settings_of(config_, std::move(searchers), shared.options.exact),
                  master_searches_, rank.thread(0).pos, rank.table(),
                  Probe::effective_features(shared.options),
                  shared.options.algorithm == Algorithm::Pvs, shared, this);
  }

  bool yielded(const Worker& w) const {
    return rank_ == 0 ? master_.yielded(w.id)
                      : inboxes_[std::size_t(w.id)].yield.load(std::memory_order_relaxed);
  }

  // The driver's iteration: the master's on rank 0's thread 0; every other
  // thread serves leaves for the whole search at its first iteration.
  template <class R, class S>
  Value iteration(R& rank, S& search, Worker& w, Depth depth, Value prev) {
    aphid::Ledger& ledger = ledgers_[std::size_t(w.id)];
    if (rank_ == 0 && w.id == 0) return master_.iteration(search, w, ledger, depth, prev);
    if (rank_ == 0)
      master_.serve(search, w, ledger, [&] { return rank.stopped(w); });
    else
      serve_remote(rank, search, w, ledger);
    return 0;
  }

  // Under the table's lock, after each pass (the master's thread): hands
  // waiting searchers elsewhere their leaves, and tells those searching a
  // leaf speculatively that the pass now wants one of theirs to give way.
  void after_pass(aphid::Table& table) override {
    for (int g = threads_; g < ranks_ * threads_; ++g) {
      Remote& s = remote_[std::size_t(g)];
      if (s.hungry) feed(table, g);
      for (Held& h : s.held) {
        if (!h.speculative || h.yield_sent || !table.has_work(g)) continue;
        h.yield_sent = true;
        wire_->send(g / threads_, Tag::LeafYield,
                    Writer().put(id_).put(std::uint16_t(g)).put(h.key).take());
      }
    }
  }

  template <class R>
  void tick(R&) {}
  template <class R>
  void stopping(R&) {
    for (Inbox& b : inboxes_) {
      const std::lock_guard lock(b.mutex);
      b.cv.notify_all();
    }
  }
  bool settled(const std::vector<bool>&) const { return true; }
  template <class R>
  void closing(R&) {}
  template <class R>
  void finished(R& rank) {
    for (std::size_t i = 0; i < ledgers_.size(); ++i) ledgers_[i].close(rank.thread(int(i)).stats);
  }

  template <class R>
  bool handle(R&, const dist::Message& m, Reader& r, bool fin_sent) {
    switch (m.tag) {
      case Tag::LeafAsk: {
        const int g = searcher(r, m);
        const std::lock_guard lock(master_.mutex());
        if (!fin_sent) feed(master_.table(), g);
        return true;
      }
      case Tag::LeafResult: {
        const int g = searcher(r, m);
        const auto key = r.get<Key>();
        const auto d = r.get<Depth>();
        const auto win = r.get<aphid::Window>();
        const auto v = r.get<Value>();
        const bool done = r.get<std::uint8_t>() != 0;
        const std::vector<Move> line = get_line(r);
        {
          const std::lock_guard lock(master_.mutex());
          aphid::Table& table = master_.table();
          table.record(key, d, win, v, line, done);
          if (done) {
            remote_[std::size_t(g)].forget(key);
            if (!fin_sent) feed(table, g);
          }
        }
        if (done) master_.changed();  // the master may pass again
        return true;
      }
      case Tag::LeafDrop: {
        const int g = searcher(r, m);
        const auto key = r.get<Key>();
        const std::lock_guard lock(master_.mutex());
        master_.table().release(key);
        remote_[std::size_t(g)].forget(key);
        if (!fin_sent) feed(master_.table(), g);
        return true;
      }
      case Tag::LeafJob: {
        Inbox& box = inbox(r.get<std::uint16_t>(), m);
        aphid::Job job;
        job.key = r.get<Key>();
        job.first = r.get<Depth>();
        job.depth = r.get<Depth>();
        job.window = r.get<aphid::Window>();
        job.speculative = r.get<std::uint8_t>() != 0;
        job.again = r.get<std::uint8_t>() != 0;
        job.path = get_line(r);
        const std::lock_guard lock(box.mutex);
        box.jobs.push_back(std::move(job));
        box.cv.notify_one();
        return true;
      }
      case Tag::LeafYield: {
        const auto g = std::uint16_t(r.get<std::uint16_t>());
        Inbox& box = inbox(g, m);
        const auto key = r.get<Key>();
        const std::lock_guard lock(box.mutex);
        const auto queued = std::find_if(box.jobs.begin(), box.jobs.end(),
                                         [&](const aphid::Job& j) { return j.key == key; });
        if (queued != box.jobs.end()) {  // not begun: it goes back at once
          box.jobs.erase(queued);
          if (!fin_sent)
            wire_->send(0, Tag::LeafDrop, Writer().put(id_).put(g).put(key).take());
        } else if (box.current.load(std::memory_order_relaxed) == key) {
          box.yield.store(true, std::memory_order_relaxed);
        }
        return true;
      }
      default:
        return false;
    }
  }

  void add_stats(SearchStats&) const {}
  RoundTrips round_trips() const { return {}; }

 private:
  // A leaf sent to a searcher of another rank and not yet done.
  struct Held {
    Key key = 0;
    bool speculative = false;  // a ply deeper than needed ...
    bool yield_sent = false;   // ... and told to give way
  };
  // What rank 0 knows of a searcher of another rank (under the table's lock).
  struct Remote {
    bool hungry = false;     // has room, and the table had nothing for it
    std::vector<Held> held;  // sent, oldest first (at most aphid_queue)
    void forget(Key key) {
      const auto it = std::find_if(held.begin(), held.end(),
                                   [&](const Held& h) { return h.key == key; });
      if (it != held.end()) held.erase(it);
    }
  };

  // A searcher id from a message, checked against the cluster's.
  int searcher(Reader& r, const dist::Message& m) const {
    const int g = r.get<std::uint16_t>();
    if (rank_ != 0 || g < threads_ || g >= ranks_ * threads_ || g / threads_ != m.source)
      throw std::runtime_error("mpi-aphid: rank " + std::to_string(rank_) +
                               " received a leaf message for searcher " + std::to_string(g) +
                               " from rank " + std::to_string(m.source));
    return g;
  }
  Inbox& inbox(int g, const dist::Message& m) {
    if (rank_ == 0 || m.source != 0 || g / threads_ != rank_)
      throw std::runtime_error("mpi-aphid: rank " + std::to_string(rank_) +
                               " received a job for searcher " + std::to_string(g) +
                               " from rank " + std::to_string(m.source));
    return inboxes_[std::size_t(g % threads_)];
  }

  // Under the table's lock: searcher g's next leaves, sent to its rank
  // until it holds `queue_` (a speculative one only as its first), or g
  // waits for the next pass. Nothing is sent once the rank stops.
  void feed(aphid::Table& table, int g) {
    Remote& s = remote_[std::size_t(g)];
    s.hungry = false;
    if (done_->load(std::memory_order_relaxed)) return;
    while (int(s.held.size()) < queue_) {
      std::optional<aphid::Job> job = table.take(g, s.held.empty());
      if (!job) {
        s.hungry = true;
        return;
      }
      s.held.push_back({job->key, job->speculative, false});
      send_job(g, *job);
    }
  }
  void send_job(int g, const aphid::Job& job) {
    Writer w;
    w.put(id_).put(std::uint16_t(g)).put(job.key).put(job.first).put(job.depth);
    w.put(job.window);
    w.put(std::uint8_t(job.speculative)).put(std::uint8_t(job.again));
    dist::put_moves(w, job.path);
    wire_->send(g / threads_, Tag::LeafJob, w.take());
  }

  // A searcher of a rank other than 0: asks for a leaf, searches the leaves
  // rank 0 sends it, and reports each depth's result, until its rank stops.
  template <class R, class S>
  void serve_remote(R& rank, S& search, Worker& w, aphid::Ledger& ledger) {
    const Position root = w.pos;
    Inbox& box = inboxes_[std::size_t(w.id)];
    const auto g = std::uint16_t(rank.global_id(w));
    wire_->send(0, Tag::LeafAsk, Writer().put(id_).put(g).take());
    for (;;) {
      aphid::Job job;
      {
        const split_timing::InPart idle(ledger, w.stats, aphid::Part::Idle);
        std::unique_lock lock(box.mutex);
        // A wake-up is never lost (the job and the stop are set under the
        // lock); the timeout only bounds a wait on a rank that went away.
        while (box.jobs.empty() && !rank.stopped(w))
          box.cv.wait_for(lock, std::chrono::milliseconds(10));
        if (rank.stopped(w)) return;
        job = std::move(box.jobs.front());
        box.jobs.pop_front();
        box.current.store(job.key, std::memory_order_relaxed);
        box.yield.store(false, std::memory_order_relaxed);
      }
      ledger.to(aphid::Part::Search, w.stats);
      const bool finished = aphid::search_leaf(
          search, w, ledger, root, job,
          [&](Depth d, Value v, std::span<const Move> line, bool done) {
            Writer out;
            out.put(id_).put(g).put(job.key).put(d);
            out.put(job.window);
            out.put(v).put(std::uint8_t(done));
            dist::put_moves(out, line);
            wire_->send(0, Tag::LeafResult, out.take());
          });
      box.current.store(0, std::memory_order_relaxed);
      if (rank.stopped(w)) return;
      if (!finished)  // it gave way: the leaf goes back, and it asks again
        wire_->send(0, Tag::LeafDrop, Writer().put(id_).put(g).put(job.key).take());
    }
  }

  const BackendConfig config_;
  const int ranks_, threads_;
  const bool master_searches_;
  const int queue_;  // leaves a searcher of another rank holds at most
  aphid::Master<Tt> master_;  // rank 0's
  std::vector<Inbox> inboxes_;          // by local thread id (ranks other than 0)
  std::vector<aphid::Ledger> ledgers_;  // by local thread id
  std::vector<Remote> remote_;          // rank 0: by searcher id
  dist::Transport* wire_ = nullptr;
  const std::atomic<bool>* done_ = nullptr;
  int rank_ = 0;
  std::uint64_t id_ = 0;
};

template <class Table>
using MpiAphidBackend = dist::ClusterBackend<Table, AphidMode>;

}  // namespace

// How its ranks other than 0 serve (parallel/distributed/rank.h).
const dist::RankServer kMpiAphidServer{"mpi-aphid", [](const BackendConfig& c, dist::Transport& wire,
                                          std::vector<dist::Message> early) {
  return dist::serve_cluster<AphidMode, EveryTable>(c, wire, std::move(early));
}};

// The registry's entry (parallel/registry.cpp): every scheme; perthread,
// each searcher its own table, by default.
extern const BackendInfo kMpiAphidBackend = {
    .name = "mpi-aphid",
    .summary = "APHID across ranks: rank 0's master passes over the top plies on the leaf results the "
    "other ranks' searchers send it",
    .default_hash = "perthread",
    .sharing = Sharing::Leaves,
    .supports = runs_on<EveryTable>,
    .make = make_on<MpiAphidBackend, EveryTable>,
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = [] {
        std::vector<ParamSpec> v = dist::cluster_params();
        const std::vector<ParamSpec> own = aphid::master_params();
        v.insert(v.end(), own.begin(), own.end());
        v.push_back({"aphid_queue",
                     "leaves a searcher of another rank holds at most (1: it asks for the next "
                     "when a result leaves; 2 or more: the next is there already)",
                     1, 8, {}, 1});
        return v;
      }();
      return kParams;
    },
    // At one thread per rank it still runs `ranks` threads.
    .serial_at_one_thread = false,
    .in_default_lab = false,
    // Its searchers sleep on condition variables, which the simulated
    // machine does not schedule.
    .simulable = false,
    .distributed = true,
    .expect = {.reach = {{"leaf_searches", 50}, {"master_passes", 50}}},
    .counter_groups = {"aphid", "wire"}
};

}  // namespace xq
