// xqlab ablation: nodes and time to depth per search configuration over a
// position suite, in the shape of the seed thesis's Tables 4.1 (nodes) and
// 4.2 (time). The configurations and the choices behind them are in
// lab/timing/ablation.h.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/meta.h"
#include "lab/common/progress.h"
#include "lab/records/json.h"
#include "lab/timing/ablation.h"

namespace xq::cli {
namespace {

struct AblationArgs {
  std::string suite = lab::common::default_suite_path(), depths = "4..7", csv;
  std::vector<std::string> configs;
  BackendArgs backend;
  std::uint64_t nodes = 0;
  int repeat = 1;
  std::size_t positions = 0;
  bool json = false, progress = false, quiet = false;
  std::string profile = "thesis";
};

using CellValue = double (*)(const lab::timing::AblationCell&);

void print_table(const std::vector<lab::timing::AblationRow>& rows, const char* title, CellValue value,
                 const char* fmt) {
  std::printf("\n%s\n%-26s", title, "configuration");
  for (const lab::timing::AblationCell& c : rows.front().cells)
    std::printf(" %13s", ("depth " + std::to_string(c.depth)).c_str());
  std::printf("\n");
  for (const lab::timing::AblationRow& r : rows) {
    std::printf("%-26s", r.config->label.c_str());
    for (const lab::timing::AblationCell& c : r.cells) {
      char buf[32] = "-";
      const double x = value(c);
      if (c.complete() && x > 0) std::snprintf(buf, sizeof buf, fmt, x);
      std::printf(" %13s", buf);
    }
    std::printf("\n");
  }
}

void write_csv(std::FILE* out, const std::vector<lab::timing::AblationRow>& rows) {
  std::fprintf(out, "config,label,algorithm,features,depth,positions,avg_nodes,avg_qnodes,avg_ms,"
               "nps,node_reduction_vs_%s\n", rows.front().config->name.c_str());
  for (const lab::timing::AblationRow& r : rows)
    for (const lab::timing::AblationCell& c : r.cells) {
      std::fprintf(out, "%s,\"%s\",%s,\"%s\",%d,", r.config->name.c_str(),
                   r.config->label.c_str(), algorithm_name(r.config->algorithm),
                   r.config->features.to_string().c_str(), c.depth);
      if (!c.complete()) std::fprintf(out, "0,,,,,\n");
      else
        std::fprintf(out, "%d,%.1f,%.1f,%.3f,%.0f,%.2f\n", c.positions, c.avg_nodes(),
                     c.avg_qnodes(), c.avg_ms(), c.nps(), c.node_reduction);
    }
}

void print_text(const AblationArgs& a, const lab::timing::AblationSettings& s, std::size_t positions,
                const std::vector<lab::timing::AblationRow>& rows) {
  std::printf("ablation: %zu positions from %s; backend %s, hash %s %zu MiB; "
              "averages per position, iterative deepening from depth 1%s\n",
              positions, a.suite.c_str(), s.backend.c_str(), s.backend_config.hash.c_str(),
              s.backend_config.hash_mib, s.repeat > 1 ? "; time = median of repeats" : "");
  print_table(rows, "average nodes per position", [](const lab::timing::AblationCell& c) { return c.avg_nodes(); }, "%.0f");
  print_table(rows, "average milliseconds per position", [](const lab::timing::AblationCell& c) { return c.avg_ms(); }, "%.1f");
  std::printf("\nnode reduction against %s: nodes(%s) / nodes(configuration)",
              rows.front().config->label.c_str(), rows.front().config->label.c_str());
  print_table(rows, "", [](const lab::timing::AblationCell& c) { return c.node_reduction; }, "%.1fx");
  print_table(rows, "nodes per second (summed nodes / summed time)", [](const lab::timing::AblationCell& c) { return c.nps(); }, "%.0f");
  int incomplete = 0;
  for (const lab::timing::AblationRow& r : rows) incomplete += r.incomplete;
  if (incomplete)
    std::printf("\n%d searches hit the node limit; '-' marks depths not reached by every "
                "position\n", incomplete);
}

int run(const AblationArgs& a) {
  lab::timing::AblationSettings s;
  s.depths = lab::timing::parse_depths(a.depths);
  std::vector<const lab::timing::AblationConfig*> configs;
  const auto& defaults = a.profile == "modern" ? lab::timing::modern_ablation_configs()
                                               : lab::timing::ablation_configs();
  for (const lab::timing::AblationConfig& c : defaults)
    if (a.configs.empty()) configs.push_back(&c);
  for (const std::string& name : a.configs) configs.push_back(&lab::timing::find_ablation_config(name));
  s.backend = a.backend.backend;
  s.backend_config = backend_config(a.backend);
  s.node_limit = a.nodes;
  s.repeat = a.repeat;
  std::vector<lab::common::SuiteEntry> suite = lab::common::load_suite(a.suite);
  if (a.positions) suite.resize(std::min(suite.size(), a.positions));
  // One unit per configuration (all positions, all repeats); --progress adds
  // a line per search.
  lab::common::Progress progress("ablation", configs.size(), a.quiet);
  const std::size_t per_config = suite.size() * std::size_t(std::max(1, s.repeat));
  std::size_t searches = 0;
  s.on_search = [&](const lab::timing::AblationConfig& c, const lab::common::SuiteEntry& e, const SearchResult& r) {
    if (a.progress) {
      progress.clear();
      std::fprintf(stderr, "%s  %s  depth %d  nodes %llu  %.0f ms%s\n", c.name.c_str(),
                   e.name.c_str(), r.depth, static_cast<unsigned long long>(r.stats.nodes),
                   r.seconds * 1000.0, r.stopped ? "  (node limit)" : "");
    }
    if (++searches % per_config == 0) progress.done(c.name);
    else progress.working(c.name + "  " + e.name);
  };
  (void)make_backend(s.backend, s.backend_config);  // reject a bad backend before any work
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> csv(nullptr, std::fclose);
  if (!a.csv.empty()) {
    csv.reset(std::fopen(a.csv.c_str(), "w"));
    if (!csv) throw UsageError("cannot write --csv file '" + a.csv + "'");
  }
  const std::vector<lab::timing::AblationRow> rows = lab::timing::run_ablation(suite, configs, s);
  progress.finish();
  if (csv) write_csv(csv.get(), rows);
  if (!a.json) {
    print_text(a, s, suite.size(), rows);
    return 0;
  }
  Json j{{"meta", lab::common::run_meta(invocation())}, {"suite", a.suite}, {"positions", suite.size()}};
  j.update(lab::records::backend_json(s.backend, s.backend_config));
  j.update(Json{{"repeat", s.repeat}, {"node_limit", s.node_limit}, {"rows", rows}});
  print_json(j);
  return 0;
}

}  // namespace

Command add_ablation(CLI::App& root) {
  auto a = std::make_shared<AblationArgs>();
  a->backend.hash_mb = 32;
  CLI::App* app = root.add_subcommand("ablation", "the serial engine's feature ablation "
                                                  "(nodes and time per configuration)");
  app->add_option("--suite", a->suite, "position suite (CSV with a fen column)")
      ->capture_default_str();
  app->add_option("--depths", a->depths, "depths: 4..7 or 4,5,7")->capture_default_str();
  app->add_option("--configs", a->configs, "configurations, comma-separated (default: the "
                  "--profile's rows)")->delimiter(',');
  app->add_option("--profile", a->profile, "the default rows: thesis (the thesis's nine "
                  "configurations) or modern (the thesis profile, it plus each modern feature "
                  "alone, the modern profile)")
      ->check(CLI::IsMember({"thesis", "modern"}))->capture_default_str();
  add_backend_options(app, a->backend);
  app->add_option("--nodes", a->nodes, "node limit per search")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62));
  app->add_option("--repeat", a->repeat, "runs per search (time is the median)")
      ->check(CLI::Range(1, 99))->capture_default_str();
  app->add_option("--positions", a->positions, "use only the suite's first N positions")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
  app->add_option("--csv", a->csv, "write the table to this file");
  app->add_flag("--json", a->json, "one JSON object on stdout");
  app->add_flag("--progress", a->progress, "one line per search on stderr");
  app->add_flag("--quiet", a->quiet, "no progress on stderr");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
