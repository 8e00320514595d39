// What a search reports: best move, score, principal variation, depth reached,
// and statistics summed over every thread that took part.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "board/types.h"

namespace xq {

struct SearchStats {
  std::uint64_t nodes = 0;          // all nodes, quiescence included
  std::uint64_t qnodes = 0;         // quiescence nodes
  std::uint64_t tt_probes = 0;
  std::uint64_t tt_hits = 0;
  std::uint64_t tt_cutoffs = 0;
  std::uint64_t tt_torn = 0;        // torn entries the table's check rejected
  std::uint64_t bad_tt_moves = 0;   // table moves that failed validation
  std::uint64_t fail_highs = 0;     // beta cutoffs
  std::uint64_t fail_high_first = 0;  // ... on the first move searched
  std::uint64_t null_tries = 0;
  std::uint64_t null_cutoffs = 0;
  // Parallel machinery (zero for the serial backend).
  std::uint64_t splits = 0;
  std::uint64_t joins = 0;          // helpers that joined a split point
  std::uint64_t aborts = 0;         // split points stopped by a cutoff
  double idle_seconds = 0;          // time helpers spent waiting for work
  // How deep the split machinery reached (split-point backends).
  std::uint64_t nested_joins = 0;   // joins of a split point made inside another
  std::uint64_t master_joins = 0;   // joins by an owner waiting for its helpers

  SearchStats& operator+=(const SearchStats& o);
  double first_move_cutoff_rate() const {
    return fail_highs ? double(fail_high_first) / double(fail_highs) : 0.0;
  }
};

struct SearchResult {
  Move best_move;
  Value score = 0;
  Depth depth = 0;              // last fully completed iteration
  std::vector<Move> pv;
  SearchStats stats;
  double seconds = 0;
  bool stopped = false;         // a limit or stop request ended the search early
  // Moves to mate as UCI's "score mate N": positive when the side to move
  // mates, negative when it is mated; empty when no mate is proven.
  std::optional<int> mate() const;
  double nps() const { return seconds > 0 ? double(stats.nodes) / seconds : 0.0; }
};

// Called after every completed iteration of iterative deepening.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_iteration(const SearchResult&) {}
};

}  // namespace xq
