// The options `xqlab evolve` and `xqlab spsa` share: what is tuned, the
// games that measure it, the parallel games, the seed, and the checkpoint a
// run resumes from (lab/games/tuning.h).
#pragma once

#include <cstdint>
#include <atomic>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/options.h"
#include "lab/games/tuning.h"

namespace xq::cli {

struct TuningArgs {
  std::string params = "eval", profile = "thesis", tc;
  BookArgs book;
  std::int64_t movetime = 0;
  int depth = 0, threads = 1;
  std::uint64_t nodes = 0;
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
[[noreturn]] void throw_usage(const std::string& message);

// The state a run starts from: the checkpoint's with --resume (read by
// `from_json`), else `fresh()`; the files are checked first, and a
// checkpoint of another configuration is a usage error.
template <class Fresh, class FromJson>
auto starting_state(const TuningArgs& a, const Fresh& fresh, const FromJson& from_json)
    -> decltype(fresh()) {
  const Json saved = lab::games::read_checkpoint(a.checkpoint);
  check_tuning_files(a, !saved.is_null());
  try {
    return saved.is_null() ? fresh() : from_json(saved);
  } catch (const std::invalid_argument& e) {
    throw_usage(a.checkpoint + ": " + e.what());
  }
}

// Runs a tuner until it ends or SIGINT: `run(progress, checkpoint, stop)`
// with progress lines to stderr after "NAME: " and checkpoint documents
// written atomically to --checkpoint. Returns whether SIGINT came.
bool run_tuner(const TuningArgs& a, const std::string& name,
               const std::function<void(const std::function<void(const std::string&)>& progress,
                                        const std::function<void(const Json&)>& checkpoint,
                                        const std::atomic<bool>* stop)>& run);

// Writes the tuned vector as a parameters file (every parameter).
void save_tuned(const TuningArgs& a, const lab::games::TuningSetup& s,
                const std::vector<int>& values, const std::string& header);

}  // namespace xq::cli
