// APHID, asynchronous parallel hierarchical iterative deepening (Brockington
// & Schaeffer 1996): no thread ever waits for another inside the tree. Each
// iteration of depth d, the master (thread 0) searches the top d' plies
// (`aphid_plies`) again and again. At a leaf of that top tree it reads the
// APHID table (parallel/shared/aphid.h): a value the searchers proved for the
// master's window is certain; otherwise it uses a guess (the leaf's last
// exact value at a shallower depth, or its static value) and counts the leaf
// uncertain. A pass that met no uncertain leaf has the root's value, exact
// by alpha-beta's own argument: every leaf value it used is a proved
// fail-soft result for the window it was used with. The leaves are dealt
// round-robin to the searchers when they first appear and stay theirs; each
// searcher loops on its own: it takes its leaf the last pass wants that the
// searches do not decide yet (the least searched first, then the leftmost),
// searches it to the depth the master needs with the master's window
// (iterative deepening up to it, each depth recorded), and records what it
// proved; a leaf whose bound no longer decides the master's new window is
// searched again (Brockington's "bad bound", counted in `researches`). A
// searcher with nothing to do searches one of its own leaves a ply deeper,
// for the next iteration (`aphid_speculate`), and gives way as soon as a
// pass wants one of its leaves (a preemption Brockington's slaves did not
// need: each had a processor of its own). The master searches leaves
// too while it waits for results (`aphid_master`; no: Brockington's
// dedicated master).
//
// Designed for a network without a shared table, it runs here by default on
// per-thread tables (`perthread`: each searcher its own, as on separate
// machines); a shared scheme is the shared-table variant. The top tree is
// full-width PVS (no null move or pruning in the top plies); its move order
// is the last pass's values. Iterations shallower than d' + 2 run on the
// master alone, as the serial search does.
//
// Counters: `master_passes`, `uncertain_leaves` (summed over passes),
// `leaf_searches`, `researches`; the passes' top-tree nodes count as nodes.
// Each thread's time is booked by split_timing's ledger: search while it
// passes or searches a leaf, copy while it copies the root position for a
// leaf, idle while it waits for a result or a leaf.
#include "parallel/shared/aphid.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "board/eval.h"
#include "board/movegen.h"
#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/shared/root_threads.h"
#include "parallel/split/common.h"
#include "parallel/split/timing.h"
#include "search/driver.h"
#include "search/movepick.h"

namespace xq {
namespace {

using split_timing::InPart;
using split_timing::Part;
using split_timing::TimedLock;

struct AphidThread : LedgerThread {
  explicit AphidThread(int thread_id) : LedgerThread(thread_id) {}
  // Set while the thread searches a leaf a ply deeper than the master needs
  // (guarded by the table's lock); `yield` (set by the master, read at every
  // node) asks that search to give way to a leaf the master needs now.
  bool speculating = false;
  std::atomic<bool> yield{false};
};

template <class Table>
class AphidBackend;

// The driver hands each iteration to the master (run_iteration); helpers
// end with the master's search.
template <class Table>
class AphidHooks : public SerialHooks {
 public:
  static constexpr bool kRunsIterations = true;
  AphidHooks(RootThreads<AphidThread>& threads, AphidBackend<Table>& backend)
      : threads_(threads), backend_(backend) {}

  bool aborted(const Worker& w) const {
    return threads_.helper_stopped(w) ||
           static_cast<const AphidThread&>(w).yield.load(std::memory_order_relaxed);
  }
  void add_helper_stats(SearchStats& s) const { threads_.add_helpers(s); }

  template <class S>
  Value run_iteration(S& search, Worker& w, Depth depth, Value prev, const Worker*& line) {
    line = &w;
    return backend_.iteration(search, static_cast<AphidThread&>(w), depth, prev);
  }

 private:
  RootThreads<AphidThread>& threads_;
  AphidBackend<Table>& backend_;
};

template <class Table>
class AphidBackend final : public RootBackend<Table, AphidThread> {
  using Base = RootBackend<Table, AphidThread>;
  using Hooks = AphidHooks<Table>;
  using SearchT = Search<Table, Hooks>;

 public:
  explicit AphidBackend(const BackendConfig& c)
      : Base(c),
        plies_(int(c.param("aphid_plies"))),
        master_searches_(c.param("aphid_master") != 0 || c.threads == 1),
        steal_(c.param("aphid_deal") != 0),
        speculate_(c.param("aphid_speculate") != 0),
        margin_(Value(c.param("aphid_margin"))) {}
  std::string_view name() const override { return "aphid"; }

