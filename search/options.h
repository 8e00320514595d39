// What a search is asked to do: its limits, the algorithm driving it, and the
// switchable features (for ablation and for exact mode, DESIGN.md §4).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "board/types.h"

namespace xq {

struct Limits {
  Depth depth = 0;               // 0 = no depth limit (up to kMaxDepth)
  std::uint64_t nodes = 0;       // 0 = no node limit
  std::int64_t movetime_ms = 0;  // 0 = no time limit; checked in the node counter
  // 0 = none. No new iteration starts once this much time has passed (the
  // time manager's soft limit, search/timeman.h); a running one goes on.
  std::int64_t soft_ms = 0;
};

constexpr Depth kMaxDepth = 64;

enum class Algorithm : std::uint8_t { Pvs, AlphaBeta, Mtdf };

struct Features {
  bool tt = true;          // probe/store the transposition table (cutoffs and move)
  bool ttmove = true;      // search the table's move first
  bool mvvlva = true;      // captures first, most valuable victim / least valuable attacker
  bool killers = true;     // two killer moves per ply
  bool history = true;     // history heuristic, +2^depth per cutoff
  bool null = true;        // null-move pruning
  bool checkext = true;    // extend moves that give check... (in-check nodes) by one ply
  bool qsearch = true;     // quiescence search at the horizon
  bool aspiration = true;  // aspiration windows in iterative deepening

  static Features all() { return Features{}; }
  static Features none();
  // Parses "all", "none" or a comma list of names ("tt,ttmove,mvvlva");
  // throws std::invalid_argument naming the unknown item.
  static Features parse(std::string_view text);
  std::string to_string() const;
};

struct SearchOptions {
  Limits limits;
  Algorithm algorithm = Algorithm::Pvs;
  Features features;
  // Exact mode (DESIGN.md §4): no null move, no aspiration, no table cutoffs
  // (the table still orders moves), no repetition scoring inside the tree, so
  // the root value is the minimax value of the depth-limited tree whatever the
  // backend, scheme or thread count.
  bool exact = false;
  // Caller-owned stop request, alive until the search returns (may be null).
  // Sticky: a search that finds it set when it starts completes no
  // iteration; one set while it runs is honoured within one node batch
  // (Search::kNodeBatch nodes per thread).
  std::atomic<bool>* stop_signal = nullptr;
  // Root moves the search must not play (UCCI "banmoves"); legal moves of
  // the root not listed here remain. Empty: every move.
  std::vector<Move> banned_root_moves;
};

// Parses "pvs", "alphabeta" (or "ab"), "mtdf"; throws std::invalid_argument.
Algorithm parse_algorithm(std::string_view text);
const char* algorithm_name(Algorithm a);

}  // namespace xq
