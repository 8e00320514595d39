// Shared pieces of the split micro-benchmarks (bench_split*.cpp): a child
// search that costs one make/unmake pair, and the split context they split.
#pragma once

#include "search/hooks.h"
#include "search/movepick.h"

namespace xq::bench {

inline Value make_unmake(const void*, Worker& w, Move m, Value, const SplitContext&) {
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

}  // namespace xq::bench
