// xqlab lab: the laboratory's main job. Compares parallel backends and hash
// schemes by time to depth on a position suite (lab/timing/runner.h, lab/timing/summary.h
// have the definitions). With no arguments: every registered backend, the xor
// scheme, 1 and 2 threads, the opening suite, at a depth chosen so the whole
// run ends in about ten minutes on two cores.
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
#include "lab/common/progress.h"
#include "lab/timing/document.h"
#include "lab/timing/runner.h"
#include "lab/timing/summary.h"

namespace xq::cli {
namespace {

// Depth 8 with 3 runs: about 21 s of serial search per pass over the
// 16-position opening suite on the (shared, loaded) 2-core lab machine, so the
// default comparison (serial + two backends at 1 and 2 threads) stays under
// ten minutes; measured in docs/journal/2026-11-22.md (lab runner), the current
// running time of the default lab is in docs/RESULTS.md. Depth 9 would take ~3x that.
constexpr Depth kDefaultDepth = 8;
constexpr int kDefaultRuns = 3;

struct LabArgs {
  std::string suite = lab::common::default_suite_path(), csv, json_file;
  std::vector<std::string> backends, hash{"xor"}, params;
  std::vector<int> threads{1, 2};
  int depth = kDefaultDepth, runs = kDefaultRuns;
  std::size_t hash_mb = 16;
  bool json = false, quiet = false;
};

void print_settings(std::FILE* head, const lab::timing::LabSettings& s, std::size_t positions) {
  std::fprintf(head, "lab settings: suite %s (%zu positions), depth %d, runs %d, %zu MiB, %zu "
               "configurations:", s.suite_path.c_str(), positions, s.depth, s.runs,
               s.base.hash_mib, s.configs.size());
  for (const lab::timing::LabConfig& c : s.configs) std::fprintf(head, " %s", c.label().c_str());
  std::fprintf(head, "\n");
  if (const std::string note = lab::timing::oversubscription_note(s); !note.empty())
    std::fprintf(head, "%s\n", note.c_str());
  std::fflush(head);
}

void write_json_file(const std::string& path, const Json& doc) {
  std::ofstream out(path);
  out << lab::common::dump_line(doc) << "\n";
  if (!out.flush()) throw UsageError("cannot write --json-file '" + path + "'");
}

int run(const LabArgs& a) {
  lab::timing::LabSettings s = lab_settings(a.suite, a.depth, a.runs, a.hash_mb, a.params);
  std::vector<std::string> names = a.backends;
  if (names.empty())
    for (const BackendInfo& b : backends()) names.emplace_back(b.name);
  s.configs = lab::timing::build_configs(names, a.hash, a.threads, [](const std::string& what) {
    std::fprintf(stderr, "lab: skipping %s\n", what.c_str());
  });
  const std::vector<lab::common::SuiteEntry> suite = lab::common::load_suite(s.suite_path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> csv(nullptr, std::fclose);
  if (!a.csv.empty()) {
    csv.reset(std::fopen(a.csv.c_str(), "w"));
    if (!csv) throw UsageError("cannot write --csv file '" + a.csv + "'");
    std::fprintf(csv.get(), "%s\n", lab::timing::lab_csv_header().c_str());
  }
  print_settings(a.json ? stderr : stdout, s, suite.size());
  if (!a.json_file.empty()) write_json_file(a.json_file, Json::object());  // fail before work
  lab::common::Progress progress("lab", s.configs.size() * std::size_t(s.runs), a.quiet);
  lab::timing::LabCallbacks cb;
  cb.on_search = [&](const lab::timing::LabRun& r) {
    progress.working("run " + std::to_string(r.run + 1) + "/" + std::to_string(s.runs) + "  " +
                     s.configs[std::size_t(r.config)].label() + "  position " +
                     std::to_string(r.position + 1) + "/" + std::to_string(suite.size()));
    if (!csv) return;
    std::fprintf(csv.get(), "%s\n",
                 lab::timing::lab_csv_row(s, r, suite[std::size_t(r.position)]).c_str());
    std::fflush(csv.get());
  };
  cb.on_pass = [&](const lab::timing::LabConfig& c, int run, double seconds, double) {
    char label[160];
    std::snprintf(label, sizeof label, "run %d/%d  %-22s %zu positions  %8.3f s", run + 1, s.runs,
                  c.label().c_str(), suite.size(), seconds);
    progress.done(label);
  };
  const std::vector<lab::timing::LabRun> runs = lab::timing::run_lab(s, suite, cb);
  progress.finish();
  const std::vector<lab::timing::LabSummary> rows = lab::timing::summarise(s, suite.size(), runs);
  if (a.json || !a.json_file.empty()) {
    const Json doc = lab::timing::lab_document(lab::common::run_meta(invocation()), s, suite, runs, rows);
    if (!a.json_file.empty()) write_json_file(a.json_file, doc);
    if (a.json) print_json(doc);
  }
  if (!a.json) print_lab_text(s, suite.size(), rows);
  return 0;
}

}  // namespace

Command add_lab(CLI::App& root) {
  auto a = std::make_shared<LabArgs>();
  CLI::App* app = root.add_subcommand("lab", "time-to-depth speedup / efficiency / search "
                                             "overhead of backends x schemes x threads");
  app->add_option("--suite", a->suite, "position suite (CSV with a fen column)")
      ->capture_default_str();
  add_backends_option(app, "--backends", a->backends, "backends, comma-separated (default: all)");
  add_hash_option(app, a->hash)->capture_default_str();
  add_threads_option(app, a->threads)->capture_default_str();
  add_table_options(app, a->hash_mb, a->params);
  app->add_option("--depth", a->depth, "depth of every search")
      ->check(CLI::Range(1, int(kMaxDepth)))->capture_default_str();
  app->add_option("--runs", a->runs, "runs per configuration (time is the median)")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--csv", a->csv, "write one row per search to this file");
  app->add_flag("--json", a->json, "the summary as one JSON object on stdout");
  app->add_option("--json-file", a->json_file, "also write that JSON document to this file "
                  "(the input of 'xqlab report')");
  app->add_flag("--quiet", a->quiet, "no progress on stderr");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
