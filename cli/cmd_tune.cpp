// xqlab tune: searches a backend's split parameters on a suite at a thread
// count (lab/timing/tune.h has the method and the statistics), prints every
// candidate against the default with its confidence, and with --save writes
// the chosen setting as a file every backend command reads with --params.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/lab_print.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/meta.h"
#include "lab/common/suite.h"
#include "lab/timing/tune.h"
#include "parallel/params.h"

namespace xq::cli {
namespace {

struct TuneArgs {
  std::string suite = lab::common::default_suite_path(), backend = "ybwc", hash, save;
  std::vector<std::string> space, params;
  int threads = 2, depth = 7, runs = 3;
  std::size_t hash_mb = 16;
  bool json = false;
  std::string profile = "thesis";
  std::string suite_half = "all";
};

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

lab::timing::LabSettings settings(const TuneArgs& a, std::vector<lab::timing::TuneAxis>& space) {
  lab::timing::LabSettings s = lab_settings(a.suite, a.depth, a.runs, a.hash_mb, a.params);
  s.features = profile_features(a.profile);
  s.suite_half = a.suite_half;
  const BackendInfo& info = find_backend(a.backend);
  const std::string hash = a.hash.empty() ? std::string(info.default_hash) : a.hash;
  if (!info.supports(hash))
    throw UsageError("backend '" + a.backend + "' cannot use hash scheme '" + hash + "'");
  for (const std::string& text : a.space) {
    space.push_back(lab::timing::parse_axis(text));
    const auto& readers = find_param(space.back().name).backends;
    if (std::find(readers.begin(), readers.end(), a.backend) == readers.end())
      throw UsageError("backend '" + a.backend + "' does not read parameter '" +
                       space.back().name + "'");
  }
  if (space.empty()) space = lab::timing::default_space(a.backend, s.base);
  if (space.empty()) throw UsageError("backend '" + a.backend + "' reads no split parameter");
  for (const auto& c : lab::timing::tune_candidates(space, s.base))
    s.configs.push_back({a.backend, hash, a.threads, c});
  return s;
}

void print_text(const lab::timing::LabSettings& s, std::size_t positions, const lab::timing::TuneReport& rep) {
  std::printf("xqlab tune: %s/%s/%dt, %zu positions from %s, depth %d, %d interleaved run%s\n",
              s.configs[0].backend.c_str(), s.configs[0].hash.c_str(), s.configs[0].threads,
              positions, suite_text(s).c_str(), s.depth, s.runs, s.runs == 1 ? "" : "s");
  std::printf("ratio = candidate time / default time, median over positions of the per-position"
              " mean log ratio over runs;\n95%% CI: bootstrap of that median; faster/slower:"
              " positions; p: two-sided sign test\n\n");
  std::printf("%-44s %9s %7s %17s %6s %6s %7s\n", "setting", "T (s)", "ratio", "95% CI",
              "faster", "slower", "p");
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const lab::timing::TuneRow& r = rep.rows[i];
    const std::string name = joined(r.params) + (i == 0 ? " (default)" : "");
    if (i == 0) {
      std::printf("%-44s %9.3f %7s\n", name.c_str(), r.seconds, "1");
      continue;
    }
    const lab::common::PairedComparison& c = r.vs_default;
    std::printf("%-44s %9.3f %7.3f   [%5.3f, %5.3f] %6d %6d %7.4f %s\n", name.c_str(), r.seconds,
                c.time_ratio(), std::exp(c.lo), std::exp(c.hi), c.faster, c.slower, c.sign_p,
                c.better() ? "better" : c.worse() ? "worse" : "");
  }
  const lab::timing::TuneRow& best = rep.rows[std::size_t(rep.best)];
  if (rep.decided())
    std::printf("\nbest: %s  time ratio %.3f (95%% CI %.3f-%.3f) against the default\n",
                joined(best.params).c_str(), best.vs_default.time_ratio(),
                std::exp(best.vs_default.lo), std::exp(best.vs_default.hi));
  else
    std::printf("\nbest: the default (%s): no candidate's interval lies below 1, so these runs "
                "cannot tell the settings apart from it\n", joined(best.params).c_str());
}

Json report_json(const lab::timing::LabSettings& s, std::size_t positions, const lab::timing::TuneReport& rep) {
  Json rows = Json::array();
  for (std::size_t i = 0; i < rep.rows.size(); ++i) {
    const lab::timing::TuneRow& r = rep.rows[i];
    Json row{{"params", r.params}, {"seconds", r.seconds}, {"default", i == 0}};
    if (i > 0) {
      const lab::common::PairedComparison& c = r.vs_default;
      row.update(Json{{"time_ratio", c.time_ratio()},
                      {"ci", {std::exp(c.lo), std::exp(c.hi)}},
                      {"faster", c.faster},
                      {"slower", c.slower},
                      {"sign_p", c.sign_p},
                      {"better", c.better()},
                      {"worse", c.worse()}});
    }
    rows.push_back(row);
  }
  return Json{{"meta", lab::common::run_meta(invocation())},
              {"tune",
               {{"backend", s.configs[0].backend},
                {"hash", s.configs[0].hash},
                {"threads", s.configs[0].threads},
                {"suite", s.suite_path},
                {"suite_half", s.suite_half},
                {"positions", positions},
                {"depth", s.depth},
                {"runs", s.runs},
                {"candidates", rows},
                {"best", rep.rows[std::size_t(rep.best)].params},
                {"decided", rep.decided()}}}};
}

void save(const TuneArgs& a, const lab::timing::LabSettings& s, const lab::timing::TuneReport& rep) {
  BackendConfig chosen = s.base;
  for (const std::string& p : rep.rows[std::size_t(rep.best)].params) set_param(chosen, p);
  std::ofstream out(a.save);
  const std::string why = rep.decided() ? "xqlab tune: best setting"
                                        : "xqlab tune: no setting beat the default";
  out << lab::timing::params_file_text(a.backend, chosen,
                                       why + " (" + s.configs[0].label() + ", " + s.suite_path +
                                           ", depth " + std::to_string(s.depth) + ")");
  if (!out) throw UsageError("cannot write --save file '" + a.save + "'");
}

int run(const TuneArgs& a) {
  std::vector<lab::timing::TuneAxis> space;
  const lab::timing::LabSettings s = settings(a, space);
  const std::vector<lab::common::SuiteEntry> suite =
      lab::common::load_book(s.suite_path, s.suite_half, true);
  lab::timing::LabCallbacks cb;
  cb.on_pass = [&](const lab::timing::LabConfig& c, int run, double seconds, double elapsed) {
    std::fprintf(stderr, "tune: run %d/%d  %-44s %8.3f s   (elapsed %.0f s)\n", run + 1, s.runs,
                 joined(c.params).c_str(), seconds, elapsed);
    std::fflush(stderr);
  };
  const std::vector<lab::timing::LabRun> runs = lab::timing::run_lab(s, suite, cb);
  const lab::timing::TuneReport rep = lab::timing::tune_report(s, suite.size(), runs);
  if (!a.save.empty()) save(a, s, rep);
  if (a.json) print_json(report_json(s, suite.size(), rep));
  else print_text(s, suite.size(), rep);
  return 0;
}

}  // namespace

