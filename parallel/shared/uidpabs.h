// UIDPABS's choice of result (parallel/shared/uidpabs.cpp), as a plain
// function so that tests can check it without a search.
#pragma once

#include <vector>

#include "board/types.h"

namespace xq::uidpabs {

// A completed iteration of one thread's share of the root moves.
struct Report {
  Depth depth = 0;  // 0: none
  Value score = 0;
  std::vector<Move> pv;
};

// What a thread has reported: its last exact iteration, and the depth of
// its last completed iteration, exact or failed low.
struct Share {
  Report last_exact;
  Depth last_depth = 0;
};

// The share whose report is the result, or -1 when none has an exact one.
// With depth > 0 (every share has completed that depth): the highest exact
// score at that depth, ties to the lower thread. With depth 0 (a stop or a
// time limit), Newborn's rule over each share's last completed iteration: a
// share whose last iteration failed low has proved its moves worse than the
// window, so its older exact report does not compete; the highest score of
// the shares whose last iteration was exact wins (ties to the deeper, then
// the lower thread). Should every share's last iteration have failed low,
// the deepest exact report wins (ties to the higher score).
int choose(const std::vector<Share>& shares, Depth depth);

}  // namespace xq::uidpabs
