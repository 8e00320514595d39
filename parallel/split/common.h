// The pieces every split-point backend (pvsplit, ybwc, dts) shares: how a waiting
// thread spins, how the node's child search travels through a split point
// (type-erased once per split point), the walk up a chain of split points
// that tells whether a cutoff above made its work useless, the owner's
// move-ordering snapshot a helper starts from, and the node's running result
// at a split point with its merge back into the node.
#pragma once

#include <chrono>
#include <mutex>
#include <thread>
#include <type_traits>

#include "board/position.h"
#include "hashing/cpu_relax.h"
#include "parallel/sim/machine.h"
#include "parallel/split/timing.h"
#include "search/hooks.h"
#include "search/worker.h"

namespace xq::split {

using split_timing::Clock;

using xq::cpu_relax;

// Spin briefly, then give the core away, and sleep only once that has gone
// on for a while (about a millisecond when the core is otherwise free): at 2
// threads on 2 cores a helper's idle gaps are short and sleeping through them
// costs nodes, while at thread counts above the core count (or beside other
// work) a waiter that keeps yielding takes CPU from the threads that hold the
// work it waits for.
// On a simulated machine the thread waits in virtual time instead
// (parallel/sim/machine.h: with time slicing, in the same three phases).
inline void back_off(int& spins) {
  if (sim::idle_wait(spins, false)) return;  // its naps end on their timer
  if (spins < sim::kIdleSpins) {
    cpu_relax();
  } else if (spins < sim::kIdleYields) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// The node's child search (the lambda the node passes to split()), type-erased
// once per split point: one indirect call per move searched at a split point.
// `ordinal`: the picker's ordinal() when it handed the move out.
using SearchMoveFn = Value (*)(const void* closure, Worker&, Move, int ordinal, Value alpha,
                               const SplitContext&);

// The erased form of the node's SearchMove lambda type.
template <class SearchMove>
SearchMoveFn erase() {
  using Fn = std::remove_reference_t<SearchMove>;
  return [](const void* c, Worker& w, Move m, int ordinal, Value a, const SplitContext& sc) {
    return (*static_cast<const Fn*>(c))(w, m, ordinal, a, sc);
  };
}

// A cutoff at sp or above it: its moves are worth nothing any more. A thread
// joining such a split point would leave at once and, while the owner
// unwinds, join it again and again. SP has `parent` and an atomic `cutoff`.
template <class SP>
bool cut_off(const SP& sp) {
  for (const SP* p = &sp; p; p = p->parent)
    if (p->cutoff.load(std::memory_order_relaxed)) return true;
  return false;
}

template <class SP>
bool descends_from(const SP& sp, const SP* ancestor) {
  for (const SP* p = sp.parent; p; p = p->parent)
    if (p == ancestor) return true;
  return false;
}

// The owner's move-ordering knowledge when it split, copied by each joining
// thread: a helper that orders younger brothers with its own (emptier)
// history and killers searches measurably more nodes than the owner would.
// A snapshot, because the owner keeps updating its own tables meanwhile.
struct Snapshot {
  Position pos;
  History history{};
  Killers killers{};

  // Position::copy_from copies the live part of the position only (the
  // state stack up to the current ply), as every split backend must.
  void take(const Worker& w) {
    sim::charge(sim::Cost::Publish);
    pos.copy_from(w.pos);
    w.save_history(history);
    w.save_killers(killers);
  }
  // A free helper takes everything; an owner helping below its own split
  // point keeps its own tables (with_heuristics = false).
  void give(Worker& w, bool with_heuristics) const {
    sim::charge(sim::Cost::Join);
    w.pos.copy_from(pos);
    if (!with_heuristics) return;
    w.load_history(history);
    w.load_killers(killers);
  }
};

// The node's running result at a split point, guarded by the split point's
// lock.
struct Outcome {
  Value alpha = 0;
  Value best = 0;
  Move best_move;
  int moves_searched = 0;
  // The line of the move that last raised alpha, as the thread that searched
  // it saw it (valid when has_pv): the owner's PV continues with it.
  bool has_pv = false;
  PvLine pv;

  void start(const SplitContext& ctx) {
    alpha = ctx.alpha;
    best = ctx.best_value;
    best_move = ctx.best_move;
    moves_searched = ctx.moves_searched;
    has_pv = false;
  }
  // Records the value v of move m searched by a thread whose line below it
  // is `below`; true when it is a beta cutoff.
  bool record(Move m, Value v, const PvLine& below, Value beta) {
    ++moves_searched;
    if (v <= best) return false;
    best = v;
    best_move = m;
    if (v <= alpha) return false;
    alpha = v;
    set_line(pv, m, below);
    has_pv = true;
    return v >= beta;
  }
  // Hands the result back to the node once no other thread touches it.
  void finish(SplitContext& ctx, Worker& owner) const {
    ctx.alpha = alpha;
    ctx.best_value = best;
    ctx.best_move = best_move;
    ctx.moves_searched = moves_searched;
    ctx.cutoff = best >= ctx.beta;
    if (has_pv) owner.pv[std::size_t(ctx.ply)] = pv;
  }
};

}  // namespace xq::split
