// The pvsplit backend: OpenMP PV-splitting after the seed thesis (4.2, Zou
// 2013, "parallel hybrid PVS based on OpenMP").
//
// The master (thread 0, the caller's thread) runs iterative deepening and so
// walks the principal path first: the leftmost child of every PV node, down
// to the horizon. On the way back, at every PV node with remaining depth >=
// min_split_depth, once its eldest child is searched, the remaining legal
// moves are drained from the node's picker into an array and searched by
// `#pragma omp parallel for schedule(static,1)` (dynamic,1 with
// BackendConfig::omp_dynamic). Each team thread searches its moves serially
// with its own Worker (the master keeps its own; the others copy the node's
// position before the region), with a null window from the shared alpha,
// which is read and raised under a mutex. A beta cutoff sets a flag that every
// thread of the team sees at its next node (aborted()) and that makes the
// remaining iterations return at once. Regions never nest: inside a region no
// node splits, so at most one split is active and one flag suffices.
//
// Work and critical path: since regions never nest, the critical path is the
// master's nodes outside regions plus, for every region, its longest move
// (every younger brother on a processor of its own); the master's own moves
// inside a region leave its chain (crit_extra) and the region's longest move
// joins it when the region ends. The schedule bound adds, per region, what
// the larger of its longest move and its nodes over the thread count exceeds
// the longest move by: the least time any schedule of that region could take.
#include <omp.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <vector>

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/split/common.h"
#include "parallel/split/pool.h"
#include "parallel/work_span.h"
#include "parallel/split/timing.h"
#include "search/driver.h"
#include "parallel/split/split_counters.h"

namespace xq {
namespace {

// Shared state of the split being searched. The flags are written by the
// master outside any region (and `cutoff` by a team thread inside one).
struct PvState {
  // Constant after set-up.
  int threads = 1;
  Depth min_split_depth = 4;
  bool dynamic = false;
  std::vector<std::unique_ptr<Worker>>* workers = nullptr;  // [1, threads): team threads' workers
  // Each thread's time (timing.h), ledgers[i] touched by team thread i only
  // inside a region and by the master outside regions.
  std::vector<split_timing::Ledger>* ledgers = nullptr;
  const SearchShared* shared = nullptr;                     // set per search
  // Written by the master between regions only, read inside them.
  bool in_region = false;
  // The master's chain is its node count plus crit_extra (touched by the
  // master only: outside regions, and inside one by team thread 0).
  std::int64_t crit_extra = 0;
  std::uint64_t crit_splits = 0;  // regions: every one is on the master's chain
  std::uint64_t bound_slack = 0;  // the schedule bound's excess over the critical path
  // Raised by the team thread that finds a beta cutoff; cleared by the master
  // after the region.
  alignas(64) std::atomic<bool> cutoff{false};
};

// What the team shares while it searches one PV node's younger brothers:
// the node's running result (the split family's one Outcome) and the first
// exception a team thread threw, both guarded by `lock`.
struct TeamResult {
  explicit TeamResult(const SplitContext& ctx) { result.start(ctx); }

  Value current_alpha(split_timing::Ledger& l, SearchStats& stats) {
    const split_timing::TimedLock g(lock, l, stats);
    return result.alpha;
  }
  // Records the value of move m (child_line: the line below it, as the thread
  // that searched it saw it); true when it cut off.
  bool record(Value v, Move m, const PvLine& child_line, Value beta, std::uint64_t nodes,
              split_timing::Ledger& l, SearchStats& stats) {
    const split_timing::TimedLock g(lock, l, stats);
    longest = std::max(longest, nodes);
    return result.record(m, v, child_line, beta);
  }
  // Keeps the first exception a team thread threw.
  void fail(std::exception_ptr e) {
    std::lock_guard g(lock);
    if (!error) error = std::move(e);
  }

  std::mutex lock;
  split::Outcome result;
  std::exception_ptr error;
  std::uint64_t longest = 0;  // the longest finished move's nodes (critical path)
};

class PvHooks : public SerialHooks {
 public:
  static constexpr bool kSplits = true;
  explicit PvHooks(PvState& state) : st_(state) {}

  bool aborted(const Worker&) const { return st_.cutoff.load(std::memory_order_relaxed); }
  bool want_split(const Worker&, const SplitContext& ctx) const {
    return ctx.pv_node && ctx.moves_searched == 1 && ctx.depth >= st_.min_split_depth &&
           st_.threads > 1 && !st_.in_region;
  }

