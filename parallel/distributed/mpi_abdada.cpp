// mpi-abdada: ABDADA across ranks (Weill designed it for distributed
// memory: a CM-5 and a Cray T3D), on the rank machinery of
// parallel/distributed/cluster.h. Every rank runs ABDADA's threads over a table of
// its own (parallel/shared/abdada.cpp); the entry of every node at least
// `home_depth` deep lives at a home rank chosen by its key's high bits
// (dist::HomeTable), so Weill's searcher count (nproc) of such a node is
// one count for the whole cluster: a thread's claim of it is a round trip
// to the home, which claims it there and answers with the entry (or "on
// evaluation" for an exclusive claim of a node others search), and the
// deferral works across ranks as it does between threads. Stores of those
// nodes and the releases of their claims are queued per thread and shipped
// to their homes in batches once per tick (a release a tick late keeps a
// node busy a little longer: it is deferred, never searched wrongly).
// Shallower nodes are claimed in the rank's own table, among its threads;
// with `replica_depth` set, their stores at least that deep are shipped to
// every other rank once per tick too (a lazy cluster's replication under
// the partitioned deep entries), so that the ranks share the middle of the
// tree as one process's threads share all of it.
// With `home_claims=exclusive` only the claims that may be deferred (the
// exclusive ones) are round trips; the others read and mark the rank's own
// copy of the entry (Weill's count then misses them, which matters only to
// an exclusive claim of the same node by another rank).
//
// The root's running best is shared by every thread of every rank (as
// abdada's threads share it, parallel/shared/root_share.h): a root move
// that raises it is sent to the other ranks at once, which adopt it as
// their own threads' (without it a rank goes on with a stale alpha and
// re-searches what the other rank has already refuted).
//
// A thread waiting for an answer sleeps on its mailbox; the rank's wire
// thread serves the claims of other ranks and posts the answers to this
// rank's threads. When a rank stops, its waiting threads are woken with no
// answer (their search is abandoned anyway), so no thread waits on a rank
// that has ended; a claim that reaches a home after it sent FIN is not
// answered. Every rank's threads are bound by the depth limit (ABDADA's
// threads cooperate on one iteration); rank 0's main thread reports. After
// each search every rank counts and clears the marks still set (leaks).
#include <condition_variable>
#include <mutex>

#include "parallel/distributed/cluster_backend.h"
#include "parallel/shared/root_share.h"
#include "parallel/sim/machine.h"
#include "parallel/distributed/mpi_abdada.h"
#include "parallel/distributed/wire_counters.h"
#include "parallel/heuristics_share.h"
#include "search/coordination.h"

namespace xq {

extern const BackendInfo kAbdadaBackend;

namespace {

using dist::Reader;
using dist::Tag;
using dist::Writer;

// A lone thread of a lone rank has nobody to defer to: it claims nothing.
constexpr Depth kNoClaims = 1 << 20;

template <class R>
class AbdadaRankHooks : public RootSharingHooks {
 public:
  static constexpr bool kClaimsNodes = true;
  explicit AbdadaRankHooks(R& rank)
      : RootSharingHooks(rank.mode().root_share(), rank.mode().root_retest()), rank_(rank) {}

  Depth claim_depth() const { return rank_.mode().claim_depth(); }
  bool defer_root() const { return rank_.mode().defer_root(); }
  // This rank's threads' best, and every other rank's.
  void publish_root(Worker& w, Depth depth, Value lo, Value hi, Value v) {
    RootSharingHooks::publish_root(w, depth, lo, hi, v);
    rank_.mode().send_root(depth, lo, hi, v, w.pv[0]);
  }
  Depth reprobe_depth() const { return rank_.mode().reprobe_depth(); }
  bool aborted(const Worker& w) const { return rank_.stopped(w); }
  void add_helper_stats(SearchStats& s) const { rank_.add_helpers(s); }

