// APHID's master and its searchers' loop (Brockington & Schaeffer 1996),
// shared by the backend on threads (`aphid`, parallel/shared/aphid.cpp) and
// the one on ranks (`mpi-aphid`, parallel/distributed/mpi_aphid.cpp): the master's
// passes over the top tree, its wait for results, and the leaf search every
// searcher runs, whoever records its result. The table's rules are in
// parallel/shared/aphid.h.
//
// Each iteration of depth d the master (thread 0) searches the top d' plies
// (`aphid_plies`) again and again. At a leaf of that top tree it reads the
// APHID table: a value the searchers proved for the master's window is
// certain; otherwise it uses a guess (the leaf's last exact value at a
// shallower depth, or its static value) and counts the leaf uncertain. A
// pass that met no uncertain leaf has the root's value, exact by
// alpha-beta's own argument: every leaf value it used is a proved fail-soft
// result for the window it was used with. The top tree is full-width PVS
// (no null move or pruning in the top plies); its move order is the last
// pass's values. Iterations shallower than d' + 2 run on the master alone,
// as the serial search does.
//
// A searcher on the master's side of the wire (a thread of the same
// process) takes its leaves from the table itself (serve()); the master's
// crew (Crew) is told after each pass, so that searchers elsewhere (ranks)
// get theirs. A local searcher with nothing to do searches one of its own
// leaves a ply deeper, for the next iteration (`aphid_speculate`), and
// gives way (`yield`, read by the hooks' aborted()) as soon as a pass wants
// one of its leaves.
//
// Counters: `master_passes`, `uncertain_leaves` (summed over passes),
// `leaf_searches`, `researches`; the passes' top-tree nodes count as nodes.
// Each thread's time is booked by split_timing's ledger: search while it
// passes or searches a leaf, copy while it copies the root position for a
// leaf, idle while it waits for a result or a leaf.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "board/eval.h"
#include "board/movegen.h"
#include "parallel/backend_factory.h"
#include "parallel/shared/aphid.h"
#include "parallel/split/common.h"
#include "parallel/split/timing.h"
#include "parallel/sim/machine.h"
#include "search/driver.h"
#include "search/movepick.h"

namespace xq::aphid {

// The registry's parameters of both APHID backends.
inline std::vector<ParamSpec> master_params() {
  return {{"aphid_plies", "plies of the master's top tree (Brockington's d')", 1, 4, {}, 2},
          {"aphid_master",
           "whether the master searches leaves while it waits for results (no: a dedicated "
           "master, as in the paper)",
           0, 1, {"no", "yes"}, 1},
          {"aphid_deal",
           "leaves stay with the searcher they were dealt to (static, as in the paper) or an "
           "idle searcher takes another's (steal)",
           0, 1, {"static", "steal"}, 0},
          {"aphid_speculate",
           "whether a searcher with nothing to do searches one of its leaves a ply deeper", 0, 1,
           {"no", "yes"}, 1},
          {"aphid_margin",
           "half-width of a speculative search's window around the leaf's known value", 1, 10000,
           {}, 30}};
}

// The table's settings from a backend's parameters; `searchers` are the
// searcher ids in dealing order (the master's, 0, first when it searches).
inline Settings settings_of(const BackendConfig& c, std::vector<int> searchers, bool exact) {
  Settings s;
  s.searchers = std::move(searchers);
  s.steal = c.param("aphid_deal") != 0;
  s.speculate = c.param("aphid_speculate") != 0;
  s.margin = Value(c.param("aphid_margin"));
  s.deeper_decides = !exact;
  return s;
}

// A searcher of the master's own process.
struct Local {
  bool speculating = false;        // under the table's lock
  std::atomic<bool> yield{false};  // set by the master, read at every node
};

// What the master's backend does beside its local searchers: after each
// pass, under the table's lock, hand the pass's wants to searchers
// elsewhere.
class Crew {
 public:
  virtual void after_pass(Table& table) = 0;

