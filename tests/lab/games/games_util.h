// What the games tests share: a fast time control for games between script
// engines (20 ms a move, a margin and grace that a loaded machine keeps).
#pragma once

#include "lab/games/game.h"

namespace xq::lab::games::test_util {

inline TimeControl fast() {
  TimeControl tc;
  tc.movetime_ms = 20;
  tc.margin_ms = 200;
  tc.grace_ms = 300;
  return tc;
}

}  // namespace xq::lab::games::test_util