 private:
  const R& rank_;
};

// On a simulated machine a waiter for an answer looks again at least this
// often (virtual time), so that a lost wake-up shows as slowness, not a hang.
constexpr sim::Time kSimulatedWaitLimit = sim::kPicosPerSecond / 100;

// A claim waiting for its answer, and the waiter's counters.
struct alignas(64) Mailbox {
  std::mutex mutex;
  std::condition_variable cv;
  std::uint32_t seq = 0;  // the claim last sent
  bool waiting = false;   // its thread still waits for the answer
  bool answered = false;
  int sim_id = -1;  // on a simulated machine: the waiter's logical thread
  TTClaim answer;
  // The owner thread's, read after it has parked.
  std::uint64_t probes = 0;
  double wait_seconds = 0;
  RoundTrips trips;
};

struct QueuedRelease {
  Key key = 0;
  std::uint64_t bucket = 0;
  std::int32_t slot = -1;
};

// One thread's stores and releases for each home rank, until the next tick.
struct alignas(64) Outgoing {
  std::mutex mutex;
  std::vector<std::vector<dist::WireEntry>> stores;  // by home rank
  std::vector<std::vector<QueuedRelease>> releases;  // by home rank
  std::vector<dist::WireEntry> replicas;             // for every other rank
  std::uint64_t offered = 0;
};

template <class Table>
class AbdadaMode final : public dist::HomeTable<Table>::Remote {
 public:
  using Tt = dist::HomeTable<Table>;
  template <class R>
  using Hooks = AbdadaRankHooks<R>;
  static constexpr std::string_view kName = "mpi-abdada";
  static constexpr bool kVotes = false;
  static constexpr bool kSimulable = true;
  static constexpr bool kDepthLimitOnEveryRank = true;

  AbdadaMode(const BackendConfig& c, const dist::ClusterParams& p)
      : ranks_(p.ranks),
        wire_slot_(p.threads),
        home_depth_(Depth(c.param("home_depth"))),
        replica_depth_(Depth(c.param("replica_depth"))),
        exclusive_home_claims_(c.param("home_claims") == 1),
        claim_depth_(p.threads > 1 ? Depth(c.param("abdada_defer_depth"))
                     : p.ranks > 1 ? home_depth_
                                   : kNoClaims),
        reprobe_depth_(Depth(c.param("abdada_reprobe_depth"))),
        defer_root_(c.param("abdada_defer_root") != 0),
        retest_(c.param("root_retest") != 0),
        shares_root_(p.threads > 1 || p.ranks > 1),
        awaited_(new std::atomic<int>[std::size_t(p.ranks)]),
        abandoned_(std::size_t(p.ranks)) {
    for (int i = 0; i < p.threads; ++i) {
      mailboxes_.push_back(std::make_unique<Mailbox>());
      outgoing_.push_back(std::make_unique<Outgoing>());
      outgoing_.back()->stores.resize(std::size_t(ranks_));
      outgoing_.back()->releases.resize(std::size_t(ranks_));
    }
  }

  Depth claim_depth() const { return claim_depth_; }
  Depth reprobe_depth() const { return reprobe_depth_; }
  bool defer_root() const { return defer_root_; }
  bool root_retest() const { return retest_; }
  RootShare* root_share() { return shares_root_ ? &root_ : nullptr; }
  // The rank's threads stop, or the search does (rank 0's clock or stop
  // signal, which its wire thread checks for threads waiting here).
  bool halted() const {
    return done_->load(std::memory_order_relaxed) || stop_->load(std::memory_order_relaxed);
  }

