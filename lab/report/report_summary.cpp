// The terminal summary of a report's inputs (lab/report/report.h).
#include <cmath>
#include <map>
#include <set>

#include "lab/common/verdict.h"
#include "lab/report/report.h"
#include "lab/report/report_parts.h"
#include "lab/report/svg.h"

namespace xq::lab::report {
namespace {

using common::and_list;
using common::FastestVerdict;
using common::fastest;
using common::kMinSamples;
using common::Samples;

using report::num;
using report::str;

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

void lab_lines(const Json& doc, std::vector<std::string>& out) {
  const Json& results = doc["results"];
  const Json& meta = doc.value("meta", Json::object());
  // A simulated lab's figures are virtual time: every line of them says so.
  const std::string mode = str(doc, "mode") == "simulated" ? "SIMULATED " : "";
  out.push_back(mode + "lab: " + std::to_string(results.size()) + " configurations, depth " +
                str(doc, "depth") + ", " + str(doc, "runs") +
                (str(doc, "runs") == "1" ? " run, " : " runs, ") + str(doc, "positions") +
                " positions (" + (meta.empty() ? "no meta" : str(meta, "date") + ", " +
                                                                  str(meta, "commit")) + ")");
  std::map<int, const Json*> best;  // by thread count
  for (const Json& r : results) {
    const double s = num(r, "speedup");
    if (std::isnan(s)) continue;
    const int t = int(num(r, "threads"));
    if (!best.count(t) || s > num(*best[t], "speedup")) best[t] = &r;
  }
  for (const auto& [t, r] : best)
    out.push_back(mode + "best at " + std::to_string(t) + (t == 1 ? " thread: " : " threads: ") +
                  str(*r, "backend") + "/" + str(*r, "hash") + ", speedup " +
                  fixed(num(*r, "speedup"), 2) + " (per position " +
                  fixed(num(*r, "speedup_min"), 2) + " to " + fixed(num(*r, "speedup_max"), 2) + ")");
}

// "median 45.2M ops/s (36.0M-51.9M over 5 rounds)", or one round's figure.
std::string throughput_text(const Json& m) {
  const int rounds = int(num(m, "rounds"));
  if (rounds <= 1) return svg::short_number(num(m, "ops_per_sec")) + " ops/s (1 round)";
  return "median " + svg::short_number(num(m, "ops_per_sec")) + " ops/s (" +
         svg::short_number(num(m, "ops_per_sec_min")) + "-" +
         svg::short_number(num(m, "ops_per_sec_max")) + " over " + std::to_string(rounds) +
         " rounds)";
}

// Among the protected schemes (never the deliberately unsafe baseline, nor
// a scheme whose key check is shorter than the key: it admits false matches
// by design, whatever a short stress run happened to meet), those
// with the fewest corrupt entries accepted per operation (all rounds pooled);
// of them the fastest by median throughput when the rounds can tell it
// (lab/verdict.h), else "undecided between" the ones they cannot separate.
std::string safest_scheme(const std::vector<const Json*>& docs) {
  std::vector<Json> runs;
  for (const Json* d : docs) runs.push_back(*d);
  const std::vector<Json> merged = report::merge_stress_rounds(runs);
  auto rate = [](const Json& d) { return num(d, "corrupt_accepted") / num(d, "ops"); };
  auto baseline = [](const Json& d) {
    return d.value("unprotected", false) || str(d, "hash") == "unprotected";
  };
  auto unsafe = [&](const Json& d) { return baseline(d) || d.value("key_bits", 64) < 64; };
  std::vector<const Json*> safest;
  for (const Json& m : merged) {
    if (unsafe(m) || std::isnan(rate(m))) continue;
    if (!safest.empty() && rate(m) > rate(*safest.front())) continue;
    if (!safest.empty() && rate(m) < rate(*safest.front())) safest.clear();
    safest.push_back(&m);
  }
  if (safest.empty()) return "safest fast hash scheme: no protected scheme among the stress inputs";
  std::set<std::string> thread_counts;
  for (const Json* m : safest) thread_counts.insert(str(*m, "threads"));
  auto label = [&](const Json& m) {
    std::string s = str(m, "hash");
    if (thread_counts.size() > 1) s.append("/").append(str(m, "threads")).append("t");
    return s;
  };
  std::vector<Samples> samples;
  for (const Json* m : safest)
    samples.push_back({label(*m), m->value("ops_per_sec_samples", std::vector<double>{})});
  const FastestVerdict v = fastest(samples);
  const std::string errors = svg::table_number(1e8 * rate(*safest.front()), 3) +
                             " corrupt accepted per 1e8 ops";
  if (v.decided()) {
    const Json& pick = *safest[v.ranking.front()];
    std::string line = "safest fast hash scheme: " + label(pick) + " (" + errors + ", " +
                       throughput_text(pick);
    for (const Json& u : merged) {
      if (!baseline(u) || str(u, "threads") != str(pick, "threads")) continue;
      line += ", " + fixed(100.0 * num(pick, "ops_per_sec") / num(u, "ops_per_sec"), 0) +
              "% of unprotected's median";
      // Not the price of protection alone when the buckets differ in width.
      const std::string ours = str(pick, "bucket_slots"), theirs = str(u, "bucket_slots");
      if (!ours.empty() && !theirs.empty() && ours != theirs)
        line += " (" + ours + " entries per bucket to its " + theirs + ")";
    }
    return line + ")";
  }
  std::vector<std::string> names;
  std::string figures;
  for (std::size_t k = 0; k < v.contenders; ++k) {
    const Json& m = *safest[v.ranking[k]];
    names.push_back(label(m));
    figures += "; " + label(m) + " " + throughput_text(m);
  }
  return "safest fast hash scheme: undecided between " + and_list(names) + " (" + errors +
         figures + (v.too_few_samples ? "; too few rounds to tell them apart, " +
                                            std::to_string(kMinSamples) + " needed"
                                      : "; the spread covers the difference") + ")";
}

}  // namespace

std::vector<std::string> report_summary(const std::vector<ReportInput>& inputs) {
  std::vector<std::string> out;
  std::vector<const Json*> stress;
  bool lab = false;
  for (const ReportInput& in : inputs)
    for (const Json& d : in.docs) {
      const std::string kind = document_kind(d);
      if (kind == "lab" && !lab) {
        lab_lines(d, out);
        lab = true;
      }
      // Entry-mode runs (older documents name no mode).
      if (kind == "stress" && str(d, "mode") != "marks" && str(d, "mode") != "false-matches")
        stress.push_back(&d);
    }
  if (!lab) out.push_back("lab: no lab input");
  out.push_back(stress.empty() ? "safest fast hash scheme: no stress input"
                               : safest_scheme(stress));
  return out;
}

}  // namespace xq::lab::report
