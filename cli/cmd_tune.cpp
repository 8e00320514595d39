// xqlab tune: searches a backend's split parameters on a suite at a thread
// count (lab/timing/tune.h has the method and the statistics), prints every
// candidate against the default with its confidence, and with --save writes
// the chosen setting as a file every backend command reads with --params.
// With --simulate it tunes on the simulated machine at any logical thread
// count (SIMULATED, labelled so): one axis at a time, at most
// kSimulatedCandidates candidates, each search journalled (--journal,
// --resume), and --confirm-depth D re-runs the winner against the default
// at a deeper depth.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/lab_print.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/meta.h"
#include "lab/common/suite.h"
#include "lab/timing/journal.h"
#include "lab/timing/tune.h"
#include "parallel/params.h"

namespace xq::cli {
namespace {

// Candidates a simulated tune may try per backend and thread count: a
// simulated search at 64 or 256 logical threads costs minutes.
constexpr std::size_t kSimulatedCandidates = 12;

struct TuneArgs {
  std::string suite = lab::common::default_suite_path(), backend = "ybwc", hash, save;
  std::vector<std::string> space, params;
  int threads = 2, depth = 7, runs = 3, confirm_depth = 0;
  std::size_t hash_mb = 16;
  bool json = false, resume = false;
  std::string profile = "thesis";
  std::string suite_half = "all";
  std::string journal;
  SimArgs sim;
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
  s.sim = sim_settings(a.sim);
  if (s.sim && space.size() != 1)
    throw UsageError("tune --simulate tries one axis at a time: give one --space NAME=V1,V2,...");
  if (space.empty()) space = lab::timing::default_space(a.backend, s.base);
  if (space.empty()) throw UsageError("backend '" + a.backend + "' reads no split parameter");
  for (const auto& c : lab::timing::tune_candidates(space, s.base))
    s.configs.push_back({a.backend, hash, a.threads, c});
  if (s.sim && s.configs.size() > kSimulatedCandidates)
    throw UsageError("tune --simulate tries at most " + std::to_string(kSimulatedCandidates) +
                     " candidates, the default included; --space gives " +
                     std::to_string(s.configs.size()));
  if (a.confirm_depth != 0 && a.confirm_depth <= a.depth)
    throw UsageError("--confirm-depth must be deeper than --depth (" + std::to_string(a.depth) + ")");
  if (s.sim) {
    try {
      lab::timing::check_simulable(s.configs);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  return s;
}

// The winner against the default at --confirm-depth (rows[0] the default,
// rows[1] the winner), when there was a winner to confirm.
struct Confirmation {
  int depth = 0;
  lab::timing::TuneReport rep;
};

void print_text(const lab::timing::LabSettings& s, std::size_t positions, const lab::timing::TuneReport& rep,
                const std::optional<Confirmation>& confirm) {
  if (s.sim) std::printf("%s\n", lab::timing::sim_banner(*s.sim, s.runs).c_str());
  std::printf("xqlab tune: %s%s/%s/%dt, %zu positions from %s, depth %d, %d interleaved run%s\n",
              s.sim ? "SIMULATED " : "", s.configs[0].backend.c_str(), s.configs[0].hash.c_str(),
              s.configs[0].threads, positions, suite_text(s).c_str(), s.depth, s.runs,
              s.runs == 1 ? "" : "s");
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
  if (!confirm) return;
  const lab::common::PairedComparison& c = confirm->rep.rows[1].vs_default;
  std::printf("confirmed at depth %d: time ratio %.3f (95%% CI %.3f-%.3f) against the default: "
              "%s\n", confirm->depth, c.time_ratio(), std::exp(c.lo), std::exp(c.hi),
              c.better() ? "better" : c.worse() ? "worse" : "undecided");
}

Json report_json(const lab::timing::LabSettings& s, std::size_t positions, const lab::timing::TuneReport& rep,
                 const std::optional<Confirmation>& confirm) {
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
  Json confirmed;  // null: no --confirm-depth, or the default won
  if (confirm) {
    const lab::common::PairedComparison& c = confirm->rep.rows[1].vs_default;
    confirmed = Json{{"depth", confirm->depth},
                     {"params", confirm->rep.rows[1].params},
                     {"time_ratio", c.time_ratio()},
                     {"ci", {std::exp(c.lo), std::exp(c.hi)}},
                     {"better", c.better()},
                     {"worse", c.worse()}};
  }
  return Json{{"meta", lab::common::run_meta(invocation())},
              {"mode", s.sim ? "simulated" : "measured"},
              {"simulation", s.sim ? lab::timing::sim_settings_json(*s.sim, s.runs) : Json()},
              {"confirm", confirmed},
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
  const std::string why = std::string(s.sim ? "SIMULATED " : "") +
                          (rep.decided() ? "xqlab tune: best setting"
                                         : "xqlab tune: no setting beat the default");
  out << lab::timing::params_file_text(a.backend, chosen,
                                       why + " (" + s.configs[0].label() + ", " + s.suite_path +
                                           ", depth " + std::to_string(s.depth) + ")");
  if (!out) throw UsageError("cannot write --save file '" + a.save + "'");
}

// The lab runs of `s`, journalled at `journal` (none: "") and resumed from
// it with `resume`.
std::vector<lab::timing::LabRun> journalled_runs(const lab::timing::LabSettings& s,
                                                 const std::vector<lab::common::SuiteEntry>& suite,
                                                 const std::string& journal, bool resume) {
  lab::timing::LabResume from;
  from.done = journal_start(resume, journal, s, suite, "tune");
  std::optional<lab::timing::JournalWriter> writer;
  open_journal(writer, journal, s, suite, from.done);
  lab::timing::LabCallbacks cb;
  cb.on_finished = [&](const lab::timing::LabRun& r) {
    if (writer) writer->append(r);
  };
  cb.on_pass = [&](const lab::timing::LabConfig& c, int run, double seconds, double elapsed) {
    std::fprintf(stderr, "tune: %sdepth %d run %d/%d  %-44s %8.3f s   (elapsed %.0f s)\n",
                 s.sim ? "SIMULATED " : "", s.depth, run + 1, s.runs, joined(c.params).c_str(),
                 seconds, elapsed);
    std::fflush(stderr);
  };
  return lab::timing::run_lab(s, suite, cb, from);
}

int run(const TuneArgs& a) {
  std::vector<lab::timing::TuneAxis> space;
  const lab::timing::LabSettings s = settings(a, space);
  const std::vector<lab::common::SuiteEntry> suite =
      lab::common::load_book(s.suite_path, s.suite_half, true);
  const std::vector<lab::timing::LabRun> runs = journalled_runs(s, suite, a.journal, a.resume);
  const lab::timing::TuneReport rep = lab::timing::tune_report(s, suite.size(), runs);
  std::optional<Confirmation> confirm;
  if (a.confirm_depth > 0 && rep.decided()) {
    // The winner against the default, deeper (its own journal beside the
    // tune's: PATH.confirm).
    lab::timing::LabSettings deeper = s;
    deeper.depth = a.confirm_depth;
    deeper.configs = {s.configs[0], s.configs[std::size_t(rep.best)]};
    const std::string journal = a.journal.empty() ? "" : a.journal + ".confirm";
    const std::vector<lab::timing::LabRun> more = journalled_runs(deeper, suite, journal, a.resume &&
                                                                  !journal.empty() &&
                                                                  std::ifstream(journal).good());
    confirm = Confirmation{a.confirm_depth, lab::timing::tune_report(deeper, suite.size(), more)};
  }
  if (!a.save.empty()) save(a, s, rep);
  if (a.json) print_json(report_json(s, suite.size(), rep, confirm));
  else print_text(s, suite.size(), rep, confirm);
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
  add_sim_options(app, a->sim);
  app->add_option("--confirm-depth", a->confirm_depth,
                  "re-run the winner against the default at this deeper depth (0: no)")
      ->check(CLI::Range(0, int(kMaxDepth)));
  app->add_option("--journal", a->journal, "append every finished search to this file (the "
                  "confirmation's to FILE.confirm), so that --resume continues a tune that died");
  app->add_flag("--resume", a->resume, "continue from --journal's searches (same settings)");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