  template <class R>
  void attach(R& rank) {
    wire_ = &rank.wire();
    rank_id_ = rank.rank();
    done_ = &rank.done_flag();
    table_ = &rank.table();
    rank.table().attach(ranks_ > 1 ? this : nullptr, rank.rank(), ranks_, home_depth_,
                        replica_depth_, exclusive_home_claims_);
  }
  void reset(std::uint64_t id, const std::atomic<bool>& stop) {
    id_ = id;
    stop_ = &stop;
    root_.reset();
    for (auto& b : mailboxes_) {
      b->answered = false;
      b->waiting = false;
      b->probes = 0;
      b->wait_seconds = 0;
      b->sim_id = -1;
      b->trips = RoundTrips{};
    }
    for (auto& o : outgoing_) {
      for (auto& v : o->stores) v.clear();
      for (auto& v : o->releases) v.clear();
      o->replicas.clear();
      o->offered = 0;
    }
    shipped_ = received_ = served_ = underflows_ = leaks_ = 0;
    if (sweep_pending_) {  // the previous search's marks (see finished)
      sweep_pending_ = false;
      leaks_ = table_->clear_busy_marks();
    }
    for (int h = 0; h < ranks_; ++h) {
      awaited_[std::size_t(h)].store(0, std::memory_order_relaxed);
      abandoned_[std::size_t(h)].clear();
    }
  }

  // A search thread: claims `key` at its home and waits for the answer.
  TTClaim claim(int home, Key key, bool exclusive, int tid) override {
    Mailbox& box = *mailboxes_[std::size_t(tid)];
    std::unique_lock lock(box.mutex);
    if (halted()) return {};
    box.answered = false;
    box.waiting = true;
    const std::uint32_t seq = ++box.seq;
    awaited_[std::size_t(home)].fetch_add(1, std::memory_order_relaxed);
    const dist::Clock::time_point sent = dist::wire_now();
    wire_->send(home, Tag::Claim,
                Writer().put(id_).put(std::uint16_t(tid)).put(seq).put(key).put(exclusive).take());
    const auto ready = [&] { return box.answered || halted(); };
    if (sim::Machine* m = sim::Machine::current()) {
      // Asleep in virtual time until the answer (or the stop) wakes it; the
      // wire thread that brings it runs only once this one sleeps.
      box.sim_id = m->id();
      while (!ready()) {
        lock.unlock();
        m->sleep_until(m->now() + kSimulatedWaitLimit);
        lock.lock();
      }
    } else {
      box.cv.wait(lock, ready);
    }
    box.waiting = false;
    const double waited = std::chrono::duration<double>(dist::wire_now() - sent).count();
    box.probes += 1;
    box.wait_seconds += waited;
    if (!box.answered) return {};  // the rank stopped: nothing claimed here
    box.trips.add(waited);
    return box.answer;
  }
  void stored(int home, Key key, const TTData& d, int tid) override {
    Outgoing& o = *outgoing_[std::size_t(tid)];
    std::lock_guard lock(o.mutex);
    o.stores[std::size_t(home)].push_back({key, packed::pack(d, 0)});
    ++o.offered;
  }
  void released(int home, Key key, TTSlot slot, int tid) override {
    Outgoing& o = *outgoing_[std::size_t(tid)];
    std::lock_guard lock(o.mutex);
    o.releases[std::size_t(home)].push_back({key, slot.bucket, std::int32_t(slot.slot)});
  }
  // A root move raised the best: sent at once, from the search thread (as
  // its claims are), to every other rank.
  void send_root(Depth depth, Value lo, Value hi, Value v, const PvLine& pv) const {
    if (ranks_ == 1 || halted()) return;
    dist::Writer w;
    w.put(id_).put(std::int32_t(depth)).put(std::int32_t(lo)).put(std::int32_t(hi)).put(
        std::int32_t(v));
    dist::put_moves(w, std::span<const Move>(pv.moves.data(), std::size_t(pv.size)));
    const std::vector<std::uint8_t> body = w.take();
    for (int r = 0; r < ranks_; ++r)
      if (r != rank_id_) wire_->send(r, Tag::RootBest, body);
  }
  void replicated(Key key, const TTData& d, int tid) override {
    Outgoing& o = *outgoing_[std::size_t(tid)];
    std::lock_guard lock(o.mutex);
    o.replicas.push_back({key, packed::pack(d, 0)});
    ++o.offered;
  }

