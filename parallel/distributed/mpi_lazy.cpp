// mpi-lazy: Lazy SMP across ranks (Stockfish's cluster branch, Texel's lazy
// cluster), on the rank machinery of parallel/distributed/cluster.h. Every rank
// runs the lazysmp machinery with T threads over a table of its own; each
// thread's table stores at least `share_depth` deep go into its outbox (the
// deepest `share_batch` since the last tick), and once per tick the rank's
// wire thread ships the boxes to the other ranks (to all at once, or round a
// ring), which store what they receive from a table slot of their own under
// their replacement rule. Threads are told apart by their global id
// rank * T + i (the depth skips and window shifts of lazysmp); only rank 0's
// thread 0 is bound by the depth limit and reports iterations. The result is
// rank 0's main thread's, or with best_thread=vote (searches without a depth
// limit, outside exact mode) the thread a vote over every rank picks.
#include "parallel/distributed/cluster_backend.h"
#include "parallel/distributed/wire_counters.h"
#include "parallel/heuristics_share.h"

namespace xq {

extern const BackendInfo kLazySmpBackend;

namespace {

using dist::Reader;
using dist::Tag;
using dist::Writer;

template <class R>
class LazyRankHooks : public SerialHooks {
 public:
  static constexpr bool kSkipsDepths = true;
  explicit LazyRankHooks(const R& rank) : rank_(rank) {}

  bool aborted(const Worker& w) const { return rank_.stopped(w); }
  void add_helper_stats(SearchStats& s) const { rank_.add_helpers(s); }
  bool skip_depth(const Worker& w, Depth d) const {
    return lazysmp::skips(rank_.mode().skip, rank_.global_id(w), d);
  }
  bool bound_by_depth_limit(const Worker& w) const { return rank_.global_id(w) == 0; }
  Value window_shift(const Worker& w) const {
    return lazysmp::window_shift(rank_.mode().offset, rank_.global_id(w));
  }

 private:
  const R& rank_;
};

template <class Table>
class LazyMode {
 public:
  using Tt = dist::ShippingTable<Table>;
  template <class R>
  using Hooks = LazyRankHooks<R>;
  static constexpr std::string_view kName = "mpi-lazy";
  static constexpr bool kVotes = true;
  static constexpr bool kSimulable = true;
  static constexpr bool kDepthLimitOnEveryRank = false;

  const lazysmp::Skip skip;
  const Value offset;

  LazyMode(const BackendConfig& c, const dist::ClusterParams& p)
      : skip(lazysmp::Skip(c.param("skip_schedule"))),
        offset(Value(c.param("window_offset"))),
        vote_(c.param("best_thread") != 0),
        share_depth_(Depth(c.param("share_depth"))),
        ring_(c.param("exchange") == 1),
        sharing_(p.ranks > 1 && share_depth_ > 0),
        boxes_(p.threads, int(c.param("share_batch"))) {}

  bool vote() const { return vote_; }

  template <class R>
  void attach(R& rank) {
    rank.table().ship_to(sharing_ ? &boxes_ : nullptr, share_depth_);
  }
  void reset(std::uint64_t, const std::atomic<bool>&) {
    shipped_ = received_ = offered_ = 0;
    boxes_.reset();
  }

  // Ships the outboxes.
  template <class R>
  void tick(R& rank) {
    if (!sharing_) return;
    batch_.clear();
    boxes_.collect(batch_);
    if (batch_.empty()) return;
    shipped_ += batch_.size();
    const std::vector<std::uint8_t> body = Writer()
                                               .put(rank.search_id())
                                               .put(std::uint16_t(rank.rank()))
                                               .put_batch(batch_)
                                               .take();
    const int ranks = rank.params().ranks;
    if (ring_) {
      rank.wire().send((rank.rank() + 1) % ranks, Tag::Entries, body);
    } else {
      for (int r = 0; r < ranks; ++r)
        if (r != rank.rank()) rank.wire().send(r, Tag::Entries, body);
    }
  }
  template <class R>
  void stopping(R&) {}
  bool settled(const std::vector<bool>&) const { return true; }
  template <class R>
  void closing(R&) {
    offered_ = boxes_.offered();
  }
  template <class R>
  void finished(R&) {}

