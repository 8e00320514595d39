// What the two tuners (evolve: the thesis's adaptive genetic algorithm;
// spsa: SPSA as fishtest runs it) share: the tuned parameters and how a
// vector of their values becomes an engine, games played in parallel (OpenMP
// over the games; each engine at one thread; each thread keeps its two
// engines and sets every game's vectors by options), and the checkpoint
// file a long run is resumed from.
//
// A vector holds one value per tuned parameter, in the order of
// TuningSetup::params. The engines are `xqlab` at one thread with the
// setup's profile; an engine with evaluation weights plays in its own child
// process (lab/games/player.h). At a fixed depth (--depth) a game's result
// depends only on the two vectors and the opening, so a run is reproducible
// from its seed whatever the number of parallel games; with a clock it is not.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/common/suite.h"
#include "lab/games/game.h"
#include "search/tunables.h"

namespace xq::lab::games {

struct TuningSetup {
  std::vector<const TunableParam*> params;  // the tuned parameters, tunable_params() order
  std::string profile = "thesis";
  TimeControl tc;
  Adjudication adjudication;
  std::vector<common::SuiteEntry> openings;
  std::string openings_path;
  int threads = 1;  // games played at once
};

// "eval", "knowledge", "search", "all" or a comma list of names -> the parameters, in
// tunable_params() order. Throws std::invalid_argument (one line).
std::vector<const TunableParam*> parse_tuned_params(const std::string& text);

// The vector of the defaults, and the full set of parameters a vector means
// (the untuned ones at their defaults).
std::vector<int> default_values(const TuningSetup& s);
Tunables tunables_of(const TuningSetup& s, const std::vector<int>& values);
// "value_rook=650,..." of a vector (every tuned parameter).
std::string values_text(const TuningSetup& s, const std::vector<int>& values);
// The match spec of an engine with these values (lab/games/player.h).
std::string engine_spec(const TuningSetup& s, const std::vector<int>& values,
                        const std::string& name);

// One pair of games: a with red then b with red, from the same opening.
struct PairJob {
  std::vector<int> a, b;
  std::size_t opening = 0;
};
struct PairOutcome {
  double a_points = 0;  // 0, 0.5, ..., 2
  int forfeits = 0;     // games lost by a crash, hang, illegal move or time
};

// Plays every job's two games, `s.threads` games at a time. Returns nullopt when `stop`
// (may be null) was set before every pair finished. Throws
// std::runtime_error when an engine cannot be started.
std::optional<std::vector<PairOutcome>> play_pairs(const TuningSetup& s,
                                                   const std::vector<PairJob>& jobs,
                                                   const std::atomic<bool>* stop);

// The random numbers of step `step` (a generation, an iteration) of a run:
// they depend on the seed and the step only, so a resumed run draws what an
// uninterrupted one drew.
std::mt19937_64 step_rng(std::uint64_t seed, std::int64_t step);

// User + system CPU seconds of this process and of its children that have
// ended (the child-process engines a pair started).
double cpu_seconds_used();

// The setup as a checkpoint records it (a resumed run must match it).
Json setup_json(const TuningSetup& s);

// Reads a checkpoint's JSON, or returns null JSON when the file does not
// exist. Throws std::invalid_argument naming the file when it is not JSON.
Json read_checkpoint(const std::string& path);

// Reads a state out of a checkpoint document `j` of `kind` written for
// `config`: `read()` does the fields; a missing field, a wrong type, another
// kind or another configuration is one std::invalid_argument "checkpoint: ...".
template <class Read>
auto read_state(const Json& j, const std::string& kind, const Json& config, const Read& read)
    -> decltype(read()) {
  try {
    if (j.at("kind") != kind) throw std::invalid_argument("not a checkpoint of " + kind);
    if (j.at("config") != config)
      throw std::invalid_argument("it was written for another configuration (" +
                                  j.at("config").dump() + ")");
    return read();
  } catch (const Json::exception& e) {
    throw std::invalid_argument(std::string("checkpoint: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("checkpoint: ") + e.what());
  }
}

}  // namespace xq::lab::games
