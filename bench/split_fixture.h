// Shared pieces of the split benchmarks (bench_split*.cpp): a child search
// that costs one make/unmake pair, the split context they split, and the
// timed pass over the opening suite.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

#include "lab/common/suite.h"
#include "parallel/backend.h"
#include "search/hooks.h"
#include "search/movepick.h"

namespace xq::bench {

inline Value make_unmake(const void*, Worker& w, Move m, int, Value, const SplitContext&) {
  w.pos.do_move(m);
  const Value v = Value(w.pos.key() & 7);
  w.pos.undo_move(m);
  return -v;
}

// A split at depth 8 in the window (-100, 100) after the first move was searched.
inline SplitContext split_context(MovePicker& picker) {
  SplitContext ctx;
  ctx.depth = 8;
  ctx.alpha = -100;
  ctx.beta = 100;
  ctx.best_value = -kInfinite;
  ctx.picker = &picker;
  ctx.moves_searched = 1;
  return ctx;
}

inline std::vector<Position> opening_suite() {
  std::vector<Position> out;
  for (const lab::common::SuiteEntry& e : lab::common::load_suite(lab::common::default_suite_path()))
    out.push_back(e.pos);
  return out;
}

// Every iteration searches each suite position from a cleared table to depth
// $XQLAB_SPLIT_DEPTH (default 7); manual time is the summed search time.
// Returns the statistics summed over all iterations.
inline SearchStats search_suite(benchmark::State& state, Backend& b,
                                const std::vector<Position>& suite) {
  SearchOptions o;
  const char* d = std::getenv("XQLAB_SPLIT_DEPTH");
  o.limits.depth = d ? std::atoi(d) : 7;
  Observer quiet;
  SearchStats sum;
  for (auto _ : state) {
    double seconds = 0;
    for (const Position& p : suite) {
      b.clear();
      const SearchResult r = b.search(p, o, quiet);
      seconds += r.seconds;
      sum += r.stats;
    }
    state.SetIterationTime(seconds);
  }
  return sum;
}

}  // namespace xq::bench