  // Stores a batch of entries (and passes it on round the ring).
  template <class R>
  bool handle(R& rank, const dist::Message& m, Reader& r, bool fin_sent) {
    if (m.tag != Tag::Entries) return false;
    const auto origin = r.get<std::uint16_t>();
    received_ += r.get_batch<dist::WireEntry>([&](const dist::WireEntry& e) {
      rank.table().store_received(e, rank.params().threads);
    });
    const int next = (rank.rank() + 1) % rank.params().ranks;
    if (ring_ && !fin_sent && next != origin) rank.wire().send(next, Tag::Entries, m.body);
    return true;
  }

  void add_stats(SearchStats& s) const {
    s[dist::entries_offered] += offered_;
    s[dist::entries_shipped] += shipped_;
    s[dist::entries_received] += received_;
  }
  RoundTrips round_trips() const { return {}; }

 private:
  const bool vote_;
  const Depth share_depth_;  // 0: nothing is shipped
  const bool ring_;
  const bool sharing_;
  dist::Outboxes boxes_;
  std::vector<dist::WireEntry> batch_;
  // The wire thread's (read by others after the pool has parked).
  std::uint64_t shipped_ = 0, received_ = 0, offered_ = 0;
};

template <class Table>
using MpiLazyBackend = dist::ClusterBackend<Table, LazyMode>;

}  // namespace

// How its ranks other than 0 serve (parallel/distributed/rank.h).
const dist::RankServer kMpiLazyServer{"mpi-lazy", [](const BackendConfig& c, dist::Transport& wire,
                                          std::vector<dist::Message> early) {
  return dist::serve_cluster<LazyMode, EveryTable>(c, wire, std::move(early));
}};

// The registry's entry (parallel/registry.cpp): every scheme.
extern const BackendInfo kMpiLazyBackend = {
    .name = "mpi-lazy",
    .summary = "Lazy SMP across ranks with their own tables, deep entries shipped between them",
    .default_hash = "xor",
    .sharing = Sharing::Table,
    .supports = runs_on<EveryTable>,
    .make = make_on<MpiLazyBackend, EveryTable>,
    // The defaults (2026-11-30, docs/RESULTS.md issue 26): 2 ranks x 1
    // thread over MPI against lazysmp at 2 threads, depth 10: sharing
    // from depth 2, 256 a box, searched 5-13 % fewer nodes than the
    // earlier 4 and 16 (Stockfish's cluster keeps 16 a thread); time to
    // depth 0.95 / 0.90 of lazysmp's on data/middlegames.csv /
    // data/fresh_middlegames.csv, against 0.83 / 0.84.
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = [] {
        std::vector<ParamSpec> v = dist::cluster_params();
        const std::vector<ParamSpec> own = {
            {"share_depth", "least depth of a table store shipped to the other ranks (0: none)", 0,
             64, {}, 2},
            {"share_batch", "deepest stores each thread keeps for the next tick", 1, 1024, {}, 256},
            {"exchange", "where a rank ships its entries: every rank, or the next round a ring", 0,
             1, {"all", "ring"}, 0}};
        v.insert(v.begin() + 1, own.begin(), own.end());
        // lazysmp's, but for the heuristics' sharing (a rank's threads
        // keep their own tables).
        const std::vector<ParamSpec> lazy = without_heuristics_share(kLazySmpBackend.params());
        v.insert(v.end(), lazy.begin(), lazy.end());
        return v;
      }();
      return kParams;
    },
    // At one thread per rank it still runs `ranks` threads.
    .serial_at_one_thread = false,
    // Run when named: the distributed comparison is its own question.
    .in_default_lab = false,
    // On the loop wire: every rank's threads and its wire thread are logical
    // threads, messages due in virtual time (parallel/distributed/loop.cpp).
    .simulable = true,
    .distributed = true,
    .expect = {.reach = {{"entries_received", 100}},
               .small_search = {{"share_depth", 2}}},
    .counter_groups = {"wire"}
};

}  // namespace xq