  template <class SearchMove>
  void split(Worker& w, SplitContext& ctx, SearchMove&& search_move) {
    std::vector<Move> moves;
    std::vector<int> ordinals;  // each move's MovePicker::ordinal()
    for (Move m = ctx.picker->next(); m; m = ctx.picker->next())
      if (w.pos.is_legal(m)) {
        moves.push_back(m);
        ordinals.push_back(ctx.picker->ordinal());
      }
    if (moves.empty()) return;
    ++w.stats.splits;
    ready_team(w);
    TeamResult team(ctx);
    // Team threads that took part, and the nodes each searched in the
    // region: each writes its own element.
    std::vector<char> joined(std::size_t(st_.threads), 0);
    std::vector<std::uint64_t> region_nodes(std::size_t(st_.threads), 0);
    // Inside a region a thread's time is idle unless it searches a move (or
    // waits for the team's lock).
    auto body = [&](int i) {
      if (st_.cutoff.load(std::memory_order_relaxed)) return;
      // The team member: on a simulated machine its logical id (a fiber
      // has no OpenMP thread number; on OS threads the two agree).
      const sim::Machine* sm = sim::Machine::current();
      const int tid = sm ? sm->id() : omp_get_thread_num();
      Worker& tw = tid == 0 ? w : *(*st_.workers)[std::size_t(tid)];
      split_timing::Ledger& ledger = (*st_.ledgers)[std::size_t(tid)];
      if (tid != 0 && !joined[std::size_t(tid)]) {
        joined[std::size_t(tid)] = 1;
        ++tw.stats.joins;
      }
      const Move m = moves[std::size_t(i)];
      const Value alpha = team.current_alpha(ledger, tw.stats);
      const split_timing::ChildNodes child(tw.stats);
      const std::uint64_t nodes0 = tw.stats.nodes;
      Value v;
      {
        const split_timing::InPart searching(ledger, tw.stats, split_timing::Part::Search);
        v = search_move(tw, m, ordinals[std::size_t(i)], alpha, ctx);
      }
      const std::uint64_t crit = tw.stats.nodes - nodes0;
      if (tid == 0) st_.crit_extra -= std::int64_t(crit);  // the region's chain, not the master's
      region_nodes[std::size_t(tid)] += crit;
      // An abort or stop made v meaningless.
      if (st_.cutoff.load(std::memory_order_relaxed)) child.discard(tw.stats);
      if (st_.cutoff.load(std::memory_order_relaxed) || st_.shared->stopped()) return;
      if (team.record(v, m, tw.pv[std::size_t(ctx.ply) + 1], ctx.beta, crit, ledger, tw.stats)) {
        st_.cutoff.store(true, std::memory_order_relaxed);
        ++tw.stats.aborts;
      }
    };
    split_timing::Ledger& master = (*st_.ledgers)[0];
    master.to(split_timing::Part::Idle, w.stats);
    run_region(int(moves.size()), body, team);
    // The team has joined: nobody else touches these now.
    st_.crit_extra += std::int64_t(team.longest);
    ++st_.crit_splits;
    std::uint64_t work = 0;
    for (std::uint64_t n : region_nodes) work += n;
    const std::uint64_t share = (work + std::uint64_t(st_.threads) - 1) / std::uint64_t(st_.threads);
    st_.bound_slack += std::max(team.longest, share) - team.longest;
    master.to(split_timing::Part::Search, w.stats);
    if (team.error) std::rethrow_exception(team.error);
    team.result.finish(ctx, w);
  }

  void add_helper_stats(SearchStats& s) const {
    for (int i = 1; i < st_.threads; ++i) s += (*st_.workers)[std::size_t(i)]->stats;
  }

 private:
  // Team threads start from the master's position and its move-ordering
  // knowledge (history and killers): ordering the younger brothers with
  // their own, emptier tables costs measurably more nodes.
  void ready_team(Worker& master) const {
    const split_timing::InPart copying((*st_.ledgers)[0], master.stats, split_timing::Part::Copy);
    for (int i = 1; i < st_.threads; ++i) {
      Worker& tw = *(*st_.workers)[std::size_t(i)];
      tw.pos.copy_from(master.pos);
      tw.copy_history_from(master);
      tw.copy_killers_from(master);
    }
  }

  // Runs body(0..n-1) on the team. An exception must not leave an OpenMP
  // region (that terminates): the first one is kept, the rest of the team
  // cut off, and the caller rethrows it once the region is over.
  template <class Body>
  void run_region(int n, Body& body, TeamResult& team) {
    auto guarded = [&](int i) {
      try {
        body(i);
      } catch (...) {
        team.fail(std::current_exception());
        st_.cutoff.store(true, std::memory_order_relaxed);
      }
    };
    st_.in_region = true;
    if (sim::Machine* m = sim::Machine::current()) {
      run_simulated_region(*m, n, guarded);
    } else if (st_.dynamic) {
#pragma omp parallel for num_threads(st_.threads) schedule(dynamic, 1)
      for (int i = 0; i < n; ++i) guarded(i);
    } else {
#pragma omp parallel for num_threads(st_.threads) schedule(static, 1)
      for (int i = 0; i < n; ++i) guarded(i);
    }
    st_.in_region = false;
    st_.cutoff.store(false, std::memory_order_relaxed);
  }