 protected:
  ~Crew() = default;
};

using split_timing::Ledger;
using split_timing::Part;

// The leaf search: the leaf's position from `root` and the job's line, at
// its own ply (so that mate and repetition scores, and the killers, are as
// the serial search would have them there), by iterative deepening from the
// job's first depth to its depth; record(d, v, line, done) after each depth.
// Returns false when the search stopped (or yielded) before the last depth.
template <class S, class Record>
bool search_leaf(S& search, Worker& w, Ledger& ledger, const Position& root, const Job& job,
                 Record&& record) {
  {
    const split_timing::InPart copy(ledger, w.stats, Part::Copy);
    sim::charge(sim::Cost::Join);
    w.pos = root;
    for (Move m : job.path) w.pos.do_move(m);
  }
  const int ply = int(job.path.size());
  if (search.features().selective())
    for (int p = 0; p < ply; ++p) w.static_eval[std::size_t(p)] = -kInfinite;
  ++w.stats[aphid::leaf_searches];
  if (job.again) ++w.stats.researches;
  const bool pv_node = job.window.beta - job.window.alpha > 1;
  for (Depth d = job.first; d <= job.depth; ++d) {
    const Value v = search.node(w, job.window.alpha, job.window.beta, d, ply, pv_node, true);
    if (search.stopped(w)) return false;
    const PvLine& line = w.pv[std::size_t(ply)];
    record(d, v, std::span<const Move>(line.moves.data(), std::size_t(line.size)),
           d == job.depth);
  }
  return true;
}

template <class Tt>
class Master {
 public:
  Master(const BackendConfig& c, int local_threads)
      : plies_(int(c.param("aphid_plies"))), locals_(std::size_t(local_threads)) {}

  // A new search of `root` (no searcher runs): the table for `s`, the
  // master's transposition table (its move at a top node), and the crew.
  // (`features` and `pvs`: the search's, Search::features() and pvs().)
  // The root is kept as given: the master's own position after a search
  // is the same position, but its piece lists may be in another order,
  // and so would its leaves' move orders be.
  void begin(Settings s, bool master_searches, const Position& root, Tt& tt,
             const Features& features, bool pvs, SearchShared& shared, Crew* crew) {
    table_.emplace(std::move(s));
    root_ = root;
    master_searches_ = master_searches;
    tt_ = &tt;
    shared_ = &shared;
    crew_ = crew;
    features_ = features;
    checkext_ = features.checkext;
    pvs_ = pvs;
    orders_.clear();
    best_.clear();
    pass_best_.clear();
    path_.clear();
    for (Local& l : locals_) {
      l.speculating = false;
      l.yield.store(false, std::memory_order_relaxed);
    }
  }

  std::mutex& mutex() { return mutex_; }
  Table& table() { return *table_; }  // under mutex()
  bool yielded(int local) const {
    return locals_[std::size_t(local)].yield.load(std::memory_order_relaxed);
  }

  // The table changed (a pass, or a result at a depth the master needs):
  // waiting threads look again.
  void changed() {
    changes_.fetch_add(1, std::memory_order_release);
    sim::signal();
  }

  // One iteration (from the driver, on the master's thread).
  template <class S>
  Value iteration(S& search, Worker& main, Ledger& ledger, Depth depth, Value prev) {
    if (depth < plies_ + 2)
      return xq::detail::aspiration_iteration(search, main, depth, prev,
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
        const split_timing::TimedLock lock(mutex_, ledger, main.stats);
        table_->begin_pass();
        v = top(main, 0, depth, -kInfinite, kInfinite, true, pass);
        version = table_->version();
        for (std::size_t i = 1; i < locals_.size(); ++i) {
          Local& l = locals_[i];
          if (l.speculating && table_->has_work(int(i)))
            l.yield.store(true, std::memory_order_relaxed);
        }
        if (crew_) crew_->after_pass(*table_);
      }
      changed();  // the searchers see the pass's wants
      ++main.stats[aphid::master_passes];
      main.stats[aphid::uncertain_leaves] += pass.uncertain;
      if (main.stats.nodes >= main.next_time_check)
        check_search_limits(main, shared, S::kNodeBatch);
      if (pass.uncertain == 0) {
        best_.swap(pass_best_);
        return v;
      }
      if (search.stopped(main)) return v;
      wait_for_results(search, main, ledger, version, main.stats.nodes - nodes_before);
      if (search.stopped(main)) return v;
    }
  }

  // A local searcher's job for the whole search (searcher id = its thread
  // id): take a leaf, search it, record it, until stop() says so.
  template <class S, class Stop>
  void serve(S& search, Worker& t, Ledger& ledger, Stop&& stop) {
    const Position root = t.pos;
    Local& me = locals_[std::size_t(t.id)];
    int spins = 0;
    std::uint64_t looked = 0;  // the table as it was when it last had nothing
    while (!stop() && !shared_->stopped()) {
      std::optional<Job> job;
      if (const std::uint64_t now = changes_.load(std::memory_order_acquire); now != looked) {
        const split_timing::TimedLock lock(mutex_, ledger, t.stats);
        job = table_->take(t.id, true);
        if (!job) looked = now;
        me.speculating = job && job->speculative;
        me.yield.store(false, std::memory_order_relaxed);
      }
      if (!job) {
        ledger.to(Part::Idle, t.stats);
        split::back_off(spins);
        continue;
      }
      spins = 0;
      ledger.to(Part::Search, t.stats);
      search_local(search, t, ledger, root, *job);
    }
    ledger.to(Part::Idle, t.stats);
  }

