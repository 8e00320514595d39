// The jamboree backend: Kuszmaul's Jamboree search (1994) as task-parallel
// PVS on oneTBB (parallel/tasks/executor.h).
//
// At a node with remaining depth >= task_depth, once the node's own
// loop has searched the eldest son, every younger brother is *tested* with a
// null window at the alpha the eldest left, each as its own task of one
// group. A test that reaches beta cuts the group off (its unstarted tasks are
// cancelled, its running ones see the cut at their next node) and the node
// returns the cutoff. Once every test is done (continuation=two-phase), the
// brothers whose test failed high below beta are re-searched in move order by
// the node's own thread, each from the alpha the earlier ones left: a PVS
// re-search (a null window at the current alpha, then the full window if it
// fails high). With continuation=ordered a fail-high is re-searched as soon
// as every earlier brother is done, by the task that finds it so, and tests
// that start later take the raised alpha. Work stealing is TBB's; there are
// no split points, no idle scan and no helpful master: a thread waiting for a
// group runs other tasks.
//
// spawn=mwf is Mandatory Work First (Akl, Barnard and Doran 1982) as a spawn
// rule of the same engine: every son of an expected ALL node (Knuth-Moore,
// search/node_type.h) belongs to the minimal tree, so such a node spawns all
// of them at once, its eldest son too, instead of searching the eldest first;
// PV and CUT nodes keep Jamboree's rule (a CUT node's younger sons are the
// speculative work MWF leaves for later).
//
// Search state belongs to the task, not to the thread: a task borrows a
// Worker from its thread slot's free list (the slot's id, so per-thread
// tables work), copies the node's position into it, and gives it back when
// done. Its move-ordering tables (task_heuristics) are by default those of
// the task its thread interrupts (a thread waiting for a group runs tasks
// nested in the waiting one), handed back when it ends: one thread's tasks
// then learn one after another as the serial search does, where a copy of
// the node owner's tables (the first rule) lost every brother's learning --
// 21 % more nodes than serial at one thread on the middlegames at depth 9.
// The node's owner Worker's position is left alone while its tests run:
// every task reads it. At one thread the same tasks run one after another,
// so the 1-thread figure is the task machinery's own cost.
//
// Work and critical path (Kuszmaul's W and C) are counted exactly, in nodes:
// W is every node of every thread; C is, for every task and for the root,
// the nodes it searched itself plus, at each of its splits, the longest
// critical path among that split's tests (the re-searches run on the node's
// own thread, so they count as its own nodes).
#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "board/movegen.h"
#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/split/common.h"
#include "parallel/split/timing.h"
#include "parallel/tasks/executor.h"
#include "search/driver.h"
#include "search/node_type.h"
#include "parallel/tasks/task_counters.h"
#include "parallel/work_span.h"

namespace xq {
namespace {

using split_timing::Part;

// One split of a node: the tests of its younger brothers run below it.
struct Frame {
  const Frame* parent = nullptr;  // the frame the node's own task runs in
  std::atomic<bool> cutoff{false};
};

// A cutoff at f or above it (the split family's walk, split::cut_off).
bool frame_cut(const Frame* f) { return f && split::cut_off(*f); }

// A Worker that a task owns while it runs.
struct TaskWorker : Worker {
  explicit TaskWorker(int slot) : Worker(slot) {}
  // The split whose test this worker searches (nullptr: the root's worker;
  // a re-search runs on the node's own worker, in the node's frame).
  const Frame* frame = nullptr;
  // Critical path beyond the worker's own node count: the longest test of
  // each split it owned.
  std::int64_t crit_extra = 0;
  // ... and the splits on those tests' chains (parallel/work_span.h).
  std::int64_t crit_splits = 0;
  // The Knuth-Moore type of each node on its path (spawn=mwf only).
  NodeTypes path;
};

// A thread slot of the executor: its idle Workers, and its time ledger. A
// slot is used by one thread at a time, but by different threads over a
// search (TBB moves threads between slots); the lock makes each hand-over
// visible (uncontended: a few per task).
struct Slot {
  std::mutex lock;
  std::vector<TaskWorker*> free;  // under lock
  // task_heuristics=thread: the worker of the task this slot's thread runs
  // (the root's worker on slot 0 between tasks; else nullptr). Touched by
  // the slot's thread only, under lock.
  TaskWorker* current = nullptr;
  split_timing::Ledger ledger;    // under lock
  SearchStats time;               // its time fields, under lock
};

struct JamState {
  int threads = 1;
  Depth min_split_depth = 4;
  // task_heuristics: owner (both copied from the node's owner), slot
  // (neither), killers (the owner's killers only), thread (both handed along
  // the thread: from the task it interrupts, and back when done).
  bool copy_history = true;
  bool copy_killers = true;
  bool thread_tables = false;
  bool ordered = false;  // continuation: two-phase (false) or ordered
  bool mwf = false;      // spawn: after the eldest son (false) or MWF
  bool claim_next = false;  // steal: a task tests its spawn's brother (false) or the next untested
  // history_share, killer_share: the tables a new worker points at (a
  // shared table is cleared by the backend, not by a worker made mid-search).
  const HeuristicsShare* share = nullptr;
  tasks::Executor* exec = nullptr;
  const SearchShared* shared = nullptr;
  std::unique_ptr<Slot[]> slots;
  std::mutex all_lock;
  std::vector<std::unique_ptr<TaskWorker>> all;  // every worker but the root's; under all_lock

