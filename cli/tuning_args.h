// The options `xqlab evolve` and `xqlab spsa` share: what is tuned, the
// games that measure it, the parallel games, the seed, and the checkpoint a
// run resumes from (lab/games/tuning.h).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "lab/games/tuning.h"

namespace xq::cli {

struct TuningArgs {
  std::string params = "eval", profile = "thesis", tc, openings;
  std::int64_t movetime = 0;
  int depth = 0, threads = 1;
  std::uint64_t seed = 1;
  std::string checkpoint, save;
  bool resume = false, json = false;
};

void add_tuning_options(CLI::App* app, TuningArgs& a, const std::string& checkpoint_default);
// Throws UsageError (or std::invalid_argument from a suite) on bad input.
lab::games::TuningSetup tuning_setup(const TuningArgs& a);
// Before any game: --resume needs the checkpoint, a fresh run must not
// overwrite one, and the output files must be writable.
void check_tuning_files(const TuningArgs& a, bool checkpoint_exists);
// Writes the tuned vector as a parameters file (every parameter).
void save_tuned(const TuningArgs& a, const lab::games::TuningSetup& s,
                const std::vector<int>& values, const std::string& header);

}  // namespace xq::cli
