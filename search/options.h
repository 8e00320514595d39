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

// The switchable parts of the search. The first nine are the 2012 thesis's
// engine (the `thesis` profile, the default, Features{}); the rest are the
// selective search of today's engines (the `modern` profile adds them all).
// Exact mode (SearchOptions::exact) turns every pruning, reduction and
// extension of either set off (Search::effective_features).
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
  // The modern profile's features (off in Features{}).
  bool lmr = false;         // late-move reductions: log x log table, history term, re-search
  bool histgravity = false;  // bounded history: depth^2 bonus, malus for the quiets before a cutoff
  bool rfp = false;         // reverse futility: static value far above beta at low depth
  bool razor = false;       // razoring: static value far below alpha drops into quiescence
  bool lmp = false;         // move-count pruning of late quiet moves at low depth
  bool futility = false;    // futility pruning of quiet moves at low depth
  bool see = false;         // SEE pruning of losing captures and quiet moves (and in quiescence)
  bool nullplus = false;    // null move: adaptive R, verification, major-material guard
  bool iir = false;         // internal iterative reduction of nodes without a table move
  bool probcut = false;     // ProbCut: a capture that beats beta by a margin at reduced depth
  bool singular = false;    // singular extension (and multi-cut), guarded against shuffling
  bool aspdelta = false;    // narrow aspiration windows, per-thread width, gradual widening
  bool knowledge = false;   // Xiangqi knowledge in the evaluation (board/eval.h knowledge_red)
  bool stability = false;   // a clock's soft limit scaled by best-move stability (search/timeman.h)

  // The thesis's engine: the first nine features.
  static Features thesis() { return Features{}; }
  // The thesis's features and every modern one.
  static Features modern();
  static Features all() { return modern(); }
  static Features none();
  // Parses a list of feature names and sets (all, none, thesis, modern),
  // separated by ',' or '+', each adding its features; '-' before a name or
  // set removes it instead, left to right: "tt,ttmove,mvvlva", "thesis+lmr",
  // "modern-lmr" (the ablation's row names). Throws std::invalid_argument
  // naming the unknown or empty item.
  static Features parse(std::string_view text);
  std::string to_string() const;
  // Whether any feature that prunes, reduces or extends beyond the thesis's
  // null move and check extension is on.
  bool selective() const {
    return lmr || rfp || razor || lmp || futility || see || nullplus || iir || probcut || singular;
  }
};

// Every feature name, thesis's first, in the order to_string() lists them.
std::string feature_names();

// The constants of the modern features, in the evaluation's units (a pawn
// is 30, a rook 600; a chess pawn's worth, the unit other engines state
// their margins in, is about 120 here). Defaults: docs/DESIGN-NOTES.md
// "The modern search profile". Named so that a tuner can set them.
struct SearchTuning {
  int lmr_base = 50;          // reduction = (lmr_base + log d * log n * lmr_scale) / 100
  int lmr_scale = 52;         //   (percent of a ply)
  int lmr_history = 6000;     // history points (histgravity's +-16384) per ply of reduction
  int rfp_depth = 7;          // reverse futility up to this depth
  int rfp_margin = 90;        // per ply (less one ply when the static value improves)
  int razor_depth = 2;        // razoring up to this depth
  int razor_margin = 240;     // + razor_per_depth x depth
  int razor_per_depth = 180;
  int lmp_depth = 8;          // move-count pruning up to this depth
  int lmp_base = 3;           // quiet moves allowed: (lmp_base + d^2) / (2 - improving)
  int futility_depth = 6;     // quiet-move futility up to this (reduced) depth
  int futility_base = 120;    // + futility_per_depth x depth
  int futility_per_depth = 90;
  int see_capture = 110;      // captures below -see_capture x depth are pruned (depth <= 6)
  int see_quiet = 20;         // quiets below -see_quiet x d^2 are pruned (reduced depth <= 8)
  int null_base = 3;          // R = null_base + depth / null_depth_div + min((v - beta) / null_eval_div, 3)
  int null_depth_div = 4;
  int null_eval_div = 150;
  int null_verify_depth = 10; // verify null-move cutoffs from this depth (and with < 3 attackers)
  int iir_depth = 4;          // nodes without a table move from this depth search one ply less
  int probcut_depth = 5;      // ProbCut from this depth,
  int probcut_margin = 150;   //   at beta + this margin
  int singular_depth = 8;     // singular extension from this depth,
  int singular_margin = 2;    //   margin per ply below the table's value
  int asp_delta = 20;         // aspdelta: first half-width, + asp_thread x (thread id mod 4)
  int asp_thread = 8;
  bool operator==(const SearchTuning&) const = default;
};

struct SearchOptions {
  Limits limits;
  Algorithm algorithm = Algorithm::Pvs;
  Features features;
  SearchTuning tuning;
  // Exact mode (DESIGN.md §4): no null move, no aspiration, no table cutoffs
  // (the table still orders moves), no repetition scoring inside the tree, the
  // thesis's evaluation (no `knowledge`), so the root value is the minimax
  // value of the depth-limited tree whatever the backend, scheme, thread
  // count or profile.
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

// A search profile: a named feature set (`--profile`). "thesis" (the
// default) or "modern"; throws std::invalid_argument naming the known ones.
Features profile_features(std::string_view name);
// The profile whose feature set f is, or "custom".
std::string profile_name(const Features& f);

// Parses "pvs", "alphabeta" (or "ab"), "mtdf"; throws std::invalid_argument.
Algorithm parse_algorithm(std::string_view text);
const char* algorithm_name(Algorithm a);

}  // namespace xq