  Slot& slot(int s) { return slots[std::size_t(s)]; }

  TaskWorker& borrow(int s) {
    {
      Slot& sl = slot(s);
      std::lock_guard g(sl.lock);
      if (!sl.free.empty()) {
        TaskWorker* w = sl.free.back();
        sl.free.pop_back();
        return *w;
      }
    }
    auto w = std::make_unique<TaskWorker>(s);
    share->attach(*w, false);
    w->clear_heuristics();
    TaskWorker& ref = *w;
    std::lock_guard g(all_lock);
    all.push_back(std::move(w));
    return ref;
  }
  void give_back(int s, TaskWorker& w) {
    Slot& sl = slot(s);
    std::lock_guard g(sl.lock);
    sl.free.push_back(&w);
  }
  // task_heuristics=thread: w becomes slot s's running worker; returns the
  // one it interrupts (nullptr: none).
  TaskWorker* enter(int s, TaskWorker& w) {
    Slot& sl = slot(s);
    std::lock_guard g(sl.lock);
    TaskWorker* prev = sl.current;
    sl.current = &w;
    return prev;
  }
  void leave(int s, TaskWorker* prev) {
    Slot& sl = slot(s);
    std::lock_guard g(sl.lock);
    sl.current = prev;
  }
  // Switches slot s's ledger to part p; returns the part it left.
  Part to(int s, Part p) {
    Slot& sl = slot(s);
    std::lock_guard g(sl.lock);
    return sl.ledger.to(p, sl.time);
  }
};

// Books a scope of slot s as part p.
class SlotPart {
 public:
  SlotPart(JamState& st, int s, Part p) : st_(st), s_(s), back_(st.to(s, p)) {}
  ~SlotPart() { st_.to(s_, back_); }
  SlotPart(const SlotPart&) = delete;
  SlotPart& operator=(const SlotPart&) = delete;

 private:
  JamState& st_;
  int s_;
  Part back_;
};

class JamHooks : public SerialHooks {
 public:
  static constexpr bool kSplits = true;
  static constexpr bool kTracksNodes = true;  // node types, for spawn=mwf
  explicit JamHooks(JamState& st) : st_(st) {}

  bool aborted(const Worker& w) const { return frame_cut(static_cast<const TaskWorker&>(w).frame); }
  void on_enter(Worker& w, int ply) {
    if (st_.mwf) static_cast<TaskWorker&>(w).path.enter(ply);
  }
  bool want_split(const Worker&, const SplitContext& ctx) const {
    return ctx.depth >= st_.min_split_depth;
  }
  // Mandatory Work First: every son of an expected ALL node is mandatory
  // (all of them belong to the minimal tree), so all are spawned at once;
  // elsewhere the eldest son comes first (at a CUT node the younger ones are
  // speculative, at a PV node they need its bound).
  bool want_split_first(const Worker& w, const SplitContext& ctx) const {
    return st_.mwf && ctx.depth >= st_.min_split_depth && !ctx.pv_node &&
           static_cast<const TaskWorker&>(w).path.at(ctx.ply) == NodeType::All;
  }