  // One iteration (from the driver, on the master's thread).
  template <class S>
  Value iteration(S& search, AphidThread& main, Depth depth, Value prev) {
    if (depth < plies_ + 2)
      return detail::aspiration_iteration(search, main, depth, prev,
                                          search.features().aspiration && depth >= 4);
    SearchShared& shared = *shared_;
    int seen_depth = shared.root_depth.load(std::memory_order_relaxed);
    while (seen_depth < depth &&
           !shared.root_depth.compare_exchange_weak(seen_depth, depth, std::memory_order_relaxed)) {
    }
    orders_.clear();
    iteration_depth_ = depth;
    while (true) {
      Pass pass;
      Value v;
      pass_best_.clear();
      std::uint64_t version;
      const std::uint64_t nodes_before = main.stats.nodes;
      {
        const TimedLock lock(mutex_, main.ledger, main.stats);
        table_->begin_pass();
        v = top(main, 0, depth, -kInfinite, kInfinite, true, pass);
        version = table_->version();
        for (int i = 1; i < threads_.size(); ++i) {
          AphidThread& t = threads_.thread(i);
          if (t.speculating && table_->has_work(i)) t.yield.store(true, std::memory_order_relaxed);
        }
      }
      changed();  // the searchers see the pass's wants
      ++main.stats.master_passes;
      main.stats.uncertain_leaves += pass.uncertain;
      if (main.stats.nodes >= main.next_time_check)
        check_search_limits(main, shared, SearchT::kNodeBatch);
      if (pass.uncertain == 0) {
        best_.swap(pass_best_);
        return v;
      }
      if (search.stopped(main)) return v;
      wait_for_results(main, version, main.stats.nodes - nodes_before);
      if (search.stopped(main)) return v;
    }
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    threads_.reset(pos);
    open_ledgers(threads_);
    root_ = pos;
    shared_ = &shared;
    aphid::Settings s;
    for (int i = master_searches_ ? 0 : 1; i < threads_.size(); ++i) s.searchers.push_back(i);
    s.steal = steal_;
    s.speculate = speculate_;
    s.margin = margin_;
    s.deeper_decides = !shared.options.exact;
    table_.emplace(std::move(s));
    orders_.clear();
    best_.clear();
    hooks_.emplace(threads_, *this);
    search_.emplace(this->tt_, *hooks_, shared);
    checkext_ = search_->features().checkext;
    pvs_ = search_->pvs();
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    if (threads_.size() > 1)
      threads_.start([this](AphidThread& t) { serve(t); });
    LastIterationGate<RootThreads<AphidThread>> gate(observer, threads_, shared.options.limits.depth);
    WakeFirst wake(gate, shared.options.limits.depth);
    SearchResult r = iterative_deepening(*search_, threads_.thread(0), shared, &wake);
    threads_.finish();
    r.stats = threads_.sum();
    return r;
  }

  void end_search() noexcept override {
    threads_.finish();
    close_ledgers(threads_);
  }

 private:
  struct Pass {
    int uncertain = 0;
  };

  // Before the last iteration's report ends the searchers, wakes those
  // asleep on a simulated machine, so that they leave at once.
  class WakeFirst final : public Observer {
   public:
    WakeFirst(Observer& inner, Depth limit) : inner_(inner), limit_(limit) {}
    void on_iteration(const SearchResult& r) override {
      if (limit_ > 0 && r.depth >= limit_) sim::signal();
      inner_.on_iteration(r);
    }

   private:
    Observer& inner_;
    Depth limit_;
  };

  // The top tree: PVS over the first `plies_` plies, the APHID table at
  // its leaves. w.pv[ply] receives the line.
  Value top(AphidThread& w, int ply, Depth depth, Value alpha, Value beta, bool pv_node,
            Pass& pass) {
    Position& pos = w.pos;
    w.pv[std::size_t(ply)].size = 0;
    ++w.stats.nodes;
    if (ply > 0 && !shared_->options.exact) {
      switch (pos.repetition()) {
        case Repetition::Draw: return kDraw;
        case Repetition::Win: return kRepetitionWin - ply;
        case Repetition::Loss: return -kRepetitionWin + ply;
        case Repetition::None: break;
      }
    }
    if (ply == plies_) return leaf(w, ply, depth, alpha, beta, pass);
    if (checkext_ && pos.in_check()) ++depth;

    const Key key = pos.key();
    const std::vector<Move>& moves = order(w, key, ply);
    if (moves.empty()) return mated_in(ply);

    Value best = -kInfinite;
    Move best_move;
    bool first = true;
    for (const Move m : moves) {
      pos.do_move(m);
      path_.push_back(m);
      Value v;
      if (first || !pvs_) {
        v = -top(w, ply + 1, depth - 1, -beta, -alpha, pv_node && first, pass);
      } else {
        v = -top(w, ply + 1, depth - 1, -alpha - 1, -alpha, false, pass);
        if (v > alpha && v < beta) v = -top(w, ply + 1, depth - 1, -beta, -alpha, true, pass);
      }
      path_.pop_back();
      pos.undo_move(m);
      first = false;
      if (v > best) {
        best = v;
        best_move = m;
        if (v > alpha) {
          alpha = v;
          set_line(w.pv[std::size_t(ply)], m, w.pv[std::size_t(ply) + 1]);
          if (v >= beta) break;
        }
      }
    }
    pass_best_[key] = best_move;
    return best;
  }

