// `xqlab evolve`: the seed thesis's parallel adaptive genetic algorithm,
// tuning the engine's parameters by games between the individuals.
//
//  * Coding: each tuned parameter is a binary number of its own width over a
//    window around its default (the window's half-width: `spread` of the
//    parameter's range, at least 1, clipped to the range); an individual is
//    the concatenation. Generation 0 is the defaults (coded as closely as
//    the window allows) and random individuals.
//  * Fitness: each generation plays `rounds` rounds; a round pairs the
//    population at random and each pair plays two games from one opening,
//    colours reversed. Fitness = points / games. The default, 6 rounds (12
//    games an individual), comes from a measurement: at one budget of 2,016
//    games, 2 rounds gave a result 27 Elo below the defaults, 6 rounds one
//    26 Elo above (docs/journal/2026-11-27-tuning.md).
//  * Selection: two-stage tournament. We read the thesis's "two-stage" as
//    two binary tournaments whose winners meet in a second one: the parent
//    is the fittest of four drawn at random, the bracket breaking ties at
//    random.
//  * Crossover (two-point) with probability Pc and bit mutation with
//    probability Pm, adaptive by the Srinivas-Patnaik rule bounded to
//    Pc in [0.6, 0.9], Pm in [0.001, 0.1]: an above-average pair or
//    individual gets less (the fittest Pc = 0.6, Pm = 0.001), an average or
//    worse one the most (f' the fitter parent's fitness, f the individual's):
//      Pc = Pc_max - (Pc_max - Pc_min) (f' - f_avg) / (f_max - f_avg), f' >= f_avg
//      Pm = Pm_max - (Pm_max - Pm_min) (f - f_avg) / (f_max - f_avg), f >= f_avg
//    (a child's f is its parent's). The fittest individual passes unchanged
//    (elitism).
//  * Parallel: the games of a generation, `threads` pairs at a time.
//  * Checkpoint: after every generation, the population and the history are
//    written atomically; `resume` continues from the last one and ends with
//    what an uninterrupted run of the same seed ends with (at a fixed depth).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/games/tuning.h"

namespace xq::lab::games {

struct EvolveConfig {
  TuningSetup setup;
  int population = 8;   // even, >= 4
  int generations = 4;  // to run in all (a resumed run may raise it)
  int rounds = 6;       // rounds of pairs per generation (12 games an individual)
  double spread = 0.1;  // the coding window's half-width, fraction of a parameter's range
  std::uint64_t seed = 1;
  double pc_min = 0.6, pc_max = 0.9, pm_min = 0.001, pm_max = 0.1;
};

// One parameter's binary coding: value = lo + round(code (hi - lo) / (2^bits - 1)).
struct GeneCoding {
  int lo = 0, hi = 0, bits = 0;
};
std::vector<GeneCoding> gene_codings(const EvolveConfig& c);
std::vector<int> decode(const std::vector<GeneCoding>& g, const std::string& bits);
// The code whose value is nearest to each value.
std::string encode(const std::vector<GeneCoding>& g, const std::vector<int>& values);

// The adaptive probabilities (the rule above).
double adaptive_pc(const EvolveConfig& c, double f_parent, double f_avg, double f_max);
double adaptive_pm(const EvolveConfig& c, double f, double f_avg, double f_max);

struct GenerationRecord {
  int generation = 0;
  std::vector<double> fitness;     // per individual
  std::vector<std::string> population;
  int best = 0;                    // index of the fittest
  std::vector<int> best_values;
  double mean = 0, pc_mean = 0, pm_mean = 0;
  int games = 0, forfeits = 0;
  double seconds = 0, cpu_seconds = 0;
};

struct EvolveState {
  int generation = 0;                   // generations done
  std::vector<std::string> population;  // the next generation's individuals
  std::vector<GenerationRecord> history;
  bool interrupted = false;
};

// The state a run starts from: generation 0 of a fresh run.
EvolveState first_generation(const EvolveConfig& c);

// Runs generations until c.generations are done or `stop` is set (then the
// generation in progress is dropped and state.interrupted is set). After
// each generation: `progress` gets a line, `checkpoint` the new state.
EvolveState evolve(const EvolveConfig& c, EvolveState state,
                   const std::function<void(const std::string&)>& progress,
                   const std::function<void(const EvolveState&)>& checkpoint,
                   const std::atomic<bool>* stop);

// The checkpoint document, and back. state_from_json throws
// std::invalid_argument (one line) when the document is not an evolve
// checkpoint of this configuration (its setup, population size, rounds,
// spread, seed or probabilities differ).
Json evolve_json(const EvolveConfig& c, const EvolveState& s);
EvolveState state_from_json(const EvolveConfig& c, const Json& j);

}  // namespace xq::lab::games
