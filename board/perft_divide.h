// Perft that reports each root move as it finishes and can be interrupted:
// deep counts from a full board take minutes, so the caller sees progress and
// can stop (a flag set from a signal handler or another thread).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "board/position.h"

namespace xq {

struct PerftResult {
  std::string fen;
  int depth = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::vector<std::pair<Move, std::uint64_t>> divide;  // root moves finished, in order
  int root_moves = 0;
  bool interrupted = false;
  double nps() const { return seconds > 0 ? double(nodes) / seconds : 0.0; }
};

// Counts legal move paths of `depth` plies from `pos` one root move at a time,
// calling `on_root_move` after each; returns early with `interrupted` set once
// `stop` is true (checked between subtrees of at least 5 plies).
PerftResult perft_divide(Position pos, int depth, const std::atomic<bool>& stop,
                         const std::function<void(const PerftResult&)>& on_root_move);

}  // namespace xq