  template <class SearchMove>
  void split(Worker& w, SplitContext& ctx, SearchMove&& search_move) {
    TaskWorker& owner = static_cast<TaskWorker&>(w);
    std::array<Move, kMaxMoves> moves;
    std::array<int, kMaxMoves> ordinals;
    int n = 0;
    for (Move m = ctx.picker->next(); m; m = ctx.picker->next())
      if (w.pos.is_legal(m)) {
        moves[std::size_t(n)] = m;
        ordinals[std::size_t(n++)] = ctx.picker->ordinal();
      }
    if (n == 0) return;
    ++w.stats.splits;
    const bool eldest_too = ctx.moves_searched == 0;  // spawn=mwf at an ALL node
    if (eldest_too) ++w.stats.eldest_splits;
    const int ply = ctx.ply;
    const NodeType type = owner.path.at(ply);
    const Value alpha0 = ctx.alpha;
    const bool ordered = st_.ordered;

    Frame frame;
    frame.parent = owner.frame;
    std::mutex lock;  // guards everything below up to `home`
    split::Outcome result;
    result.start(ctx);
    // A test's value when it failed high below beta (to be re-searched),
    // else -kInfinite; whether the test is done; the first move whose test
    // or re-search is not done yet (ordered continuation).
    std::array<Value, kMaxMoves> fail_high;
    std::fill_n(fail_high.begin(), n, -kInfinite);
    std::array<bool, kMaxMoves> done{};
    int frontier = 0;
    bool advancing = false;
    std::uint64_t longest = 0;     // the longest test's critical path
    std::uint64_t researched = 0;  // the re-searches' critical paths (they run in order)
    std::int64_t longest_splits = 0, researched_splits = 0;  // their splits (work_span.h)
    split_timing::Clock::time_point cut_at{};
    const int home = st_.exec->slot();

    // Under the lock: records move i's value v (exact, or a bound outside
    // the node's window); true when it cut the node off.
    auto record = [&](int i, Value v, TaskWorker& tw) {
      fail_high[std::size_t(i)] = -kInfinite;
      if (!result.record(moves[std::size_t(i)], v, tw.pv[std::size_t(ply) + 1], ctx.beta))
        return false;
      frame.cutoff.store(true, std::memory_order_relaxed);
      cut_at = split_timing::now();
      ++tw.stats.aborts;
      return true;
    };
    // Under the lock: records move i's test value v (a null-window search at
    // `alpha`), or keeps it for a re-search when it failed high below beta.
    auto settle = [&](int i, Value v, Value alpha, TaskWorker& tw) {
      if (v > alpha && v < ctx.beta) {
        fail_high[std::size_t(i)] = v;
        return false;
      }
      return record(i, v, tw);
    };
    // Ordered continuation, under `lk`: while the move at the frontier is
    // done, re-search it if its test failed high (from the alpha the earlier
    // moves left, the lock released meanwhile) and move on. One thread
    // advances at a time; a test that ends meanwhile finds `advancing` set,
    // and the advancing thread sees it done at its next look.
    auto advance = [&](std::unique_lock<std::mutex>& lk, TaskWorker& tw, auto&& search) {
      if (advancing) return;
      advancing = true;
      while (frontier < n && done[std::size_t(frontier)] &&
             !frame.cutoff.load(std::memory_order_relaxed)) {
        const int j = frontier;
        if (fail_high[std::size_t(j)] != -kInfinite) {
          const Value a = result.alpha;
          lk.unlock();
          ++tw.stats.researches;
          const std::uint64_t nodes0 = tw.stats.nodes;
          const std::int64_t extra0 = tw.crit_extra, splits0 = tw.crit_splits;
          const Value v = search(tw, moves[std::size_t(j)], ordinals[std::size_t(j)], a, ctx);
          const std::int64_t crit = std::int64_t(tw.stats.nodes - nodes0) + (tw.crit_extra - extra0);
          lk.lock();
          if (frame_cut(&frame) || st_.shared->stopped()) break;
          researched += std::uint64_t(std::max<std::int64_t>(crit, 0));
          researched_splits += tw.crit_splits - splits0;
          if (record(j, v, tw)) break;
        }
        ++frontier;
      }
      advancing = false;
    };

    // steal=next: a task tests the next untested brother in move order when
    // it starts, whichever task of the group it is, so a thief (which takes
    // a group's oldest task) gets the next brother, as Cilk's continuation
    // stealing hands it, not the group's last one.
    std::atomic<int> next_untested{0};
    auto body = [&](int spawned) {
      if (frame_cut(&frame) || st_.shared->stopped()) return;
      const int i =
          st_.claim_next ? next_untested.fetch_add(1, std::memory_order_relaxed) : spawned;
      const int s = st_.exec->slot();
      TaskWorker& tw = st_.borrow(s);
      // With thread tables the task starts from the tables of the task its
      // thread interrupts and hands them back when it ends, so one thread's
      // tasks learn one after another as the serial search does.
      TaskWorker* const interrupted = st_.thread_tables ? st_.enter(s, tw) : nullptr;
      struct GiveBack {
        JamState& st;
        int s;
        TaskWorker& tw;
        TaskWorker* interrupted;
        ~GiveBack() {
          if (st.thread_tables) {
            if (interrupted) {
              sim::charge(sim::Cost::Join);
              interrupted->copy_history_from(tw);
              interrupted->copy_killers_from(tw);
            }
            st.leave(s, interrupted);
          }
          st.give_back(s, tw);
        }
      } give_back{st_, s, tw, interrupted};
      const SlotPart searching(st_, s, Part::Search);
      ++tw.stats[tasks::tasks];
      {
        const SlotPart copying(st_, s, Part::Copy);
        sim::charge(sim::Cost::Join);
        tw.pos.copy_from(owner.pos);
        if (st_.copy_history) tw.copy_history_from(owner);
        if (st_.copy_killers) tw.copy_killers_from(owner);
        if (interrupted) {
          tw.copy_history_from(*interrupted);
          tw.copy_killers_from(*interrupted);
        }
      }
      // The test's null window: at the eldest son's alpha (two-phase), or
      // at the best alpha the node has when the task starts (ordered).
      Value alpha = alpha0;
      if (ordered) {
        sim::charge(sim::Cost::Lock);
        std::lock_guard g(lock);
        alpha = result.alpha;
      }
      SplitContext test = ctx;
      test.beta = alpha + 1;
      const Move m = moves[std::size_t(i)];
      if (st_.mwf) tw.path.resume(ply, type, eldest_too && i == 0 ? 0 : 1);
      const split_timing::ChildNodes child(tw.stats);
      const std::uint64_t nodes0 = tw.stats.nodes;
      const std::int64_t extra0 = tw.crit_extra, splits0 = tw.crit_splits;
      tw.frame = &frame;
      const Value v = search_move(tw, m, ordinals[std::size_t(i)], alpha, test);
      const std::int64_t crit = std::int64_t(tw.stats.nodes - nodes0) + (tw.crit_extra - extra0);
      const std::int64_t splits = tw.crit_splits - splits0;
      if (frame_cut(&frame)) child.discard(tw.stats);
      if (frame_cut(&frame) || st_.shared->stopped()) return;
      sim::charge(sim::Cost::Lock);
      std::unique_lock lk(lock);
      const std::uint64_t chain = std::uint64_t(std::max<std::int64_t>(crit, 0));
      if (chain > longest || (chain == longest && splits > longest_splits)) {
        longest = chain;
        longest_splits = splits;
      }
      if (settle(i, v, alpha, tw)) return;
      done[std::size_t(i)] = true;
      if (ordered) advance(lk, tw, search_move);
    };

    {
      const SlotPart waiting(st_, home, Part::Idle);
      sim::charge(sim::Cost::Publish);
      std::atomic<bool>& cut = frame.cutoff;
      st_.exec->run_group(n, body, cut);
    }
    // Critical path: the longest test, then the re-searches one after
    // another (the owner's own below count as its own nodes). With the
    // ordered continuation this is an upper bound: re-searches there may
    // overlap later tests.
    owner.crit_extra += std::int64_t(longest + researched);
    owner.crit_splits += 1 + longest_splits + researched_splits;
    if (frame.cutoff.load(std::memory_order_relaxed)) {
      w.stats[tasks::cancel_wait_seconds] += split_timing::seconds_between(cut_at, split_timing::now());
    } else if (!st_.shared->stopped() && !frame_cut(owner.frame)) {
      // Second phase (two-phase; ordered: whatever the frontier left): the
      // tests that failed high below beta, in move order, on this thread.
      for (int i = frontier; i < n; ++i) {
        if (fail_high[std::size_t(i)] == -kInfinite) continue;
        ++w.stats.researches;
        const Move m = moves[std::size_t(i)];
        const Value v = search_move(w, m, ordinals[std::size_t(i)], result.alpha, ctx);
        if (st_.shared->stopped() || frame_cut(owner.frame)) break;
        if (result.record(m, v, w.pv[std::size_t(ply) + 1], ctx.beta)) break;
      }
    }
    result.finish(ctx, w);
  }

