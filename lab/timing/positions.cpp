#include "lab/timing/positions.h"

#include <algorithm>

#include "lab/common/stats.h"

namespace xq::lab::timing {
namespace {

struct Cell {
  std::vector<double> seconds, nodes;  // one per run, in run order
};

Json ratio(double num, double den) { return num > 0 && den > 0 ? Json(num / den) : Json(); }

Json position_json(std::size_t index, const common::SuiteEntry& e, const Cell& c,
                   const Cell* ref) {
  const double t = common::median(c.seconds);
  const double lo = c.seconds.empty() ? 0 : *std::min_element(c.seconds.begin(), c.seconds.end());
  const double hi = c.seconds.empty() ? 0 : *std::max_element(c.seconds.begin(), c.seconds.end());
  const double serial = ref ? common::median(ref->seconds) : 0;
  Json j{{"index", index},
         {"name", e.name},
         {"fen", e.pos.fen()},
         {"serial_seconds", ref ? Json(serial) : Json()},
         {"seconds", t},
         {"seconds_min", lo},
         {"seconds_max", hi},
         {"speedup", ref ? ratio(serial, t) : Json()},
         {"speedup_min", ref ? ratio(serial, hi) : Json()},
         {"speedup_max", ref ? ratio(serial, lo) : Json()},
         {"nodes", common::median(c.nodes)}};
  if (c.seconds.size() > 1) {
    j["run_seconds"] = c.seconds;
    j["run_nodes"] = c.nodes;
  }
  return j;
}

}  // namespace

std::vector<Json> position_figures(const LabSettings& s,
                                   const std::vector<common::SuiteEntry>& suite,
                                   const std::vector<LabRun>& runs) {
  std::vector<std::vector<Cell>> cells(s.configs.size(), std::vector<Cell>(suite.size()));
  // Runs arrive in run order (lab/timing/runner.h), so each cell's vectors are too.
  for (const LabRun& r : runs) {
    Cell& c = cells[std::size_t(r.config)][std::size_t(r.position)];
    c.seconds.push_back(r.seconds);
    c.nodes.push_back(double(r.result.stats.nodes));
  }
  const std::vector<int> refs = reference_configs(s.configs);
  std::vector<Json> out;
  for (std::size_t ci = 0; ci < s.configs.size(); ++ci) {
    Json a = Json::array();
    for (std::size_t p = 0; p < suite.size(); ++p) {
      const Cell* ref = refs[ci] >= 0 ? &cells[std::size_t(refs[ci])][p] : nullptr;
      a.push_back(position_json(p, suite[p], cells[ci][p], ref));
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace xq::lab::timing