  template <class R>
  void tick(R& rank) {
    flush(rank);
  }
  // Wakes the threads waiting for an answer (done_ or the stop flag is set).
  template <class R>
  void stopping(R&) {
    for (auto& b : mailboxes_) {
      std::lock_guard lock(b->mutex);
      b->cv.notify_all();
      wake_simulated(*b);
    }
  }
  // FIN may go once every claim sent has been answered, or its home has
  // ended (a home answers no claim after its FIN).
  bool settled(const std::vector<bool>& fin_from) const {
    for (int h = 0; h < ranks_; ++h)
      if (!fin_from[std::size_t(h)] && awaited_[std::size_t(h)].load(std::memory_order_relaxed) > 0)
        return false;
    return true;
  }
  // The unwound threads' last stores and releases go home before FIN.
  template <class R>
  void closing(R& rank) {
    flush(rank);
  }
  // No thread runs and every release has arrived: marks still set leaked.
  // Finding them is a pass over the whole table (about 1 ms per 16 MiB, on
  // every rank, and rank 0 waits for the others' RESULT): when rank 0's
  // search was ended by a stop or a limit, each rank leaves the pass to its
  // next search's start, which counts those leaks, so that the best move
  // is not held back by it (abdada does the same).
  template <class R>
  void finished(R& rank) {
    if (claim_depth_ >= kNoClaims) return;
    if (rank.ended_by_stop())
      sweep_pending_ = true;
    else
      leaks_ = rank.table().clear_busy_marks();
  }

  template <class R>
  bool handle(R& rank, const dist::Message& m, Reader& r, bool fin_sent) {
    Tt& tt = rank.table();
    switch (m.tag) {
      case Tag::Claim: {
        const auto tid = r.get<std::uint16_t>();
        const auto seq = r.get<std::uint32_t>();
        const auto key = r.get<Key>();
        const auto exclusive = r.get<bool>();
        if (fin_sent) return true;  // the claimer's rank has stopped too
        const TTClaim c = tt.claim(key, exclusive, wire_slot_);
        ++served_;
        rank.wire().send(m.source, Tag::Answer,
                         Writer()
                             .put(id_)
                             .put(tid)
                             .put(seq)
                             .put(key)
                             .put(c.found)
                             .put(c.busy)
                             .put(c.found ? packed::pack(c.data, 0) : std::uint64_t{0})
                             .put(std::uint64_t(c.slot.bucket))
                             .put(std::int32_t(c.slot.slot))
                             .take());
        return true;
      }
      case Tag::Answer: {
        const auto tid = r.get<std::uint16_t>();
        const auto seq = r.get<std::uint32_t>();
        const auto key = r.get<Key>();
        TTClaim c;
        c.found = r.get<bool>();
        c.busy = r.get<bool>();
        const auto word = r.get<std::uint64_t>();
        if (c.found) c.data = packed::unpack(word);
        c.slot.bucket = std::size_t(r.get<std::uint64_t>());
        c.slot.slot = r.get<std::int32_t>();
        if (tid >= mailboxes_.size())
          throw std::runtime_error("mpi-abdada: an answer for thread " + std::to_string(tid) +
                                   " of a rank with " + std::to_string(mailboxes_.size()));
        awaited_[std::size_t(m.source)].fetch_sub(1, std::memory_order_relaxed);
        Mailbox& box = *mailboxes_[tid];
        std::lock_guard lock(box.mutex);
        if (seq != box.seq || !box.waiting) {
          // Its waiter gave up (the rank is stopping): the claim made at the
          // home is released with the others before FIN.
          if (!c.busy && c.slot.slot >= 0)
            abandoned_[std::size_t(m.source)].push_back(
                {key, std::uint64_t(c.slot.bucket), std::int32_t(c.slot.slot)});
          return true;
        }
        box.answer = c;
        box.answered = true;
        box.cv.notify_all();
        wake_simulated(box);
        return true;
      }
      case Tag::Entries: {
        received_ += r.get_batch<dist::WireEntry>([&](const dist::WireEntry& e) {
          tt.Table::store(e.key, packed::unpack(e.word), wire_slot_);
        });
        return true;
      }
      case Tag::RootBest: {
        const Depth depth = r.get<std::int32_t>();
        const Value lo = r.get<std::int32_t>();
        const Value hi = r.get<std::int32_t>();
        const Value v = r.get<std::int32_t>();
        dist::get_moves(r, line_moves_, kMaxPly);
        PvLine pv;
        pv.size = int(line_moves_.size());
        std::copy(line_moves_.begin(), line_moves_.end(), pv.moves.begin());
        if (!fin_sent) root_.publish(depth, lo, hi, v, pv);
        return true;
      }
      case Tag::Release: {
        r.get_batch<QueuedRelease>([&](const QueuedRelease& q) {
          if (tt.Table::release(q.key, TTSlot{std::size_t(q.bucket), q.slot}, wire_slot_))
            ++underflows_;
        });
        return true;
      }
      default:
        return false;
    }
  }