  void add_helper_stats(SearchStats& s) const {
    std::lock_guard g(st_.all_lock);
    for (const auto& w : st_.all) s += w->stats;
  }

 private:
  JamState& st_;
};

template <class Table>
class JamboreeBackend final : public BackendBase<Table> {
 public:
  explicit JamboreeBackend(const BackendConfig& c)
      : BackendBase<Table>(c), share_(c), exec_(c.threads), root_(0) {
    share_.attach(root_, false);
    st_.share = &share_;
    st_.threads = c.threads;
    st_.min_split_depth = Depth(c.param("task_depth"));
    const std::int64_t heuristics = c.param("task_heuristics");
    st_.copy_history = heuristics == 0;
    st_.copy_killers = heuristics == 0 || heuristics == 2;
    st_.thread_tables = heuristics == 3;
    st_.ordered = c.param("continuation") != 0;
    st_.mwf = c.param("spawn") != 0;
    st_.claim_next = c.param("steal") != 0;
    st_.exec = &exec_;
    st_.slots = std::make_unique<Slot[]>(std::size_t(c.threads));
    this->require_thread_slots(c.threads);
  }
  std::string_view name() const override { return "jamboree"; }

  void clear() override {
    this->tt_.clear();
    share_.clear();
    root_.clear_heuristics();
    std::lock_guard g(st_.all_lock);
    for (auto& w : st_.all) w->clear_heuristics();
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    share_.clear();
    reset_worker(root_, pos);
    root_.frame = nullptr;
    root_.crit_extra = 0;
    root_.crit_splits = 0;
    st_.shared = &shared;
    exec_.reset_counts();
    for (int s = 0; s < st_.threads; ++s) {
      st_.slot(s).free.clear();
      st_.slot(s).current = s == 0 ? &root_ : nullptr;
    }
    {
      std::lock_guard g(st_.all_lock);
      for (auto& w : st_.all) {
        w->stats = SearchStats{};
        w->next_time_check = 0;
        w->flushed_nodes = 0;
        w->sim_nodes = w->sim_qnodes = 0;
        w->frame = nullptr;
        w->crit_extra = 0;
        w->crit_splits = 0;
        st_.slot(w->id).free.push_back(w.get());
      }
    }
    const split_timing::Clock::time_point start = split_timing::now();
    for (int s = 0; s < st_.threads; ++s) {
      Slot& sl = st_.slot(s);
      sl.time = SearchStats{};
      sl.ledger.open(start, s == 0 ? Part::Search : Part::Idle);
    }
  }
  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    JamHooks hooks(st_);
    Search<Table, JamHooks> search(this->tt_, hooks, shared);
    SearchResult r;
    exec_.run([&] { r = iterative_deepening(search, root_, shared, &observer); });
    return r;
  }
  void end_search() noexcept override {
    const split_timing::Clock::time_point end = split_timing::now();
    for (int s = 0; s < st_.threads; ++s) {
      Slot& sl = st_.slot(s);
      std::lock_guard g(sl.lock);
      sl.ledger.close(sl.time, end);
    }
  }
  SearchStats thread_stats() const override {
    SearchStats s = root_.stats;
    JamHooks(st_).add_helper_stats(s);
    for (int i = 0; i < st_.threads; ++i) {
      const Slot& sl = st_.slots[std::size_t(i)];
      s.search_seconds += sl.time.search_seconds;
      s.idle_seconds += sl.time.idle_seconds;
      s.lock_seconds += sl.time.lock_seconds;
      s.copy_seconds += sl.time.copy_seconds;
      s.span_seconds += sl.time.span_seconds;
    }
    s[tasks::stolen_tasks] = exec_.stolen();
    s.critical_path = std::uint64_t(std::int64_t(root_.stats.nodes) + root_.crit_extra);
    s[critical_splits] = std::uint64_t(std::max<std::int64_t>(root_.crit_splits, 0));
    return s;
  }