  // The moves of a top node in the order of the iteration (fixed for all its
  // passes, so that "leftmost" means one thing): the node's best move at the
  // last iteration's final pass (else the master's table move) first, then
  // the engine's own move order. The root's banned moves are left out.
  const std::vector<Move>& order(AphidThread& w, Key key, int ply) {
    const auto [it, fresh] = orders_.try_emplace(key);
    if (!fresh) return it->second;
    Move first;
    if (const auto b = best_.find(key); b != best_.end()) {
      first = b->second;
    } else if (TTData e; this->tt_.probe(key, e, w.id)) {
      first = e.move;
    }
    const std::vector<Move>& banned = shared_->options.banned_root_moves;
    MovePicker picker(w.pos, w, search_->features(), first, ply);
    for (Move m = picker.next(); m; m = picker.next()) {
      if (!w.pos.is_legal(m)) continue;
      if (ply == 0 && std::find(banned.begin(), banned.end(), m) != banned.end()) continue;
      it->second.push_back(m);
    }
    return it->second;
  }

  // A leaf is a position and the check extensions on the path to it (a
  // transposition reached with another extension count needs another
  // depth: it is another leaf, so that one leaf has one depth per pass).
  Value leaf(AphidThread& w, int ply, Depth depth, Value alpha, Value beta, Pass& pass) {
    const auto extensions = std::uint64_t(depth - (iteration_depth_ - plies_));
    const Key key = w.pos.key() ^ (extensions * 0x9E3779B97F4A7C15ULL);
    const aphid::Answer a = table_->visit(key, path_, depth, {alpha, beta});
    if (!a.certain) {
      ++pass.uncertain;
      return a.blind ? evaluate(w.pos) : a.value;
    }
    if (a.value > alpha && a.value < beta) {
      if (const std::vector<Move>* line = table_->line(key)) {
        PvLine& out = w.pv[std::size_t(ply)];
        out.size = int(std::min<std::size_t>(line->size(), kMaxPly - std::size_t(ply)));
        std::copy_n(line->begin(), out.size, out.moves.begin());
      }
    }
    return a.value;
  }

  // The master after a pass with uncertain leaves: searches its own leaves
  // the pass wants, leftmost first, until it has searched as many nodes as
  // the pass cost (`budget`: so that passes cost at most as much as the
  // leaves they wait for when the leaves are small) or has none left; else
  // waits until a searcher recorded a result the master needs.
  void wait_for_results(AphidThread& main, std::uint64_t version, std::uint64_t budget) {
    int spins = 0;
    std::uint64_t looked = 0, spent = 0;
    while (!shared_->stopped()) {
      std::optional<aphid::Job> job;
      if (const std::uint64_t now = changes_.load(std::memory_order_acquire); now != looked) {
        looked = now;
        const TimedLock lock(mutex_, main.ledger, main.stats);
        const bool moved = table_->version() != version;  // a result the master needs
        if (moved && spent >= budget) return;
        if (master_searches_) job = table_->take(0, false);
        if (!job && (moved || spent > 0)) return;  // nothing of its own to search: pass again
      }
      if (job) {
        const std::uint64_t before = main.stats.nodes;
        search_leaf(main, *job);
        main.pos = root_;
        spent += main.stats.nodes - before;
        if (spent >= budget) return;
        looked = 0;  // look again at once
        continue;
      }
      {
        const InPart idle(main.ledger, main.stats, Part::Idle);
        split::back_off(spins);
      }
      check_search_limits(main, *shared_, SearchT::kNodeBatch);
    }
  }

