// xqlab report: the HTML page of lab/report/report.h from the JSON the other
// commands write. Without inputs it reads the usual names in --out
// (lab.json, stress.json, ablation.json, match.json); any that is missing is
// named on the page.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/usage_error.h"
#include "lab/report/report.h"

namespace xq::cli {
namespace {

struct ReportArgs {
  std::string out;
  std::vector<std::string> inputs;
  bool summary = false;
};

int run(const ReportArgs& a) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths = a.inputs;
  if (paths.empty())
    for (const char* name : {"lab.json", "stress.json", "ablation.json", "match.json"})
      paths.push_back((fs::path(a.out) / name).string());
  const std::vector<lab::report::ReportInput> inputs = lab::report::read_report_inputs(paths);
  std::error_code ec;
  fs::create_directories(a.out, ec);
  const std::string page = (fs::path(a.out) / "report.html").string();
  std::ofstream f(page, std::ios::binary);
  f << lab::report::report_html(inputs);
  if (!f.flush()) throw UsageError("cannot write '" + page + "'");
  for (const lab::report::ReportInput& in : inputs)
    if (!in.found && !a.inputs.empty())
      std::fprintf(stderr, "report: input '%s' not found (named on the page)\n", in.path.c_str());
  if (a.summary)
    for (const std::string& line : lab::report::report_summary(inputs))
      std::printf("%s\n", line.c_str());
  std::printf("report: %s\n", page.c_str());
  return 0;
}

}  // namespace

Command add_report(CLI::App& root) {
  auto a = std::make_shared<ReportArgs>();
  CLI::App* app = root.add_subcommand("report", "one HTML page with SVG charts from the JSON of "
                                                "lab, stress, ablation and match");
  app->add_option("--out", a->out, "folder of report.html (created when missing)")->required();
  app->add_option("inputs", a->inputs, "JSON files (default: lab.json, stress.json, "
                  "ablation.json, match.json in --out)");
  app->add_flag("--summary", a->summary, "also print a short summary: the best backend per "
                "thread count and the safest fast hash scheme");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
