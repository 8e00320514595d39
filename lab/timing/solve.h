// Time to solution, the measure of a test suite (the seed thesis's survey
// reports UIDPABS by it; Newborn measured it so): each configuration
// searches every position of a suite that names its solution move for a
// fixed time, and the time to solution is the moment from which its best
// move was the solution and stayed so to the end of the search (from the
// iteration reports, and the final move); a search that ends on another
// move did not solve the position. Unlike time to depth it counts what a
// root-level backend's widening finds (a share of the root moves searched
// deeper than the rest) and no depth at all, so backends that do not reach
// depths in step compare fairly. The same interleaving as the lab (every
// configuration searches a position before any searches the next, the order
// reversed at every other position), a fresh backend and table per search.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "board/position.h"
#include "lab/timing/runner.h"
#include "lab/timing/simulation.h"
#include "search/options.h"

namespace xq::lab::timing {

// A position with its solution move (the suite's `solution` column, ICCS)
// and, when the suite has a `mate` column, the mate's length in moves.
struct SolveEntry {
  std::string name;
  Position pos;
  Move solution;
  int mate = 0;
};

// The positions of a suite with a `solution` column. Throws
// std::invalid_argument naming the file and line for a suite without that
// column, a solution that is not a legal move of its position, or a bad
// mate length (and whatever load_suite refuses).
std::vector<SolveEntry> load_solve_suite(const std::string& path);

// One best-move report of a search: when (seconds from its start) and what.
struct MoveReport {
  double seconds = 0;
  Move move;
};

// The time from which the best move was `solution` to the end: the first
// report of the last unbroken run of reports naming it, when the final move
// is the solution (reports after the last one do not exist: `final_move`
// is what the search returned, at `end` seconds). Nothing when the final
// move is another.
std::optional<double> time_to_solution(const std::vector<MoveReport>& reports, Move final_move,
                                       double end, Move solution);

struct SolveSettings {
  std::vector<LabConfig> configs;  // references (serial, 1 thread) first
  BackendConfig base;
  int movetime_ms = 2000;
  int runs = 3;
  Features features = Features::thesis();
  // Set: every search runs on a simulated machine (lab/timing/simulation.h);
  // its time limit, its reports' times and the time to solution are virtual
  // (run k: seed + k - 1, as in the lab).
  std::optional<SimSettings> sim;
};

struct SolveRun {
  int config = 0, run = 0, position = 0;
  bool solved = false;
  double seconds = 0;   // time to solution; the time limit when not solved
  double searched = 0;  // the whole search's wall time (virtual when simulated)
  Depth depth = 0;      // last completed iteration
  std::uint64_t nodes = 0;
  Move best_move;
};

// Every search in run order (run, position, configuration as interleaved);
// `on_search` after each. `stop` (may be null) ends the run between searches
// and abandons the one in flight.
std::vector<SolveRun> run_solve(const SolveSettings& s, const std::vector<SolveEntry>& suite,
                                const std::function<void(const SolveRun&)>& on_search = {},
                                std::atomic<bool>* stop = nullptr);

// Per configuration, over every run: how many searches solved their
// position, the median and the mean time of those that did, and the summed
// time with an unsolved search counted at the time limit (a penalty that
// ranks a configuration that solves more above one that is fast on fewer);
// `speedup` = the reference's penalised sum / this one's (its serial
// reference at one thread, 0 when none), and `paired` the median over
// positions solved by both in every run of reference time / time.
struct SolveSummary {
  int config = 0;
  int searches = 0, solved = 0;
  double median_seconds = 0, mean_seconds = 0, penalised_seconds = 0;
  double speedup = 0, paired = 0;
  int paired_positions = 0;
};
std::vector<SolveSummary> summarize_solve(const SolveSettings& s,
                                          const std::vector<SolveRun>& runs);

}  // namespace xq::lab::timing
