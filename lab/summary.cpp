#include "lab/summary.h"

#include <algorithm>
#include <thread>

#include "lab/stats.h"

namespace xq::lab {
namespace {

// Per configuration: sums over positions for each run, and times per position
// for each run.
struct Sums {
  std::vector<double> seconds, nodes, tt_hits, tt_probes, splits, joins, aborts;
  std::vector<std::vector<double>> position_seconds;  // [position][run]
  int agree = 0, searches = 0;
};

std::vector<Sums> collect(const LabSettings& s, std::size_t positions,
                          const std::vector<LabRun>& runs) {
  std::vector<Sums> sums(s.configs.size());
  for (Sums& x : sums) {
    for (auto* v : {&x.seconds, &x.nodes, &x.tt_hits, &x.tt_probes, &x.splits, &x.joins,
                    &x.aborts})
      v->assign(std::size_t(s.runs), 0.0);
    x.position_seconds.assign(positions, {});
  }
  for (const LabRun& r : runs) {
    Sums& x = sums[std::size_t(r.config)];
    const std::size_t k = std::size_t(r.run);
    const SearchStats& st = r.result.stats;
    x.seconds[k] += r.seconds;
    x.nodes[k] += double(st.nodes);
    x.tt_hits[k] += double(st.tt_hits);
    x.tt_probes[k] += double(st.tt_probes);
    x.splits[k] += double(st.splits);
    x.joins[k] += double(st.joins);
    x.aborts[k] += double(st.aborts);
    x.position_seconds[std::size_t(r.position)].push_back(r.seconds);
    x.agree += r.agrees;
    ++x.searches;
  }
  return sums;
}

LabSummary own_figures(const LabConfig& c, int reference, const Sums& x) {
  LabSummary o;
  o.config = c;
  o.reference = reference;
  o.seconds = median(x.seconds);
  o.nodes = median(x.nodes);
  o.nps = o.seconds > 0 ? o.nodes / o.seconds : 0;
  o.tt_hits = median(x.tt_hits);
  const double probes = median(x.tt_probes);
  o.tt_hit_rate = probes > 0 ? o.tt_hits / probes : 0;
  o.splits = median(x.splits);
  o.joins = median(x.joins);
  o.aborts = median(x.aborts);
  o.agreement = x.searches ? 100.0 * x.agree / x.searches : 0;
  std::vector<double> per_position;
  for (const auto& t : x.position_seconds) per_position.push_back(median(t));
  o.ms_per_position = 1000.0 * median(per_position);
  return o;
}

void ratios(LabSummary& o, const LabSummary& ref, const Sums& x, const Sums& rx) {
  o.speedup = o.seconds > 0 ? ref.seconds / o.seconds : 0;
  o.efficiency = o.speedup / o.config.threads;
  o.overhead = ref.nodes > 0 ? o.nodes / ref.nodes : 0;
  std::vector<double> spread;
  for (std::size_t p = 0; p < x.position_seconds.size(); ++p) {
    const double t = median(x.position_seconds[p]);
    if (t > 0) spread.push_back(median(rx.position_seconds[p]) / t);
  }
  if (spread.empty()) return;
  o.spread_min = *std::min_element(spread.begin(), spread.end());
  o.spread_max = *std::max_element(spread.begin(), spread.end());
  o.spread_median = median(spread);
}

}  // namespace

std::vector<LabSummary> summarise(const LabSettings& s, std::size_t positions,
                                  const std::vector<LabRun>& runs) {
  const std::vector<Sums> sums = collect(s, positions, runs);
  const std::vector<int> refs = reference_configs(s.configs);
  std::vector<LabSummary> out;
  for (std::size_t i = 0; i < s.configs.size(); ++i)
    out.push_back(own_figures(s.configs[i], refs[i], sums[i]));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int ref = out[i].reference;
    if (ref >= 0) ratios(out[i], out[std::size_t(ref)], sums[i], sums[std::size_t(ref)]);
  }
  return out;
}

std::string oversubscription_note(const LabSettings& s) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  for (const LabConfig& c : s.configs)
    if (c.threads > int(cores))
      return "note: thread counts above " + std::to_string(cores) +
             " cores measure overhead, not speed";
  return "";
}

}  // namespace xq::lab
