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
#include <omp.h>

#include <exception>
#include <mutex>
#include <vector>

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/split_timing.h"
#include "search/driver.h"

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
  const SearchShared* shared = nullptr;                     // set per search
  // Written by the master between regions only, read inside them.
  bool in_region = false;
  // Raised by the team thread that finds a beta cutoff; cleared by the master
  // after the region.
  alignas(64) std::atomic<bool> cutoff{false};
};

// What the team shares while it searches one PV node's younger brothers.
// Every field after `lock` is guarded by it.
struct TeamResult {
  explicit TeamResult(const SplitContext& ctx)
      : alpha(ctx.alpha), best(ctx.best_value), best_move(ctx.best_move),
        searched(ctx.moves_searched) {}

  Value current_alpha(SearchStats& stats) {
    const split_timing::TimedLock g(lock, stats);
    return alpha;
  }
  // Records the value of move m (child_line: the line below it, as the thread
  // that searched it saw it); true when it cut off.
  bool record(Value v, Move m, const PvLine& child_line, Value beta, SearchStats& stats) {
    const split_timing::TimedLock g(lock, stats);
    ++searched;
    if (v <= best) return false;
    best = v;
    best_move = m;
    if (v <= alpha) return false;
    alpha = v;
    set_line(line, m, child_line);
    has_line = true;
    return v >= beta;
  }
  // Keeps the first exception a team thread threw.
  void fail(std::exception_ptr e) {
    std::lock_guard g(lock);
    if (!error) error = std::move(e);
  }
  // After the region: the merged result back into the node.
  void write_back(SplitContext& ctx, Worker& master) const {
    ctx.alpha = alpha;
    ctx.best_value = best;
    ctx.best_move = best_move;
    ctx.moves_searched = searched;
    ctx.cutoff = best >= ctx.beta;
    if (has_line) master.pv[std::size_t(ctx.ply)] = line;
  }

  std::mutex lock;
  Value alpha, best;
  Move best_move;
  int searched;
  PvLine line;  // the line of the move that last raised alpha
  bool has_line = false;
  std::exception_ptr error;
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
    for (Move m = ctx.picker->next(); m; m = ctx.picker->next())
      if (w.pos.is_legal(m)) moves.push_back(m);
    if (moves.empty()) return;
    ++w.stats.splits;
    ready_team(w);
    TeamResult team(ctx);
    // Team threads that took part: each writes its own element.
    std::vector<char> joined(std::size_t(st_.threads), 0);
    // Seconds each team thread spent searching moves in this region.
    std::vector<double> busy(std::size_t(st_.threads), 0.0);
    auto body = [&](int i) {
      if (st_.cutoff.load(std::memory_order_relaxed)) return;
      const int tid = omp_get_thread_num();
      Worker& tw = tid == 0 ? w : *(*st_.workers)[std::size_t(tid)];
      if (tid != 0 && !joined[std::size_t(tid)]) {
        joined[std::size_t(tid)] = 1;
        ++tw.stats.joins;
      }
      const Move m = moves[std::size_t(i)];
      const Value alpha = team.current_alpha(tw.stats);
      const split_timing::ChildNodes child(tw.stats);
      const split_timing::Clock::time_point t0 = split_timing::Clock::now();
      const Value v = search_move(tw, m, alpha, ctx);
      // Inside a region a thread's time is idle unless it searches a move.
      busy[std::size_t(tid)] += split_timing::seconds_between(t0, split_timing::Clock::now());
      // An abort or stop made v meaningless.
      if (st_.cutoff.load(std::memory_order_relaxed)) child.discard(tw.stats);
      if (st_.cutoff.load(std::memory_order_relaxed) || st_.shared->stopped()) return;
      if (team.record(v, m, tw.pv[std::size_t(ctx.ply) + 1], ctx.beta, tw.stats)) {
        st_.cutoff.store(true, std::memory_order_relaxed);
        ++tw.stats.aborts;
      }
    };
    const double lock0 = w.stats.lock_seconds;
    const split_timing::Clock::time_point region0 = split_timing::Clock::now();
    run_region(int(moves.size()), body, team);
    // The master's wait at the region's end (and before its first move) is
    // idle time; the team threads' time is accounted in end_search().
    w.stats.idle_seconds +=
        split_timing::seconds_between(region0, split_timing::Clock::now()) - busy[0] -
        (w.stats.lock_seconds - lock0);
    for (int i = 1; i < st_.threads; ++i)
      (*st_.workers)[std::size_t(i)]->stats.search_seconds += busy[std::size_t(i)];
    if (team.error) std::rethrow_exception(team.error);
    team.write_back(ctx, w);
  }

  void add_helper_stats(SearchStats& s) const {
    for (int i = 1; i < st_.threads; ++i) s += (*st_.workers)[std::size_t(i)]->stats;
  }

 private:
  // Team threads start from the master's position and its move-ordering
  // knowledge (history and killers): ordering the younger brothers with
  // their own, emptier tables costs measurably more nodes.
  void ready_team(Worker& master) const {
    const split_timing::Clock::time_point t0 = split_timing::Clock::now();
    for (int i = 1; i < st_.threads; ++i) {
      Worker& tw = *(*st_.workers)[std::size_t(i)];
      tw.pos.copy_from(master.pos);
      tw.history = master.history;
      tw.killers = master.killers;
    }
    master.stats.copy_seconds += split_timing::seconds_between(t0, split_timing::Clock::now());
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
    if (st_.dynamic) {
#pragma omp parallel for num_threads(st_.threads) schedule(dynamic, 1)
      for (int i = 0; i < n; ++i) guarded(i);
    } else {
#pragma omp parallel for num_threads(st_.threads) schedule(static, 1)
      for (int i = 0; i < n; ++i) guarded(i);
    }
    st_.in_region = false;
    st_.cutoff.store(false, std::memory_order_relaxed);
  }

  PvState& st_;
};