  void add_stats(SearchStats& s) const {
    for (const auto& b : mailboxes_) {
      s[dist::remote_probes] += b->probes;
      s[dist::remote_wait_seconds] += b->wait_seconds;
    }
    for (const auto& o : outgoing_) s[dist::entries_offered] += o->offered;
    s[dist::entries_shipped] += shipped_;
    s[dist::entries_received] += received_;
    s[coordination::mark_underflows] += underflows_;
    s[coordination::mark_leaks] += leaks_;
  }
  RoundTrips round_trips() const {
    RoundTrips t;
    for (const auto& b : mailboxes_) t += b->trips;
    return t;
  }

 private:
  // The waiter of `box`, asleep on a simulated machine, runs again now.
  static void wake_simulated(const Mailbox& box) {
    if (sim::Machine* m = sim::Machine::current(); m && box.sim_id >= 0) m->wake(box.sim_id, m->now());
  }
  // Ships every thread's queued stores and releases to their homes, one
  // message of each kind per home, and the replicas to every other rank
  // (counted shipped once, received once per rank, as mpi-lazy's).
  template <class R>
  void flush(R& rank) {
    if (ranks_ == 1) return;
    replicas_.clear();
    for (auto& o : outgoing_) {
      std::lock_guard lock(o->mutex);
      replicas_.insert(replicas_.end(), o->replicas.begin(), o->replicas.end());
      o->replicas.clear();
    }
    if (!replicas_.empty()) {
      const std::vector<std::uint8_t> body =
          Writer().put(id_).put_batch(replicas_).take();
      for (int r = 0; r < ranks_; ++r)
        if (r != rank.rank()) rank.wire().send(r, Tag::Entries, body);
      shipped_ += replicas_.size();
    }
    for (int home = 0; home < ranks_; ++home) {
      if (home == rank.rank()) continue;
      stores_.clear();
      releases_.clear();
      releases_.swap(abandoned_[std::size_t(home)]);
      for (auto& o : outgoing_) {
        std::lock_guard lock(o->mutex);
        auto& s = o->stores[std::size_t(home)];
        auto& q = o->releases[std::size_t(home)];
        stores_.insert(stores_.end(), s.begin(), s.end());
        releases_.insert(releases_.end(), q.begin(), q.end());
        s.clear();
        q.clear();
      }
      if (!stores_.empty()) {
        rank.wire().send(home, Tag::Entries,
                         Writer().put(id_).put_batch(stores_).take());
        shipped_ += stores_.size();
      }
      if (!releases_.empty())
        rank.wire().send(home, Tag::Release,
                         Writer().put(id_).put_batch(releases_).take());
    }
  }