 private:
  struct Pass {
    int uncertain = 0;
  };

  // A local searcher's leaf search, recorded in the table under its lock.
  template <class S>
  void search_local(S& search, Worker& w, Ledger& ledger, const Position& root, const Job& job) {
    Local& me = locals_[std::size_t(w.id)];
    const bool finished = search_leaf(
        search, w, ledger, root, job,
        [&](Depth d, Value v, std::span<const Move> line, bool done) {
          {
            const split_timing::TimedLock lock(mutex_, ledger, w.stats);
            table_->record(job.key, d, job.window, v, line, done);
            if (done) me.speculating = false;
          }
          if (done) changed();  // the master may pass again
        });
    if (!finished) {
      const split_timing::TimedLock lock(mutex_, ledger, w.stats);
      table_->release(job.key);
      me.speculating = false;
    }
  }

  // The top tree: PVS over the first `plies_` plies, the APHID table at
  // its leaves. w.pv[ply] receives the line.
  Value top(Worker& w, int ply, Depth depth, Value alpha, Value beta, bool pv_node, Pass& pass) {
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
  const std::vector<Move>& order(Worker& w, Key key, int ply) {
    const auto [it, fresh] = orders_.try_emplace(key);
    if (!fresh) return it->second;
    Move first;
    if (const auto b = best_.find(key); b != best_.end()) {
      first = b->second;
    } else if (TTData e; tt_->probe(key, e, w.id)) {
      first = e.move;
    }
    const std::vector<Move>& banned = shared_->options.banned_root_moves;
    MovePicker picker(w.pos, w, features_, first, ply);
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
  Value leaf(Worker& w, int ply, Depth depth, Value alpha, Value beta, Pass& pass) {
    const auto extensions = std::uint64_t(depth - (iteration_depth_ - plies_));
    const Key key = w.pos.key() ^ (extensions * 0x9E3779B97F4A7C15ULL);
    const Answer a = table_->visit(key, path_, depth, {alpha, beta});
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
  template <class S>
  void wait_for_results(S& search, Worker& main, Ledger& ledger, std::uint64_t version,
                        std::uint64_t budget) {
    int spins = 0;
    std::uint64_t looked = 0, spent = 0;
    while (!shared_->stopped()) {
      std::optional<Job> job;
      if (const std::uint64_t now = changes_.load(std::memory_order_acquire); now != looked) {
        looked = now;
        const split_timing::TimedLock lock(mutex_, ledger, main.stats);
        const bool moved = table_->version() != version;  // a result the master needs
        if (moved && spent >= budget) return;
        if (master_searches_) job = table_->take(0, false);
        if (!job && (moved || spent > 0)) return;  // nothing of its own to search: pass again
      }
      if (job) {
        const std::uint64_t before = main.stats.nodes;
        search_local(search, main, ledger, root_, *job);
        main.pos = root_;
        spent += main.stats.nodes - before;
        if (spent >= budget) return;
        looked = 0;  // look again at once
        continue;
      }
      {
        const split_timing::InPart idle(ledger, main.stats, Part::Idle);
        split::back_off(spins);
      }
      check_search_limits(main, *shared_, S::kNodeBatch);
    }
  }

  const int plies_;
  bool master_searches_ = true;
  bool checkext_ = true, pvs_ = true;
  Features features_;
  Tt* tt_ = nullptr;
  SearchShared* shared_ = nullptr;
  Crew* crew_ = nullptr;
  Depth iteration_depth_ = 0;
  Position root_;
  std::vector<Local> locals_;  // by local thread id (0: the master)
  // The APHID table, under mutex_.
  std::mutex mutex_;
  std::optional<Table> table_;
  std::atomic<std::uint64_t> changes_{1};  // bumped by changed(), read unlocked
  // The master's own: the path of the top-tree node it is at; per top node
  // (by key), its moves in this iteration's order, and its best move at the
  // current pass and at the last iteration's final pass.
  std::vector<Move> path_;
  std::unordered_map<Key, std::vector<Move>> orders_;
  std::unordered_map<Key, Move> pass_best_, best_;
};

}  // namespace xq::aphid
