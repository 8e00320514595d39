// Iterative deepening: depth 1, 2, ... until a limit, with aspiration windows
// around the previous score (PVS and alpha-beta) or MTD(f)'s sequence of
// null-window searches. Reports each completed iteration to an Observer. Used
// as is by the serial backend and run by every thread of a Lazy-SMP backend
// (which skips depths through its hooks), so it takes the Search object as a
// parameter. Every iteration searches the root through Search::root().
#pragma once

#include <algorithm>
#include <vector>

#include "search/result.h"
#include "search/search.h"
#include "search/timeman.h"

namespace xq {

namespace detail {

inline void fill_pv(SearchResult& r, const Worker& w) {
  r.pv.assign(w.pv[0].moves.begin(), w.pv[0].moves.begin() + w.pv[0].size);
  if (!r.pv.empty()) r.best_move = r.pv.front();
}

// One aspiration-window PVS / alpha-beta iteration. The thesis's window:
// +-50, four times wider after each failure, open beyond 1000. With
// Features::aspdelta (the modern profile): +-(asp_delta + asp_thread x
// (thread id mod 4)) -- so that Lazy SMP's threads try different windows --
// half again wider (plus 5) after each failure.
template <class S>
Value aspiration_iteration(S& search, Worker& w, Depth depth, Value prev, bool use_window) {
  const bool narrow = search.features().aspdelta;
  const SearchTuning& t = search.tuning();
  Value delta = narrow ? Value(t.asp_delta + t.asp_thread * (w.id % 4)) : Value(50);
  const auto widen = [&] { delta = narrow ? Value(delta + delta / 2 + 5) : Value(delta * 4); };
  Value alpha = -kInfinite, beta = kInfinite;
  if (use_window) {
    alpha = std::max(prev - delta, -kInfinite);
    beta = std::min(prev + delta, kInfinite);
  }
  while (true) {
    const Value v = search.root(w, alpha, beta, depth);
    if (search.stopped(w)) return v;
    if (v <= alpha && alpha > -kInfinite) {
      widen();
      alpha = delta > 1000 ? -kInfinite : std::max(v - delta, -kInfinite);
    } else if (v >= beta && beta < kInfinite) {
      widen();
      beta = delta > 1000 ? kInfinite : std::min(v + delta, kInfinite);
    } else {
      return v;
    }
  }
}

// MTD(f): null-window searches converging on the minimax value from a guess.
// Root PV comes from the last pass that failed high (the only kind that
// proves a best move); a fail-low-only iteration keeps the table's move.
template <class S>
Value mtdf_iteration(S& search, Worker& w, Depth depth, Value guess, std::vector<Move>& pv) {
  Value g = guess, lower = -kInfinite, upper = kInfinite;
  while (lower < upper) {
    const Value beta = g == lower ? g + 1 : g;
    g = search.root(w, beta - 1, beta, depth);
    if (search.stopped(w)) return g;
    if (g < beta) {
      upper = g;
    } else {
      lower = g;
      pv.assign(w.pv[0].moves.begin(), w.pv[0].moves.begin() + w.pv[0].size);
    }
  }
  return g;
}

// How many legal root moves the search may play (banned ones left out).
inline int allowed_root_moves(const Position& pos, const SearchOptions& opt) {
  const MoveList list(pos);
  int n = 0;
  for (int i = 0; i < list.size; ++i)
    n += std::find(opt.banned_root_moves.begin(), opt.banned_root_moves.end(), list.moves[i]) ==
         opt.banned_root_moves.end();
  return n;
}

}  // namespace detail

// Runs iterative deepening on w.pos.
template <class Table, class Hooks>
SearchResult iterative_deepening(Search<Table, Hooks>& search, Worker& w, SearchShared& shared,
                                 Observer* observer) {
  SearchResult result;
  const SearchOptions& opt = shared.options;
  Depth max_depth = opt.limits.depth > 0 ? std::min(opt.limits.depth, kMaxDepth) : kMaxDepth;
  if constexpr (Hooks::kSkipsDepths)
    if (!search.hooks().bound_by_depth_limit(w)) max_depth = kMaxDepth;
  if (MoveList(w.pos).size == 0) {  // mated or stalemated: nothing to search
    result.score = mated_in(0);
    result.completed = true;
    return result;
  }
  // A stop requested before the search began is not lost.
  if (opt.stop_signal && opt.stop_signal->load(std::memory_order_relaxed))
    shared.stop.store(true, std::memory_order_relaxed);
  Value prev = 0;
  // A clock's budget (soft below hard; a fixed move time has soft == hard and
  // is spent whole) stretched by best-move stability (search/timeman.h).
  const bool scaled = search.features().stability && opt.limits.soft_ms > 0 &&
                      opt.limits.soft_ms < opt.limits.movetime_ms;
  SoftLimitScale scale(scaled && detail::allowed_root_moves(w.pos, opt) == 1);
  for (Depth d = 1; d <= max_depth && !search.stopped(w); ++d) {
    if constexpr (Hooks::kSkipsDepths)
      if (search.hooks().skip_depth(w, d)) continue;
    Value v;
    std::vector<Move> mtdf_pv;
    const Worker* line = &w;  // whose pv[0] holds the iteration's line
    if constexpr (Hooks::kRunsIterations) {
      v = search.hooks().run_iteration(search, w, d, prev, line);
    } else if (opt.algorithm == Algorithm::Mtdf) {
      v = detail::mtdf_iteration(search, w, d, prev, mtdf_pv);
    } else {
      v = detail::aspiration_iteration(search, w, d, prev + search.hooks().window_shift(w),
                                       search.features().aspiration && d >= 4);
    }
    if (search.stopped(w)) break;
    prev = v;
    result.score = v;
    result.depth = d;
    result.completed = true;
    if (!Hooks::kRunsIterations && opt.algorithm == Algorithm::Mtdf) {
      if (!mtdf_pv.empty()) result.pv = mtdf_pv;
      else if (result.pv.empty() || result.pv.front() != w.pv[0].moves[0]) result.pv.clear();
      if (!result.pv.empty()) result.best_move = result.pv.front();
    } else {
      detail::fill_pv(result, *line);
    }
    result.seconds = shared.elapsed_ms() / 1000.0;
    result.stats = w.stats;
    search.hooks().add_helper_stats(result.stats);
    result.hashfull = search.hashfull();
    if (observer) observer->on_iteration(result);
    if (is_mate_score(v) && opt.limits.depth == 0 && d >= kMate - std::abs(v)) break;
    // Soft limit: the next iteration would likely not finish before the hard one.
    double soft = double(opt.limits.soft_ms);
    if (scaled) {
      scale.update(result.best_move, v);
      soft *= scale.factor();
    }
    if (opt.limits.soft_ms && shared.elapsed_ms() >= soft) break;
  }
  result.stopped = shared.stopped();
  if (!result.best_move) result.best_move = MoveList(w.pos).moves[0];
  result.seconds = shared.elapsed_ms() / 1000.0;
  result.stats = w.stats;
  return result;
}

}  // namespace xq
