// xqlab sim-calibrate: measures this machine's costs for `xqlab lab
// --simulate` (lab/timing/calibrate.h has how each is measured) and writes
// them as a profile file, with the machine's description, the date, the
// commit and the command.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/files.h"
#include "lab/common/meta.h"
#include "lab/common/suite.h"
#include "lab/timing/calibrate.h"

namespace xq::cli {
namespace {

struct CalibrateArgs {
  std::string suite = lab::common::default_suite_path(), out, machine;
  int depth = 8, repeats = 3, batches = 7;
  bool quiet = false;
};

int run(const CalibrateArgs& a) {
  if (!a.out.empty()) {
    try {
      lab::common::check_writable(a.out);
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("--out: ") + e.what());
    }
  }
  const std::vector<lab::common::SuiteEntry> suite = lab::common::load_suite(a.suite);
  const lab::common::RunMeta meta = lab::common::run_meta(invocation());
  if (!a.quiet)
    std::fprintf(stderr, "sim-calibrate: %zu positions at depth %d, %d times each, then the seams\n",
                 suite.size(), a.depth, a.repeats);
  lab::timing::Calibration c = lab::timing::calibrate(suite, Depth(a.depth), a.repeats, a.batches);
  c.profile.machine = !a.machine.empty()
                          ? a.machine
                          : meta.cpu + ", " + std::to_string(meta.nproc) + " hardware threads";
  c.profile.measured = meta.date + ", commit " + meta.commit + ", " + meta.build + ", load " +
                       std::to_string(meta.load_average);
  Json doc = lab::timing::sim_profile_json(c.profile);
  doc["command"] = meta.command;
  doc["suite"] = a.suite;
  Json how = Json::array();
  for (const auto& l : c.lines) how.push_back(Json{{"cost", l.cost}, {"ns", l.value_ns}, {"how", l.how}});
  doc["calibration"] = how;
  doc["jitter_how"] = c.jitter_how;
  doc["thread_noise"] = c.thread_noise < 0 ? Json() : Json(c.thread_noise);
  doc["thread_noise_how"] = c.thread_noise_how;
  Json checks = Json::array();
  for (const auto& l : c.checks)
    checks.push_back(Json{{"check", l.cost}, {"ns", l.value_ns}, {"how", l.how}});
  doc["checks"] = checks;
  const std::string text = lab::common::dump_line(doc) + "\n";
  if (a.out.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {
    lab::common::write_file_atomically(a.out, text);
    std::printf("profile written to %s (%s)\n", a.out.c_str(), c.profile.machine.c_str());
  }
  if (!a.out.empty() || a.quiet) {
    std::FILE* to = a.out.empty() ? stderr : stdout;
    for (const auto& l : c.lines)
      std::fprintf(to, "  %-12s %12.1f ns  %s\n", l.cost.c_str(), l.value_ns, l.how.c_str());
    std::fprintf(to, "  %-12s %12.4f     %s\n", "jitter", c.profile.costs.jitter,
                 c.jitter_how.c_str());
    char noise[32] = "not measured";
    if (c.thread_noise >= 0) std::snprintf(noise, sizeof noise, "%.4f", c.thread_noise);
    std::fprintf(to, "  %-12s %12s     %s\n", "thread_noise", noise, c.thread_noise_how.c_str());
    for (const auto& l : c.checks)
      std::fprintf(to, "  check %-16s %9.1f ns  %s\n", l.cost.c_str(), l.value_ns, l.how.c_str());
  }
  return 0;
}

}  // namespace

Command add_sim_calibrate(CLI::App& root) {
  auto a = std::make_shared<CalibrateArgs>();
  CLI::App* app = root.add_subcommand(
      "sim-calibrate", "measure this machine's node and seam costs for 'lab --simulate'");
  app->add_option("--suite", a->suite, "positions of the node-cost fit (CSV with a fen column)")
      ->capture_default_str();
  app->add_option("--depth", a->depth, "depth of the serial searches")
      ->check(CLI::Range(1, int(kMaxDepth)))->capture_default_str();
  app->add_option("--repeats", a->repeats, "searches per position (the fastest is kept)")
      ->check(CLI::Range(1, 100))->capture_default_str();
  app->add_option("--batches", a->batches, "batches per seam timing (the median is kept)")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--out", a->out, "write the profile here (default: stdout)");
  app->add_option("--machine", a->machine, "the machine's description (default: CPU model and "
                  "hardware threads)");
  app->add_flag("--quiet", a->quiet, "no progress on stderr");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
