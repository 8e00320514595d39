// xqlab solve: time to solution on a suite that names each position's
// solution move (lab/timing/solve.h), per backend, scheme and thread count,
// interleaved as the lab interleaves.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/files.h"
#include "lab/common/meta.h"
#include "lab/common/progress.h"
#include "lab/common/suite.h"
#include "lab/timing/solve.h"
#include "search/options.h"

namespace xq::cli {
namespace {

struct SolveArgs {
  std::string suite = lab::common::data_dir() + "/mates.csv", csv, json_file;
  std::vector<std::string> backends{"serial", "ybwc", "lazysmp", "aspiration", "uidpabs"};
  std::vector<std::string> hash{"xor"}, params;
  std::vector<int> threads{1, 2};
  int movetime = 1000, runs = 3;
  std::size_t hash_mb = 16;
  bool json = false, quiet = false;
  std::string profile = "thesis";
  SimArgs sim;  // --simulate (lab/timing/simulation.h)
};

Json summary_json(const lab::timing::SolveSettings& s, const lab::timing::SolveSummary& x) {
  const lab::timing::LabConfig& c = s.configs[std::size_t(x.config)];
  return Json{{"backend", c.backend},
              {"hash", c.hash},
              {"threads", c.threads},
              {"searches", x.searches},
              {"solved", x.solved},
              {"median_ms", x.median_seconds * 1e3},
              {"mean_ms", x.mean_seconds * 1e3},
              {"penalised_seconds", x.penalised_seconds},
              {"speedup", x.speedup},
              {"paired_speedup", x.paired},
              {"paired_positions", x.paired_positions}};
}

Json run_json(const lab::timing::SolveRun& r) {
  return Json{{"config", r.config},     {"run", r.run},
              {"position", r.position}, {"solved", r.solved},
              {"ms", r.seconds * 1e3},  {"searched_ms", r.searched * 1e3},
              {"depth", r.depth},       {"nodes", r.nodes},
              {"best_move", move_name(r.best_move)}};
}

void print_text(const SolveArgs& a, const lab::timing::SolveSettings& s, std::size_t positions,
                const std::vector<lab::timing::SolveSummary>& rows) {
  if (s.sim) std::printf("%s\n", lab::timing::sim_banner(*s.sim, s.runs).c_str());
  std::printf("%ssolve: %zu positions from %s, %d ms a search%s, %d run(s); time to solution = "
              "from the report that named the solution and kept it to the end (unsolved: the "
              "%d ms limit in the penalised sum)\n",
              s.sim ? "SIMULATED " : "", positions, a.suite.c_str(), s.movetime_ms,
              s.sim ? " of virtual time" : "", s.runs, s.movetime_ms);
  std::printf("%-22s %9s %10s %9s %12s %8s %16s\n", "configuration", "solved", "median ms",
              "mean ms", "penalised s", "speedup", "paired [pos]");
  for (const lab::timing::SolveSummary& x : rows) {
    const std::string solved = std::to_string(x.solved) + "/" + std::to_string(x.searches);
    char paired[32] = "-";
    if (x.paired_positions > 0)
      std::snprintf(paired, sizeof paired, "%.3f [%d]", x.paired, x.paired_positions);
    std::printf("%-22s %9s %10.2f %9.2f %12.3f %8.3f %16s\n",
                s.configs[std::size_t(x.config)].label().c_str(), solved.c_str(),
                x.median_seconds * 1e3, x.mean_seconds * 1e3, x.penalised_seconds, x.speedup,
                paired);
  }
  std::printf("speedup: the serial reference's penalised sum / the configuration's; paired: "
              "median over positions every run of both solved of reference time / time\n");
}

int run(const SolveArgs& a) {
  lab::timing::SolveSettings s;
  s.movetime_ms = a.movetime;
  s.runs = a.runs;
  s.features = profile_features(a.profile);
  s.sim = sim_settings(a.sim);
  s.base.hash_mib = a.hash_mb;
  apply_params(s.base, a.params);
  s.configs = lab::timing::build_configs(a.backends, a.hash, a.threads, [](const std::string& what) {
    std::fprintf(stderr, "solve: skipping %s\n", what.c_str());
  });
  const std::vector<lab::timing::SolveEntry> suite = lab::timing::load_solve_suite(a.suite);
  if (!a.json_file.empty()) lab::common::check_writable(a.json_file);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> csv(nullptr, std::fclose);
  if (!a.csv.empty()) {
    csv.reset(std::fopen(a.csv.c_str(), "w"));
    if (!csv) throw UsageError("cannot write --csv file '" + a.csv + "'");
    std::fprintf(csv.get(), "backend,hash,threads,run,position,name,solution,solved,ms,"
                            "searched_ms,depth,nodes,best_move\n");
    std::fflush(csv.get());
  }
  // One unit per position and run (every configuration's search of it).
  lab::common::Progress progress("solve", suite.size() * std::size_t(s.runs), a.quiet);
  std::size_t searched = 0;
  const auto on_search = [&](const lab::timing::SolveRun& r) {
    const lab::timing::LabConfig& c = s.configs[std::size_t(r.config)];
    const lab::timing::SolveEntry& e = suite[std::size_t(r.position)];
    if (csv) {
      // Each row as it is measured: an interrupted run keeps what it measured.
      std::fprintf(csv.get(), "%s,%s,%d,%d,%d,\"%s\",%s,%d,%.3f,%.3f,%d,%llu,%s\n",
                   c.backend.c_str(), c.hash.c_str(), c.threads, r.run + 1, r.position + 1,
                   e.name.c_str(), move_name(e.solution).c_str(), r.solved ? 1 : 0,
                   r.seconds * 1e3, r.searched * 1e3, int(r.depth),
                   static_cast<unsigned long long>(r.nodes), move_name(r.best_move).c_str());
      std::fflush(csv.get());
    }
    if (++searched % s.configs.size() == 0) progress.done(e.name);
    else progress.working(c.label() + "  " + e.name);
  };
  const std::vector<lab::timing::SolveRun> runs = lab::timing::run_solve(s, suite, on_search);
  progress.finish();
  const std::vector<lab::timing::SolveSummary> rows = lab::timing::summarize_solve(s, runs);
  Json j{{"meta", lab::common::run_meta(invocation())},
         {"suite", a.suite},
         {"positions", suite.size()},
         {"movetime_ms", s.movetime_ms},
         {"runs", s.runs},
         {"profile", a.profile},
         {"hash_mb", a.hash_mb},
         {"mode", s.sim ? "simulated" : "measured"}};
  if (s.sim) j["simulation"] = lab::timing::sim_settings_json(*s.sim, s.runs);
  Json configs = Json::array();
  for (const lab::timing::SolveSummary& x : rows) configs.push_back(summary_json(s, x));
  j["configs"] = configs;
  Json searches = Json::array();
  for (const lab::timing::SolveRun& r : runs) searches.push_back(run_json(r));
  j["searches"] = searches;
  if (!a.json_file.empty()) lab::common::write_file_atomically(a.json_file, j.dump(1) + "\n");
  if (a.json) print_json(j);
  else print_text(a, s, suite.size(), rows);
  return 0;
}

}  // namespace

Command add_solve(CLI::App& root) {
  auto a = std::make_shared<SolveArgs>();
  CLI::App* app = root.add_subcommand(
      "solve", "time to solution on a suite with a solution column (e.g. data/mates.csv)");
  app->add_option("--suite", a->suite, "position suite (CSV with fen and solution columns, ICCS)")
      ->capture_default_str();
  add_backends_option(app, "--backends", a->backends, "backends, comma-separated")
      ->capture_default_str();
  add_hash_option(app, a->hash)->capture_default_str();
  add_threads_option(app, a->threads)->capture_default_str();
  add_table_options(app, a->hash_mb, a->params);
  app->add_option("--movetime", a->movetime, "milliseconds a search")
      ->check(CLI::Range(1, 3'600'000))->capture_default_str();
  app->add_option("--runs", a->runs, "runs per configuration")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--csv", a->csv, "write one row per search to this file, as each ends");
  app->add_option("--json-file", a->json_file, "write the JSON document to this file");
  app->add_flag("--json", a->json, "the JSON document on stdout");
  app->add_flag("--quiet", a->quiet, "no progress on stderr");
  add_profile_option(app, a->profile);
  add_sim_options(app, a->sim);
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