Command add_tune(CLI::App& root) {
  auto a = std::make_shared<TuneArgs>();
  CLI::App* app = root.add_subcommand(
      "tune", "searches a backend's split parameters by interleaved time-to-depth runs");
  app->add_option("--suite", a->suite, "position suite (CSV with a fen column)")
      ->capture_default_str();
  add_suite_half_option(app, a->suite_half);
  app->add_option("--backend", a->backend, "backend to tune")
      ->check(backend_name())->capture_default_str();
  add_hash_option(app, a->hash);
  add_threads_option(app, a->threads)->capture_default_str();
  add_table_options(app, a->hash_mb, a->params);
  app->add_option("--space", a->space,
                  "NAME=V1,V2,... values to try, repeatable (default: each split parameter "
                  "the backend reads at default/2, default, default*2, or every choice)")
      ->allow_extra_args(false);
  app->add_option("--depth", a->depth, "depth of every search")
      ->check(CLI::Range(1, int(kMaxDepth)))->capture_default_str();
  app->add_option("--runs", a->runs, "interleaved runs per setting")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--save", a->save, "write the chosen setting here (NAME=VALUE lines, "
                                     "read back with --params)");
  app->add_flag("--json", a->json, "the report as one JSON object on stdout");
  add_profile_option(app, a->profile);
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
