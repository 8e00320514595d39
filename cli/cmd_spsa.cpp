// xqlab spsa: SPSA as fishtest runs it over the engine's tunable parameters
// (lab/games/spsa.h). One progress line per iteration on stderr; the
// checkpoint after every iteration; a summary on stdout (text, or one JSON
// object with --json); round(theta) saved with --save.
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
#include "lab/games/spsa.h"

namespace xq::cli {
namespace {

struct SpsaArgs {
  TuningArgs tuning;
  lab::games::SpsaConfig config;
};

void print_text(const lab::games::SpsaConfig& c, const lab::games::SpsaState& s) {
  int wins_minus_losses = 0;
  for (const lab::games::SpsaStep& h : s.history) wins_minus_losses += h.result;
  std::printf("spsa: %zu parameters, %d of %d iterations, %d games, games %s, %.1f s\n",
              c.setup.params.size(), s.iteration, c.iterations, s.iteration * c.pairs * 2,
              c.setup.tc.text().c_str(), s.seconds);
  std::printf("sum of results (theta+ wins - losses): %+d\n", wins_minus_losses);
  const std::vector<int> values = lab::games::spsa_values(c, s.theta);
  for (std::size_t i = 0; i < values.size(); ++i)
    std::printf("  %-20s %6d  (default %d, theta %.2f)\n", std::string(c.setup.params[i]->name).c_str(),
                values[i], c.setup.params[i]->default_value(), s.theta[i]);
}

int run(SpsaArgs& a) {
  lab::games::SpsaConfig& c = a.config;
  c.setup = tuning_setup(a.tuning);
  lab::games::SpsaState state = starting_state(
      a.tuning, [&] { return lab::games::spsa_start(c); },
      [&](const Json& j) { return lab::games::spsa_state_from_json(c, j); });
  const lab::common::RunMeta meta = lab::common::run_meta(invocation());
  const bool stopped = run_tuner(a.tuning, "spsa", [&](const auto& progress, const auto& save,
                                                     const std::atomic<bool>* stop) {
    state = lab::games::spsa(
        c, state, progress,
        [&](const lab::games::SpsaState& s) { save(lab::games::spsa_json(c, s)); }, stop);
  });
  save_tuned(a.tuning, c.setup, lab::games::spsa_values(c, state.theta),
             "xqlab spsa, seed " + std::to_string(c.seed) + ", iteration " +
                 std::to_string(state.iteration) + ": round(theta)");
  if (a.tuning.json) print_json(Json{{"meta", meta}, {"spsa", lab::games::spsa_json(c, state)}});
  else print_text(c, state);
  if (stopped || state.interrupted)
    throw Interrupted("interrupted after iteration " + std::to_string(state.iteration) +
                      "; --resume continues from " + a.tuning.checkpoint);
  return 0;
}

}  // namespace

Command add_spsa(CLI::App& root) {
  auto a = std::make_shared<SpsaArgs>();
  CLI::App* app =
      root.add_subcommand("spsa", "tune parameters with SPSA as fishtest runs it (games in parallel)");
  add_tuning_options(app, a->tuning, "xqlab-spsa.json");
  app->add_option("--iterations", a->config.iterations, "iterations in all (N)")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  app->add_option("--pairs", a->config.pairs, "game pairs per iteration")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app->add_option("--c-end", a->config.c_end,
                  "the last iteration's perturbation, fraction of each parameter's range (at least 1)")
      ->check(CLI::Range(0.0001, 1.0))
      ->capture_default_str();
  app->add_option("--r-end", a->config.r_end, "the last iteration's a_k / c_k^2")
      ->check(CLI::Range(1e-6, 1.0))
      ->capture_default_str();
  return {app, [a] {
            a->config.seed = a->tuning.seed;
            return run(*a);
          }};
}

}  // namespace xq::cli
