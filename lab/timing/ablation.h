// The ablation study of the seed thesis's Tables 4.1/4.2: one position suite,
// several search configurations (an algorithm and a feature set each), nodes
// and time to each depth averaged over the suite.
//
// Choices (the thesis does not pin them down; docs/journal/2026-11-22.md (serial engine) repeats them):
//  * Quiescence and check extension are on in every configuration, so only the
//    named enhancements vary; "AB" is alpha-beta with quiescence, nothing else.
//  * Aspiration windows are off everywhere (no configuration names them);
//    the extra configuration "default" is the engine as shipped (all features).
//  * "MTD(f)" without "+TT" has no table at all: every null-window pass is a
//    fresh alpha-beta search, which is what MTD(f) degenerates to without
//    memory. It is listed because the thesis lists it; expect it to lose.
//  * "ordering" is MVV-LVA + two killers + history; "+TT" is the table with
//    cutoffs and its move searched first.
//  * Every search is iterative deepening from depth 1 (the only driver), so
//    "nodes to depth d" includes iterations 1..d; one search to the deepest
//    requested depth gives every shallower figure through the per-iteration
//    report (iteration d does not depend on the depth limit).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/common/suite.h"
#include "parallel/backend.h"
#include "search/options.h"

namespace xq::lab::timing {

struct AblationConfig {
  std::string name;   // as given to --configs and printed
  std::string label;  // the thesis's row name
  Algorithm algorithm;
  Features features;
};

// The nine rows of Tables 4.1/4.2 in the thesis's order.
const std::vector<AblationConfig>& ablation_configs();
// The modern profile's default rows: "thesis" (the thesis profile), "+X"
// (it plus the modern feature X alone, for each of the thirteen), "modern".
const std::vector<AblationConfig>& modern_ablation_configs();
// The nine, extras ("default": PVS, the thesis profile; "ab+mvvlva"), the
// modern rows above, and "modern-X" (the modern profile less X) for each X.
const std::vector<AblationConfig>& all_ablation_configs();
// Throws std::invalid_argument listing the known names.
const AblationConfig& find_ablation_config(const std::string& name);

// "4..7" or "4,5,7": sorted, unique, each in [1, kMaxDepth];
// std::invalid_argument otherwise.
std::vector<Depth> parse_depths(const std::string& text);

struct AblationCell {
  Depth depth = 0;
  int positions = 0;        // positions that completed this depth
  std::uint64_t nodes = 0;  // summed over those positions
  std::uint64_t qnodes = 0;
  double ms = 0;            // summed (each the median over repeats)
  double node_reduction = 0;  // nodes(first row) / nodes; 0 when either is missing
  bool complete() const { return positions > 0; }
  double avg_nodes() const { return positions ? double(nodes) / positions : 0; }
  double avg_qnodes() const { return positions ? double(qnodes) / positions : 0; }
  double avg_ms() const { return positions ? ms / positions : 0; }
  double nps() const { return ms > 0 ? double(nodes) / (ms / 1000.0) : 0; }
};

struct AblationRow {
  const AblationConfig* config = nullptr;
  std::vector<AblationCell> cells;  // one per requested depth
  int incomplete = 0;               // searches cut short by the node limit
};

struct AblationSettings {
  std::vector<Depth> depths;
  std::string backend = "serial";
  BackendConfig backend_config;
  std::uint64_t node_limit = 0;  // per search; 0 = none
  int repeat = 1;                // runs per search; time is the median
  // Called after every search (a progress line), when set.
  std::function<void(const AblationConfig&, const common::SuiteEntry&, const SearchResult&)>
      on_search;
};

// Runs every configuration on every position (backend->clear() before each
// search). A depth counts only when every position completed it; when the
// node limit cuts any search short, that depth and deeper are left empty.
// Node reductions are against the first configuration.
std::vector<AblationRow> run_ablation(const std::vector<common::SuiteEntry>& suite,
                                      const std::vector<const AblationConfig*>& configs,
                                      const AblationSettings& settings);

// {"depth", "complete", then when complete "positions", "avg_nodes",
// "avg_qnodes", "avg_ms", "nps", "node_reduction"}.
void to_json(Json& j, const AblationCell& c);
// {"config", "label", "algorithm", "features", "incomplete_searches", "depths"}.
void to_json(Json& j, const AblationRow& r);

}  // namespace xq::lab::timing
