// The lab's report: medians over runs, ratios against the serial reference,
// and the text / JSON tables (definitions in cli/lab.h).
#include <algorithm>
#include <cstdio>
#include <thread>

#include "cli/args.h"
#include "cli/lab.h"

namespace xq::cli {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

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

}  // namespace

std::vector<LabSummary> summarise(const LabSettings& s, std::size_t positions,
                                  const std::vector<LabRun>& runs) {
  const std::vector<Sums> sums = collect(s, positions, runs);
  std::vector<LabSummary> out(s.configs.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    LabSummary& o = out[i];
    const Sums& x = sums[i];
    o.config = s.configs[i];
    for (std::size_t j = 0; j < s.configs.size() && o.reference < 0; ++j)
      if (s.configs[j].backend == "serial" && s.configs[j].threads == 1 &&
          s.configs[j].hash == o.config.hash)
        o.reference = int(j);
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
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    LabSummary& o = out[i];
    if (o.reference < 0) continue;
    const LabSummary& ref = out[std::size_t(o.reference)];
    o.speedup = o.seconds > 0 ? ref.seconds / o.seconds : 0;
    o.efficiency = o.speedup / o.config.threads;
    o.overhead = ref.nodes > 0 ? o.nodes / ref.nodes : 0;
    std::vector<double> spread;
    const Sums& x = sums[i];
    const Sums& rx = sums[std::size_t(o.reference)];
    for (std::size_t p = 0; p < positions; ++p) {
      const double t = median(x.position_seconds[p]);
      if (t > 0) spread.push_back(median(rx.position_seconds[p]) / t);
    }
    if (!spread.empty()) {
      o.spread_min = *std::min_element(spread.begin(), spread.end());
      o.spread_max = *std::max_element(spread.begin(), spread.end());
      o.spread_median = median(spread);
    }
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

void print_lab_text(const LabSettings& s, std::size_t positions,
                    const std::vector<LabSummary>& rows) {
  std::printf("xqlab lab: %zu positions from %s, depth %d, median of %d run%s, %zu MiB table\n",
              positions, s.suite_path.c_str(), s.depth, s.runs, s.runs == 1 ? "" : "s",
              s.hash_mib);
  std::printf("T = median over runs of the time summed over positions; S = T(serial, 1 thread,"
              " same hash) / T (ratio of summed times);\nE = S / threads; SO = nodes / serial"
              " nodes; S spread = min/median/max of per-position speedups; agree = best move as"
              " serial's\n\n");
  std::printf("%-10s %-11s %3s %9s %8s %6s %5s %12s %6s %10s %6s %9s %9s %6s %17s\n", "backend",
              "hash", "thr", "T (s)", "ms/pos", "S", "E", "nodes", "SO", "nps", "tthit",
              "splits", "aborts", "agree", "S min/med/max");
  for (const LabSummary& r : rows) {
    std::printf(
        "%-10s %-11s %3d %9.3f %8.1f %6.3f %5.2f %12.0f %6.3f %10.0f %5.1f%% %9.0f %9.0f %5.1f%% "
        "%5.2f/%5.2f/%5.2f\n",
        r.config.backend.c_str(), r.config.hash.c_str(), r.config.threads, r.seconds,
        r.ms_per_position, r.speedup, r.efficiency, r.nodes, r.overhead, r.nps,
        100.0 * r.tt_hit_rate, r.splits, r.aborts, r.agreement, r.spread_min, r.spread_median,
        r.spread_max);
  }
  const std::string note = oversubscription_note(s);
  if (!note.empty()) std::printf("\n%s\n", note.c_str());
}

void print_lab_json(const LabSettings& s, std::size_t positions,
                    const std::vector<LabSummary>& rows) {
  const std::string note = oversubscription_note(s);
  std::printf("{\"suite\": \"%s\", \"positions\": %zu, \"depth\": %d, \"runs\": %d, "
              "\"hash_mb\": %zu, \"cores\": %u, \"speedup_definition\": \"ratio of summed "
              "times, median over runs\", \"note\": %s, \"results\": [",
              json_escape(s.suite_path).c_str(), positions, s.depth, s.runs, s.hash_mib,
              std::thread::hardware_concurrency(),
              note.empty() ? "null" : ("\"" + json_escape(note) + "\"").c_str());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const LabSummary& r = rows[i];
    std::printf(
        "%s\n  {\"backend\": \"%s\", \"hash\": \"%s\", \"threads\": %d, \"seconds\": %.6f, "
        "\"ms_per_position\": %.3f, \"speedup\": %.4f, \"efficiency\": %.4f, \"nodes\": %.0f, "
        "\"search_overhead\": %.4f, \"nps\": %.0f, \"tt_hits\": %.0f, \"tt_hit_rate\": %.4f, "
        "\"splits\": %.0f, \"joins\": %.0f, \"aborts\": %.0f, \"bestmove_agreement\": %.2f, "
        "\"speedup_min\": %.4f, \"speedup_median\": %.4f, \"speedup_max\": %.4f}",
        i ? "," : "", json_escape(r.config.backend).c_str(), json_escape(r.config.hash).c_str(),
        r.config.threads, r.seconds, r.ms_per_position, r.speedup, r.efficiency, r.nodes,
        r.overhead, r.nps, r.tt_hits, r.tt_hit_rate, r.splits, r.joins, r.aborts, r.agreement,
        r.spread_min, r.spread_median, r.spread_max);
  }
  std::printf("\n]}\n");
}

}  // namespace xq::cli