  // A helper's job for the whole search: take a leaf, search it, record it.
  void serve(AphidThread& t) {
    int spins = 0;
    std::uint64_t looked = 0;  // the table as it was when it last had nothing
    while (!threads_.helper_stopped(t) && !shared_->stopped()) {
      std::optional<aphid::Job> job;
      if (const std::uint64_t now = changes_.load(std::memory_order_acquire); now != looked) {
        const TimedLock lock(mutex_, t.ledger, t.stats);
        job = table_->take(t.id, true);
        if (!job) looked = now;
        t.speculating = job && job->speculative;
        t.yield.store(false, std::memory_order_relaxed);
      }
      if (!job) {
        t.ledger.to(Part::Idle, t.stats);
        split::back_off(spins);
        continue;
      }
      spins = 0;
      t.ledger.to(Part::Search, t.stats);
      search_leaf(t, *job);
    }
    t.ledger.to(Part::Idle, t.stats);
  }

  // Searches a leaf at its own ply (so that mate and repetition scores, and
  // the killers, are as the serial search would have them there), by
  // iterative deepening from its next unsearched depth to the job's, each
  // depth recorded.
  void search_leaf(AphidThread& w, const aphid::Job& job) {
    {
      const InPart copy(w.ledger, w.stats, Part::Copy);
      sim::charge(sim::Cost::Join);
      w.pos = root_;
      for (Move m : job.path) w.pos.do_move(m);
    }
    const int ply = int(job.path.size());
    if (search_->features().selective())
      for (int p = 0; p < ply; ++p) w.static_eval[std::size_t(p)] = -kInfinite;
    ++w.stats.leaf_searches;
    if (job.again) ++w.stats.researches;
    const bool pv_node = job.window.beta - job.window.alpha > 1;
    for (Depth d = job.first; d <= job.depth; ++d) {
      const Value v =
          search_->node(w, job.window.alpha, job.window.beta, d, ply, pv_node, true);
      if (search_->stopped(w)) {
        const TimedLock lock(mutex_, w.ledger, w.stats);
        table_->release(job.key);
        w.speculating = false;
        return;
      }
      const PvLine& line = w.pv[std::size_t(ply)];
      {
        const TimedLock lock(mutex_, w.ledger, w.stats);
        table_->record(job.key, d, job.window, v, {line.moves.data(), std::size_t(line.size)},
                       d == job.depth);
        if (d == job.depth) w.speculating = false;
      }
      if (d == job.depth) changed();  // the master may pass again
    }
  }

  // The table changed (a pass, or a result at a depth the master needs):
  // waiting threads look again.
  void changed() {
    changes_.fetch_add(1, std::memory_order_release);
    sim::signal();
  }

  using Base::threads_;
  const int plies_;
  const bool master_searches_, steal_, speculate_;
  const Value margin_;
  bool checkext_ = true, pvs_ = true;
  Depth iteration_depth_ = 0;
  Position root_;
  SearchShared* shared_ = nullptr;
  // The APHID table, under mutex_.
  std::mutex mutex_;
  std::optional<aphid::Table> table_;
  std::atomic<std::uint64_t> changes_{1};  // bumped by changed(), read unlocked
  // The master's own: the path of the top-tree node it is at; per top node
  // (by key), its moves in this iteration's order, and its best move at the
  // current pass and at the last iteration's final pass.
  std::vector<Move> path_;
  std::unordered_map<Key, std::vector<Move>> orders_;
  std::unordered_map<Key, Move> pass_best_, best_;
  std::optional<Hooks> hooks_;
  std::optional<SearchT> search_;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme; perthread,
// the distributed setting APHID was designed for, by default.
extern const BackendInfo kAphidBackend = {
    "aphid",
    "APHID (Brockington & Schaeffer 1996): a master passes over the top plies again and again "
    "on the searchers' leaf results, which nobody waits for",
    "perthread", Sharing::Leaves, every_scheme,
    [](const BackendConfig& config) { return make_for_scheme<AphidBackend>(config); },
    []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = {
          {"aphid_plies", "plies of the master's top tree (Brockington's d')", 1, 4, {}, 2},
          {"aphid_master",
           "whether the master searches leaves while it waits for results (no: a dedicated "
           "master, as in the paper)",
           0, 1, {"no", "yes"}, 1},
          {"aphid_deal",
           "leaves stay with the searcher they were dealt to (static, as in the paper) or an "
           "idle searcher takes another's (steal)",
           0, 1, {"static", "steal"}, 0},
          {"aphid_speculate",
           "whether a searcher with nothing to do searches one of its leaves a ply deeper",
           0, 1, {"no", "yes"}, 1},
          {"aphid_margin",
           "half-width of a speculative search's window around the leaf's known value",
           1, 10000, {}, 30}};
      return kParams;
    },
    false, false};

}  // namespace xq
