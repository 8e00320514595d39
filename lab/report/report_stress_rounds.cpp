// merge_stress_rounds (lab/report_parts.h): repeated stress runs as one.
#include <cmath>
#include <map>

#include "lab/report/report_parts.h"
#include "lab/common/verdict.h"

namespace xq::lab::report {

using common::Spread;
using common::spread_of;

std::vector<Json> merge_stress_rounds(const std::vector<Json>& runs) {
  std::vector<Json> merged;
  std::vector<std::vector<double>> samples;
  std::map<std::string, std::size_t> index;
  for (const Json& d : runs) {
    const std::string key = str(d, "hash") + "|" + str(d, "threads") + "|" + str(d, "entries") +
                            "|" + str(d, "replace");
    const auto [it, fresh] = index.emplace(key, merged.size());
    if (fresh) {
      merged.push_back(d);
      samples.emplace_back();
      for (const char* k : {"ops", "seconds", "probes", "stores", "hits", "torn_detected",
                            "corrupt_accepted"})
        if (merged.back().contains(k)) merged.back()[k] = 0.0;
    }
    Json& m = merged[it->second];
    for (const char* k : {"ops", "seconds", "probes", "stores", "hits", "torn_detected",
                          "corrupt_accepted"})
      if (m.contains(k) && !std::isnan(num(d, k))) m[k] = num(m, k) + num(d, k);
    if (const double v = num(d, "ops_per_sec"); !std::isnan(v)) samples[it->second].push_back(v);
  }
  for (std::size_t i = 0; i < merged.size(); ++i) {
    Json& m = merged[i];
    const Spread s = spread_of(samples[i]);
    m["rounds"] = s.n;
    m["ops_per_sec_samples"] = samples[i];
    if (s.n == 0) continue;
    m["ops_per_sec"] = s.median;
    m["ops_per_sec_min"] = s.min;
    m["ops_per_sec_max"] = s.max;
    if (m.contains("hits") && num(m, "hits") > 0)
      m["corrupt_per_million_hits"] = 1e6 * num(m, "corrupt_accepted") / num(m, "hits");
  }
  return merged;
}

}  // namespace xq::lab::report
