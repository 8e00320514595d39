#include "board/perft_divide.h"

#include <chrono>

#include "board/movegen.h"

namespace xq {
namespace {

// Below this many plies a subtree is small enough (a few million nodes) to
// count without looking at the stop flag.
constexpr int kCheckDepth = 5;

std::uint64_t counted(Position& pos, int depth, const std::atomic<bool>& stop) {
  if (depth < kCheckDepth) return perft(pos, depth);
  std::uint64_t nodes = 0;
  for (Move m : MoveList(pos)) {
    if (stop.load(std::memory_order_relaxed)) return nodes;
    pos.do_move(m);
    nodes += counted(pos, depth - 1, stop);
    pos.undo_move(m);
  }
  return nodes;
}

}  // namespace

PerftResult perft_divide(Position pos, int depth, const std::atomic<bool>& stop,
                         const std::function<void(const PerftResult&)>& on_root_move) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  PerftResult r;
  r.fen = pos.fen();
  r.depth = depth;
  const MoveList moves(pos);
  r.root_moves = moves.size;
  for (Move m : moves) {
    pos.do_move(m);
    const std::uint64_t n = counted(pos, depth - 1, stop);
    pos.undo_move(m);
    if (stop.load(std::memory_order_relaxed)) {
      r.interrupted = true;
      break;
    }
    r.nodes += n;
    r.divide.emplace_back(m, n);
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (on_root_move) on_root_move(r);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

}  // namespace xq