  // The region on a simulated machine: the team members are logical
  // threads (spawned at the fork, attached while they search, joined at the
  // barrier), and the dynamic schedule hands iterations out from a counter
  // that only the logical thread holding the processor touches, so the
  // assignment is the same on every run (libgomp's depends on OS timing).
  template <class Guarded>
  void run_simulated_region(sim::Machine& m, int n, Guarded& guarded) {
    m.charge(sim::Cost::Fork);
    int next = 0;
    const int threads = st_.threads;
    const bool dynamic = st_.dynamic;
    const auto member = [&](int tid, int team) {
      if (dynamic) {
        for (int i = next++; i < n; i = next++) guarded(i);
      } else {
        for (int i = tid; i < n; i += team) guarded(i);
      }
    };
    if (m.fibers()) {  // the team on the machine's fibers
      for (int id = 1; id < threads; ++id)
        m.spawn_fiber(id, 0, [&member, id, threads] { member(id, threads); });
      member(0, threads);
      m.wait_others();
    } else {
      for (int id = 1; id < threads; ++id) m.spawn(id, 0);
#pragma omp parallel num_threads(threads)
      {
        const int tid = omp_get_thread_num();
        const int team = omp_get_num_threads();
        if (tid == 0)
          for (int id = team; id < threads; ++id) m.unspawn(id);  // OpenMP gave fewer
        else
          m.attach(tid);
        member(tid, team);
        if (tid == 0)
          m.wait_others();
        else
          m.detach();
      }
    }
    m.charge(sim::Cost::Barrier);
  }

  PvState& st_;
};

template <class Table>
class PvSplitBackend final : public BackendBase<Table> {
 public:
  explicit PvSplitBackend(const BackendConfig& c) : BackendBase<Table>(c), share_(c) {
    for (int i = 0; i < c.threads; ++i) {
      workers_.push_back(std::make_unique<Worker>(i));
      share_.attach(*workers_.back());
    }
    state_.threads = c.threads;
    state_.min_split_depth = Depth(c.param("min_split_depth"));
    state_.dynamic = c.param("omp_schedule") != 0;
    state_.workers = &workers_;
    state_.ledgers = &ledgers_;
    ledgers_.resize(std::size_t(c.threads));
    this->require_thread_slots(c.threads);
  }
  std::string_view name() const override { return "pvsplit"; }

  void clear() override {
    this->tt_.clear();
    for (auto& w : workers_) w->clear_heuristics();
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    for (auto& w : workers_) reset_worker(*w, pos);
    state_.in_region = false;
    state_.cutoff.store(false, std::memory_order_relaxed);
    state_.crit_extra = 0;
    state_.crit_splits = 0;
    state_.bound_slack = 0;
    state_.shared = &shared;
    const split_timing::Clock::time_point start = split_timing::now();
    for (std::size_t i = 0; i < ledgers_.size(); ++i)
      ledgers_[i].open(start, i == 0 ? split_timing::Part::Search : split_timing::Part::Idle);
  }
  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    PvHooks hooks(state_);
    Search<Table, PvHooks> search(this->tt_, hooks, shared);
    return iterative_deepening(search, *workers_[0], shared, &observer);
  }
  // Thread time (timing.h): every thread's span ends with the search; a
  // team thread searches only inside regions and is idle otherwise.
  void end_search() noexcept override {
    const split_timing::Clock::time_point end = split_timing::now();
    for (std::size_t i = 0; i < ledgers_.size(); ++i) ledgers_[i].close(workers_[i]->stats, end);
  }
  SearchStats thread_stats() const override {
    SearchStats s;
    for (const auto& w : workers_) s += w->stats;
    s.critical_path = std::uint64_t(
        std::max<std::int64_t>(std::int64_t(workers_[0]->stats.nodes) + state_.crit_extra, 0));
    s[pvsplit::schedule_bound] = s.critical_path + state_.bound_slack;
    s[critical_splits] = state_.crit_splits;
    return s;
  }

 private:
  HeuristicsShare share_;  // before workers_: their tables may point into it
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<split_timing::Ledger> ledgers_;
  PvState state_;
};

const std::vector<ParamSpec>& pvsplit_params() {
  static const std::vector<ParamSpec> kParams = [] {
    std::vector<ParamSpec> v = {
        split::min_split_depth_param(),
        {"omp_schedule",
         "OpenMP schedule of the parallel loop at a PV node (the thesis's static,1)", 0, 1,
         {"static", "dynamic"}, 0}};
    return with_heuristics_share(std::move(v));
  }();
  return kParams;
}

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme, real or test.
extern const BackendInfo kPvsplitBackend = {
    .name = "pvsplit",
    .summary = "OpenMP PV-splitting (seed thesis 4.2): parallel for over a PV node's younger brothers",
    .default_hash = "perthread",
    .sharing = Sharing::Splits,
    .supports = runs_on<EveryTable>,
    .make = make_on<PvSplitBackend, EveryTable>,
    .params = pvsplit_params,
    // The default lab runs one representative per way of sharing work (`--backends all`: every one).
    .in_default_lab = false,
    .expect = {.reach = {{"splits", 10}, {"joins", 5}, {"aborts", 1}},
               .reach_parallelism = 2.0,
               .books_split_time = true},
    .counter_groups = {"pv-splitting"}
};

}  // namespace xq
