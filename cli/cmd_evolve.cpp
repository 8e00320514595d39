// xqlab evolve: the seed thesis's parallel adaptive genetic algorithm over
// the engine's tunable parameters (lab/games/evolve.h). One progress line
// per generation on stderr; the checkpoint after every generation; a summary
// on stdout (text, or one JSON object with --json); the fittest vector of
// the last generation saved with --save.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/match_run.h"
#include "cli/options.h"
#include "cli/tuning_args.h"
#include "cli/usage_error.h"
#include "lab/common/files.h"
#include "lab/common/meta.h"
#include "lab/games/evolve.h"

namespace xq::cli {
namespace {

struct EvolveArgs {
  TuningArgs tuning;
  lab::games::EvolveConfig config;
};

void print_text(const lab::games::EvolveConfig& c, const lab::games::EvolveState& s) {
  std::printf("evolve: %zu parameters, population %d, %d generations done, games %s\n",
              c.setup.params.size(), c.population, s.generation, c.setup.tc.text().c_str());
  std::printf("%-10s %8s %8s %6s %6s %7s %9s\n", "generation", "best", "mean", "Pc", "Pm", "games",
              "seconds");
  for (const lab::games::GenerationRecord& r : s.history)
    std::printf("%-10d %8.3f %8.3f %6.2f %6.3f %7d %9.1f\n", r.generation + 1,
                r.fitness[std::size_t(r.best)], r.mean, r.pc_mean, r.pm_mean, r.games, r.seconds);
  if (!s.history.empty())
    std::printf("fittest of the last generation: %s\n",
                values_text(c.setup, s.history.back().best_values).c_str());
}

int run(EvolveArgs& a) {
  lab::games::EvolveConfig& c = a.config;
  c.setup = tuning_setup(a.tuning);
  if (c.population < 4 || c.population % 2 != 0)
    throw UsageError("--population must be even and at least 4");
  lab::games::EvolveState state = starting_state(
      a.tuning, [&] { return lab::games::first_generation(c); },
      [&](const Json& j) { return lab::games::state_from_json(c, j); });
  const lab::common::RunMeta meta = lab::common::run_meta(invocation());
  const bool stopped = run_tuner(a.tuning, "evolve", [&](const auto& progress, const auto& save,
                                                       const std::atomic<bool>* stop) {
    state = lab::games::evolve(
        c, state, progress,
        [&](const lab::games::EvolveState& s) { save(lab::games::evolve_json(c, s)); }, stop);
  });
  if (!state.history.empty())
    save_tuned(a.tuning, c.setup, state.history.back().best_values,
               "xqlab evolve, seed " + std::to_string(c.seed) + ", generation " +
                   std::to_string(state.generation) + ": the fittest individual");
  if (a.tuning.json) print_json(Json{{"meta", meta}, {"evolve", lab::games::evolve_json(c, state)}});
  else print_text(c, state);
  if (stopped || state.interrupted)
    throw Interrupted("interrupted after generation " + std::to_string(state.generation) +
                      "; --resume continues from " + a.tuning.checkpoint);
  return 0;
}

}  // namespace

Command add_evolve(CLI::App& root) {
  auto a = std::make_shared<EvolveArgs>();
  CLI::App* app = root.add_subcommand(
      "evolve", "tune parameters with the thesis's adaptive genetic algorithm (games in parallel)");
  add_tuning_options(app, a->tuning, "xqlab-evolve.json");
  app->add_option("--population", a->config.population, "individuals (even, at least 4)")
      ->check(CLI::Range(4, 1024))
      ->capture_default_str();
  app->add_option("--generations", a->config.generations, "generations in all")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app->add_option("--rounds", a->config.rounds, "rounds of game pairs per generation")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app->add_option("--spread", a->config.spread,
                  "the coding window around each default, fraction of the parameter's range")
      ->check(CLI::Range(0.001, 1.0))
      ->capture_default_str();
  return {app, [a] {
            a->config.seed = a->tuning.seed;
            return run(*a);
          }};
}

}  // namespace xq::cli
