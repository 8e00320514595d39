// xqlab ablation: nodes and time to depth per search configuration over a
// position suite, in the shape of the seed thesis's Tables 4.1 (nodes) and
// 4.2 (time). The configurations and the choices behind them are in
// cli/ablation.h.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "cli/ablation.h"
#include "cli/args.h"
#include "cli/commands.h"

#ifndef XQLAB_DATA_DIR
#define XQLAB_DATA_DIR "data"
#endif

namespace xq::cli {
namespace {

double avg_nodes(const AblationCell& c) { return c.positions ? double(c.nodes) / c.positions : 0; }
double avg_qnodes(const AblationCell& c) { return c.positions ? double(c.qnodes) / c.positions : 0; }
double avg_ms(const AblationCell& c) { return c.positions ? c.ms / c.positions : 0; }
double nps(const AblationCell& c) { return c.ms > 0 ? double(c.nodes) / (c.ms / 1000.0) : 0; }
// nodes(first row) / nodes(this row) at the same depth; 0 when either is missing.
double ratio(const AblationCell& base, const AblationCell& c) {
  return base.complete() && c.complete() && c.nodes ? double(base.nodes) / double(c.nodes) : 0;
}

void print_table(const std::vector<AblationRow>& rows, const std::vector<Depth>& depths,
                 const char* title, double (*value)(const AblationCell&), const char* fmt) {
  std::printf("\n%s\n%-26s", title, "configuration");
  for (Depth d : depths) std::printf(" %13s", ("depth " + std::to_string(d)).c_str());
  std::printf("\n");
  for (const AblationRow& r : rows) {
    std::printf("%-26s", r.config->label.c_str());
    for (const AblationCell& c : r.cells) {
      if (!c.complete()) {
        std::printf(" %13s", "-");
        continue;
      }
      char buf[32];
      std::snprintf(buf, sizeof buf, fmt, value(c));
      std::printf(" %13s", buf);
    }
    std::printf("\n");
  }
}

void print_ratios(const std::vector<AblationRow>& rows, const std::vector<Depth>& depths) {
  std::printf("\nnode reduction against %s: nodes(%s) / nodes(configuration)\n%-26s",
              rows.front().config->label.c_str(), rows.front().config->label.c_str(),
              "configuration");
  for (Depth d : depths) std::printf(" %13s", ("depth " + std::to_string(d)).c_str());
  std::printf("\n");
  for (const AblationRow& r : rows) {
    std::printf("%-26s", r.config->label.c_str());
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const double x = ratio(rows.front().cells[i], r.cells[i]);
      if (x > 0) std::printf(" %12.1fx", x);
      else std::printf(" %13s", "-");
    }
    std::printf("\n");
  }
}

void write_csv(std::FILE* out, const std::vector<AblationRow>& rows,
               const std::vector<Depth>& depths) {
  std::fprintf(out,
               "config,label,algorithm,features,depth,positions,avg_nodes,avg_qnodes,avg_ms,nps,"
               "node_reduction_vs_%s\n",
               rows.front().config->name.c_str());
  for (const AblationRow& r : rows)
    for (std::size_t i = 0; i < depths.size(); ++i) {
      const AblationCell& c = r.cells[i];
      std::fprintf(out, "%s,\"%s\",%s,\"%s\",%d,", r.config->name.c_str(), r.config->label.c_str(),
                   algorithm_name(r.config->algorithm), r.config->features.to_string().c_str(),
                   depths[i]);
      if (!c.complete()) {
        std::fprintf(out, "0,,,,,\n");
        continue;
      }
      std::fprintf(out, "%d,%.1f,%.1f,%.3f,%.0f,%.2f\n", c.positions, avg_nodes(c),
                   avg_qnodes(c), avg_ms(c), nps(c), ratio(rows.front().cells[i], c));
    }
}

void print_json(const std::string& suite, std::size_t positions, const AblationSettings& s,
                const std::vector<AblationRow>& rows) {
  std::printf("{\"suite\": \"%s\", \"positions\": %zu, \"backend\": \"%s\", \"hash\": \"%s\", "
              "\"hash_mib\": %zu, \"threads\": %d, \"repeat\": %d, \"node_limit\": %llu, "
              "\"rows\": [",
              json_escape(suite).c_str(), positions, s.backend.c_str(),
              s.backend_config.hash.c_str(), s.backend_config.hash_mib, s.backend_config.threads,
              s.repeat, static_cast<unsigned long long>(s.node_limit));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const AblationRow& row = rows[r];
    std::printf("%s\n  {\"config\": \"%s\", \"label\": \"%s\", \"algorithm\": \"%s\", "
                "\"features\": \"%s\", \"incomplete_searches\": %d, \"depths\": [",
                r ? "," : "", row.config->name.c_str(), row.config->label.c_str(),
                algorithm_name(row.config->algorithm), row.config->features.to_string().c_str(),
                row.incomplete);
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const AblationCell& c = row.cells[i];
      std::printf("%s{\"depth\": %d, ", i ? ", " : "", s.depths[i]);
      if (!c.complete()) {
        std::printf("\"complete\": false}");
        continue;
      }
      std::printf("\"complete\": true, \"positions\": %d, \"avg_nodes\": %.1f, "
                  "\"avg_qnodes\": %.1f, \"avg_ms\": %.3f, \"nps\": %.0f, "
                  "\"node_reduction\": %.3f}",
                  c.positions, avg_nodes(c), avg_qnodes(c), avg_ms(c), nps(c),
                  ratio(rows.front().cells[i], c));
    }
    std::printf("]}");
  }
  std::printf("\n]}\n");
}

}  // namespace