template <class Table>
class PvSplitBackend final : public BackendBase<Table> {
 public:
  explicit PvSplitBackend(const BackendConfig& c) : BackendBase<Table>(c) {
    for (int i = 0; i < c.threads; ++i) workers_.push_back(std::make_unique<Worker>(i));
    state_.threads = c.threads;
    state_.min_split_depth = c.min_split_depth;
    state_.dynamic = c.omp_dynamic;
    state_.workers = &workers_;
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
    state_.shared = &shared;
    started_ = split_timing::Clock::now();
  }
  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    PvHooks hooks(state_);
    Search<Table, PvHooks> search(this->tt_, hooks, shared);
    return iterative_deepening(search, *workers_[0], shared, &observer);
  }
  // Thread time (split_timing.h): the master's search time is what its
  // idle, lock and copy time leave of the search; a team thread searches
  // only inside regions (search_seconds summed there) and is idle otherwise.
  void end_search() noexcept override {
    const double span =
        split_timing::seconds_between(started_, split_timing::Clock::now());
    split_timing::close_span(workers_[0]->stats, span);
    for (std::size_t i = 1; i < workers_.size(); ++i) {
      SearchStats& s = workers_[i]->stats;
      const double idle = span - s.search_seconds - s.lock_seconds - s.copy_seconds;
      s.idle_seconds = idle > 0 ? idle : 0.0;
    }
  }
  SearchStats thread_stats() const override {
    SearchStats s;
    for (const auto& w : workers_) s += w->stats;
    return s;
  }

 private:
  std::vector<std::unique_ptr<Worker>> workers_;
  PvState state_;
  split_timing::Clock::time_point started_{};
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme, real or test.
extern const BackendInfo kPvsplitBackend = {
    "pvsplit", "OpenMP PV-splitting (seed thesis 4.2): parallel for over a PV node's younger brothers", "perthread",
    [](std::string_view scheme) { return is_known_scheme(scheme); },
    [](const BackendConfig& config) { return make_for_scheme<PvSplitBackend>(config); }};

}  // namespace xq
