// xqlab report: the HTML page of lab/report/report.h from the JSON the other
// commands write. Without inputs it reads the usual names in --out
// (lab.json, stress.json, ablation.json, match.json); any that is missing is
// named on the page. With --index: docs/RESULTS.md from docs/targets.json
// (lab/report/targets_index.h), written or, with --check, compared, and the
// links under docs/ checked (lab/report/doc_links.h).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "cli/usage_error.h"
#include "lab/common/files.h"
#include "lab/report/doc_links.h"
#include "lab/report/report.h"
#include "lab/report/targets_index.h"

namespace xq::cli {
namespace {

struct ReportArgs {
  std::string out;
  std::vector<std::string> inputs;
  bool summary = false;
  bool index = false, check = false;
  std::string targets = "docs/targets.json", root = ".";
};

// A path relative to --root (default: the current folder; the repository
// test runs from the build folder with --root set to the sources).
std::string under_root(const std::string& root, const std::string& path) {
  namespace fs = std::filesystem;
  return fs::path(path).is_absolute() ? path : (fs::path(root) / path).string();
}

std::string counts_text(const lab::report::targets::IndexCounts& c) {
  return std::to_string(c.targets) + " targets, " + std::to_string(c.computed) + " recomputed, " +
         std::to_string(c.typed) + " typed, " + std::to_string(c.neither) +
         " with neither document nor commit";
}

// The index's problems are printed here, whole, rather than by main(),
// which cuts a message at 200 characters: a changed figure names the
// target and both texts, each up to 200 characters.
int run_index(const ReportArgs& a) {
  namespace fs = std::filesystem;
  namespace tg = lab::report::targets;
  const std::string out_name = a.out.empty() ? "docs/RESULTS.md" : a.out;
  const std::string out = under_root(a.root, out_name);
  tg::DocumentCache cache(a.root);
  tg::ResultsIndex index;
  try {
    index = tg::build_results_index(tg::read_targets(under_root(a.root, a.targets)), cache);
  } catch (const tg::TargetError& e) {
    std::fprintf(stderr, "xqlab report: %s\n", e.what());
    return 2;
  }
  if (a.check) {
    std::ifstream f(out, std::ios::binary);
    if (!f) {
      std::fprintf(stderr, "xqlab report: %s is missing (xqlab report --index writes it)\n",
                   out_name.c_str());
      return 1;
    }
    std::ostringstream current;
    current << f.rdbuf();
    if (const auto diff = tg::first_difference(current.str(), index.markdown)) {
      std::fprintf(stderr, "xqlab report: %s is stale (xqlab report --index rewrites it): %s\n",
                   out_name.c_str(), diff->c_str());
      return 1;
    }
  } else {
    lab::common::write_file_atomically(out, index.markdown);
  }
  const std::string docs = under_root(a.root, "docs");
  if (!fs::is_directory(docs)) throw UsageError("no docs/ folder under '" + a.root + "'");
  const tg::LinkCheck links = tg::check_links(docs);
  if (!links.dead.empty()) {
    const tg::DeadLink& d = links.dead.front();
    std::fprintf(stderr, "xqlab report: %zu dead link(s) under docs/, the first: %s:%d: %s\n",
                 links.dead.size(), d.file.c_str(), d.line, d.target.c_str());
    return 1;
  }
  std::printf("report: %s %s (%s); %d links in %d files under docs/ resolve\n",
              out_name.c_str(), a.check ? "is current" : "written",
              counts_text(index.counts).c_str(), links.links, links.files);
  return 0;
}

int run(const ReportArgs& a) {
  namespace fs = std::filesystem;
  if (a.index) {
    if (!a.inputs.empty() || a.summary)
      throw UsageError("--index reads docs/targets.json; it takes no inputs and no --summary");
    return run_index(a);
  }
  if (a.check || a.targets != "docs/targets.json" || a.root != ".")
    throw UsageError("--check, --targets and --root go with --index");
  if (a.out.empty()) throw UsageError("--out is required (the folder of report.html)");
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
                                                "lab, stress, ablation, match and recommend "
                                                "--threads LIST; with --index, "
                                                "docs/RESULTS.md from docs/targets.json");
  app->add_option("--out", a->out, "folder of report.html (created when missing); with --index "
                  "the index written (default docs/RESULTS.md, relative to --root)");
  app->add_option("inputs", a->inputs, "JSON files (default: lab.json, stress.json, "
                  "ablation.json, match.json in --out)");
  app->add_flag("--summary", a->summary, "also print a short summary: the best backend per "
                "thread count and the safest fast hash scheme");
  app->add_flag("--index", a->index, "write docs/RESULTS.md from docs/targets.json, each "
                "recomputable figure recomputed from its documents and checked against the "
                "recorded text, then check the links under docs/");
  app->add_option("--targets", a->targets, "with --index: the targets (relative to --root)")
      ->capture_default_str();
  app->add_option("--root", a->root, "with --index: the repository's root; documents, "
                  "--targets and --out are relative to it")
      ->capture_default_str();
  app->add_flag("--check", a->check, "with --index: write nothing; exit 1 when the index on "
                "disk differs from the generated one or a link under docs/ is dead");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