int cmd_ablation(const Argv& argv) {
  const Args args(argv,
                  {"suite", "depths", "configs", "csv", "backend", "hash", "hash-mib", "threads",
                   "node-limit", "repeat", "positions"},
                  {"json", "progress"});
  const std::string suite_path = args.get("suite", std::string(XQLAB_DATA_DIR) + "/openings.csv");
  AblationSettings s;
  s.depths = parse_depths(args.get("depths", "4..7"));
  std::vector<const AblationConfig*> configs;
  std::vector<std::string> default_names;
  for (const AblationConfig& c : ablation_configs()) default_names.push_back(c.name);
  for (const std::string& name : args.get_list("configs", default_names))
    configs.push_back(&find_ablation_config(name));
  s.backend = args.get("backend", "serial");
  s.backend_config.hash = args.get("hash", "xor");
  s.backend_config.hash_mib = std::size_t(args.get_int("hash-mib", 32, 1, 1 << 16));
  s.backend_config.threads = int(args.get_int("threads", 1, 1, 1024));
  s.node_limit = std::uint64_t(args.get_int("node-limit", 0, 0, std::int64_t(1) << 62));
  s.repeat = int(args.get_int("repeat", 1, 1, 99));
  s.progress = args.has("progress");
  std::vector<SuiteEntry> suite = load_suite(suite_path);
  if (args.has("positions"))
    suite.resize(std::min(suite.size(),
                          std::size_t(args.get_int("positions", 0, 1, 1 << 20))));
  try {
    (void)make_backend(s.backend, s.backend_config);  // reject a bad backend before any work
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  std::FILE* csv = nullptr;
  if (args.has("csv")) {
    csv = std::fopen(args.get("csv").c_str(), "w");
    if (!csv) throw UsageError("cannot write --csv file '" + args.get("csv") + "'");
  }

  const std::vector<AblationRow> rows = run_ablation(suite, configs, s);

  if (csv) {
    write_csv(csv, rows, s.depths);
    std::fclose(csv);
  }
  if (args.has("json")) {
    print_json(suite_path, suite.size(), s, rows);
    return 0;
  }
  std::printf("ablation: %zu positions from %s; backend %s, hash %s %zu MiB; "
              "averages per position, iterative deepening from depth 1%s\n",
              suite.size(), suite_path.c_str(), s.backend.c_str(), s.backend_config.hash.c_str(),
              s.backend_config.hash_mib, s.repeat > 1 ? "; time = median of repeats" : "");
  print_table(rows, s.depths, "average nodes per position", avg_nodes, "%.0f");
  print_table(rows, s.depths, "average milliseconds per position", avg_ms, "%.1f");
  print_ratios(rows, s.depths);
  print_table(rows, s.depths, "nodes per second (summed nodes / summed time)", nps, "%.0f");
  int incomplete = 0;
  for (const AblationRow& r : rows) incomplete += r.incomplete;
  if (incomplete)
    std::printf("\n%d searches hit the node limit; '-' marks depths not reached by every "
                "position\n", incomplete);
  return 0;
}

}  // namespace xq::cli
