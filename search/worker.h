// Per-thread search state: the thread's own position, killer and history
// tables, PV stack and counters. One Worker per thread, aligned to cache
// lines so no two threads' hot data share a line (the seed thesis pads its
// per-thread history and killer tables against false sharing the same way).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "board/position.h"
#include "board/types.h"
#include "search/result.h"

namespace xq {

struct PvLine {
  std::array<Move, kMaxPly + 1> moves{};
  int size = 0;
};

// out = m followed by the line below it.
inline void set_line(PvLine& out, Move m, const PvLine& below) {
  out.moves[0] = m;
  const int n = std::min(below.size, kMaxPly - 1);
  for (int i = 0; i < n; ++i) out.moves[std::size_t(i) + 1] = below.moves[std::size_t(i)];
  out.size = n + 1;
}

using Killers = std::array<std::array<Move, 2>, kMaxPly + 2>;
using History = std::array<std::array<int, kSquares>, kSquares>;

struct alignas(64) Worker {
  explicit Worker(int thread_id = 0) : id(thread_id) {}

  void clear_heuristics() {
    for (auto& k : killers) k = {Move::none(), Move::none()};
    for (auto& row : history) row.fill(0);
  }
  void add_killer(int ply, Move m) {
    if (killers[ply][0] == m) return;
    killers[ply][1] = killers[ply][0];
    killers[ply][0] = m;
  }
  // The modern profile's history (Features::histgravity): a bonus (or,
  // negative, a malus) that shrinks as the entry nears +-kHistoryBound, so
  // entries stay bounded without a global halving.
  static constexpr int kHistoryBound = 16384;
  void add_history_gravity(Move m, int bonus) {
    int& h = history[index(m.from())][index(m.to())];
    h += bonus - h * (bonus < 0 ? -bonus : bonus) / kHistoryBound;
  }
  // History heuristic: +2^depth for a quiet move that caused a cutoff (the
  // thesis's increment); halved everywhere when an entry grows too large.
  void add_history(Move m, Depth depth) {
    int& h = history[index(m.from())][index(m.to())];
    h += 1 << std::min(depth, 20);
    if (h > (1 << 28))
      for (auto& row : history)
        for (int& v : row) v /= 2;
  }

  int id = 0;
  Position pos;
  Killers killers{};
  History history{};
  std::array<PvLine, kMaxPly + 2> pv{};
  SearchStats stats;
  std::uint64_t next_time_check = 0;  // node count at which to check the limits
  std::uint64_t flushed_nodes = 0;    // nodes already added to SearchShared::nodes
  // Nodes and quiescence nodes already charged to a simulated machine's
  // clock (search/virtual_time.h).
  std::uint64_t sim_nodes = 0, sim_qnodes = 0;
  // Per ply, for the modern profile (after the thesis's fields, whose layout
  // it leaves as it was): the static value of the node (-kInfinite in
  // check), and the move a singular-extension search leaves out.
  std::array<Value, kMaxPly + 2> static_eval{};
  std::array<Move, kMaxPly + 2> excluded{};
};

}  // namespace xq
