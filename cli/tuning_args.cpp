#include "cli/tuning_args.h"

#include <cstdio>

#include "cli/match_run.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/files.h"
#include "lab/common/suite.h"

namespace xq::cli {

void add_tuning_options(CLI::App* app, TuningArgs& a, const std::string& checkpoint_default) {
  a.checkpoint = checkpoint_default;
  app->add_option("--params", a.params,
                  "what is tuned: eval, knowledge, search, all, or a comma list of tunable parameters "
                  "('xqlab list')")
      ->capture_default_str();
  add_profile_option(app, a.profile);
  app->add_option("--depth", a.depth,
                  "games at this fixed depth per move (reproducible from the seed; default 3 "
                  "when no --tc or --movetime)")
      ->check(CLI::Range(1, 64));
  add_nodes_option(app, a.nodes);
  app->add_option("--tc", a.tc, "games with a clock BASE+INC in seconds (not reproducible)");
  app->add_option("--movetime", a.movetime, "games at this fixed time per move in ms")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
  add_book_options(app, a.book, "tune", true, false);
  app->add_option("--threads", a.threads, "games played at once (each engine at one thread)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  app->add_option("--seed", a.seed, "random seed")->capture_default_str();
  app->add_option("--checkpoint", a.checkpoint, "the state after every step, for --resume")
      ->capture_default_str();
  app->add_flag("--resume", a.resume, "continue the run in --checkpoint");
  app->add_option("--save", a.save, "write the tuned vector here as a parameters file "
                                    "(xqlab engine --tunables, match xqlab:tunables=FILE)");
  app->add_flag("--json", a.json, "one JSON object on stdout");
}

lab::games::TuningSetup tuning_setup(const TuningArgs& a) {
  lab::games::TuningSetup s;
  try {
    s.params = lab::games::parse_tuned_params(a.params);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  s.profile = a.profile;
  if (const auto limit = game_limit(a.tc, a.movetime, a.depth, a.nodes)) s.tc = *limit;
  else s.tc.depth = 3;
  s.openings_path = a.book.path;
  s.openings = book_openings(a.book, 0, "tuning");
  s.threads = a.threads;
  return s;
}

void check_tuning_files(const TuningArgs& a, bool checkpoint_exists) {
  if (a.resume && !checkpoint_exists)
    throw UsageError("--resume: no checkpoint " + a.checkpoint);
  if (!a.resume && checkpoint_exists)
    throw UsageError("checkpoint " + a.checkpoint +
                     " exists: --resume continues it, or give another --checkpoint");
  lab::common::check_writable(a.checkpoint);
  if (!a.save.empty()) lab::common::check_writable(a.save);
}

void throw_usage(const std::string& message) { throw UsageError(message); }

bool run_tuner(const TuningArgs& a, const std::string& name,
               const std::function<void(const std::function<void(const std::string&)>& progress,
                                        const std::function<void(const Json&)>& checkpoint,
                                        const std::atomic<bool>* stop)>& run) {
  return run_until_sigint([&](const std::atomic<bool>* stop) {
    run([&](const std::string& line) { std::fprintf(stderr, "%s: %s\n", name.c_str(), line.c_str()); },
        [&](const Json& doc) {
          lab::common::write_file_atomically(a.checkpoint, doc.dump(1) + "\n");
        },
        stop);
  });
}

void save_tuned(const TuningArgs& a, const lab::games::TuningSetup& s,
                const std::vector<int>& values, const std::string& header) {
  if (a.save.empty()) return;
  lab::common::write_file_atomically(a.save,
                                     "# " + header + "\n" + format_tunables(tunables_of(s, values)));
}

}  // namespace xq::cli