  const int ranks_;
  const int wire_slot_;  // the table slot of the rank's wire thread
  const Depth home_depth_, replica_depth_;
  const bool exclusive_home_claims_;
  const Depth claim_depth_, reprobe_depth_;
  const bool defer_root_, retest_, shares_root_;
  dist::Transport* wire_ = nullptr;
  int rank_id_ = 0;
  const std::atomic<bool>* done_ = nullptr;
  const std::atomic<bool>* stop_ = nullptr;  // the search's (SearchShared::stop)
  std::uint64_t id_ = 0;
  RootShare root_;
  std::vector<std::unique_ptr<Mailbox>> mailboxes_;  // by thread
  std::vector<std::unique_ptr<Outgoing>> outgoing_;  // by thread
  // The wire thread's (read by others after the pool has parked).
  std::vector<dist::WireEntry> stores_;
  std::vector<QueuedRelease> releases_;
  std::vector<dist::WireEntry> replicas_;
  std::vector<Move> line_moves_;
  // By home rank: claims sent and not answered yet (the threads count up,
  // the wire thread down), and the claims of answers that came too late.
  std::unique_ptr<std::atomic<int>[]> awaited_;
  std::vector<std::vector<QueuedRelease>> abandoned_;
  std::uint64_t shipped_ = 0, received_ = 0, served_ = 0, underflows_ = 0, leaks_ = 0;
  Tt* table_ = nullptr;
  bool sweep_pending_ = false;  // a stopped search left its marks to count
};

template <class Table>
using MpiAbdadaBackend = dist::ClusterBackend<Table, AbdadaMode>;

}  // namespace

// How its ranks other than 0 serve (parallel/distributed/rank.h).
const dist::RankServer kMpiAbdadaServer{"mpi-abdada", [](const BackendConfig& c, dist::Transport& wire,
                                          std::vector<dist::Message> early) {
  return dist::serve_cluster<AbdadaMode, SearcherCountTables>(c, wire, std::move(early));
}};

// The registry's entry (parallel/registry.cpp): the schemes abdada takes.
extern const BackendInfo kMpiAbdadaBackend = {
    .name = "mpi-abdada",
    .summary = "ABDADA across ranks: deep entries and their searcher counts live at a home rank, "
    "claimed by round trips",
    .default_hash = "xor",
    .sharing = Sharing::Marks,
    .supports = runs_on<SearcherCountTables>,
    .make = make_on<MpiAbdadaBackend, SearcherCountTables>,
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = [] {
        std::vector<ParamSpec> v = dist::cluster_params();
        v.insert(v.begin() + 1,
                 ParamSpec{"home_depth",
                           "least remaining depth of a node whose entry and searcher count live "
                           "at its home rank (claims of it are round trips)",
                           1, 64, {}, 3});
        v.insert(v.begin() + 2,
                 ParamSpec{"replica_depth",
                           "least depth of a shallower node's store shipped to every other rank "
                           "(0: none; the nodes below home_depth stay each rank's own)",
                           0, 64, {}, 1});
        v.insert(v.begin() + 3,
                 ParamSpec{"home_claims",
                           "which claims of a node homed elsewhere are round trips to its home: "
                           "every one, or the exclusive ones (an eldest brother's or a second "
                           "pass's claim then reads and marks this rank's copy)",
                           0, 1, {"all", "exclusive"}, 0});
        // abdada's but for first-complete and the heuristics' sharing (a
        // rank's threads keep their own tables).
        for (const ParamSpec& s : without_heuristics_share(kAbdadaBackend.params()))
          if (s.name != "abdada_first_complete") v.push_back(s);
        return v;
      }();
      return kParams;
    },
    .serial_at_one_thread = false,
    .in_default_lab = false,
    // On the loop wire: every rank's threads and its wire thread are logical
    // threads, messages due in virtual time (parallel/distributed/loop.cpp).
    .simulable = true,
    .distributed = true,
    .expect = {.reach = {{"busy_answers", 10}, {"deferred_searches", 5}, {"entries_received", 50}, {"remote_probes", 100}},
               .small_search = {{"home_depth", 2}}},
    .counter_groups = {"coordination", "wire", "remote claims"}
};

}  // namespace xq