 private:
  HeuristicsShare share_;  // before the workers: their tables may point into it
  tasks::Executor exec_;
  TaskWorker root_;
  mutable JamState st_;
};

const std::vector<ParamSpec>& jamboree_params() {
  static const std::vector<ParamSpec> kParams = with_heuristics_share({
      // Measured on four openings at depth 9, 2 threads (2026-11-26): 5 and
      // 6 searched 12-30 % more nodes than serial, 4 some 65 % more.
      {"task_depth", "only nodes with at least this remaining depth spawn their younger "
       "brothers as tasks", 1, kMaxDepth, {}, 5},
      // thread: measured at depth 10 on data/middlegames.csv, 2 threads,
      // interleaved (2026-11-28): S 1.524 / 1.591 against the owner's copy's
      // 1.357 / 1.397 (SO 1.174 / 1.136 against 1.354 / 1.329); at one
      // thread SO 1.013 (the owner's copy: 1.209, simulated).
      {"task_heuristics",
       "move-ordering tables a task starts from: a copy of the node owner's (owner), its "
       "thread slot's own (slot), the slot's history with the owner's killers (killers), or "
       "those of the task its thread interrupts, handed back when it ends, so that one "
       "thread's tasks learn one after another as the serial search does (thread)",
       0, 3, {"owner", "slot", "killers", "thread"}, 3},
      {"continuation",
       "when a test that failed high below beta is re-searched: after every test (two-phase) "
       "or as soon as every earlier brother is done, later tests then starting from the raised "
       "alpha (ordered)",
       0, 1, {"two-phase", "ordered"}, 1},
      {"spawn",
       "which sons a node spawns as tasks: the younger brothers once the eldest is searched "
       "(jamboree), or at an expected ALL node every son at once, the eldest too (mwf: "
       "Mandatory Work First, Akl, Barnard and Doran)",
       0, 1, {"jamboree", "mwf"}, 0, false},
      {"steal",
       "which brother a task tests: the one it was spawned for, so a thief takes a group's "
       "last brothers (last), or the next untested one in move order when it starts, so a "
       "thief takes the next brother as Cilk's continuation stealing would (next)",
       0, 1, {"last", "next"}, 0}});
  return kParams;
}

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme, real or test.
extern const BackendInfo kJamboreeBackend = {
    .name = "jamboree",
    .summary = "Jamboree (Kuszmaul 1994) on oneTBB: younger brothers tested in parallel as tasks, "
    "fail-highs re-searched in order",
    .default_hash = "xor",
    .sharing = Sharing::Splits,
    .supports = runs_on<EveryTable>,
    .make = make_on<JamboreeBackend, EveryTable>,
    .params = jamboree_params,
    .serial_at_one_thread = false,
    // The default lab runs ybwc for the backends that split (`--backends all`: every one).
    .in_default_lab = false,
    .expect = {.reach = {{"splits", 50}, {"aborts", 1}, {"stolen_tasks", 10}, {"researches", 1}},
               // Mandatory Work First (spawn=mwf) splits before the eldest brother.
               .split_first = {.param = "spawn", .depth_param = "task_depth", .value = 1}},
    .counter_groups = {"tasks"}
};

}  // namespace xq
