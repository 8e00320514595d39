// The terminal summary of a report's inputs (lab/report/report.h).
#include <cmath>
#include <map>

#include "lab/report/report.h"
#include "lab/report/report_parts.h"
#include "lab/report/svg.h"

namespace xq::lab::report {
namespace {

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
  out.push_back("lab: " + std::to_string(results.size()) + " configurations, depth " +
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
    out.push_back("best at " + std::to_string(t) + (t == 1 ? " thread: " : " threads: ") +
                  str(*r, "backend") + "/" + str(*r, "hash") + ", speedup " +
                  fixed(num(*r, "speedup"), 2) + " (per position " +
                  fixed(num(*r, "speedup_min"), 2) + " to " + fixed(num(*r, "speedup_max"), 2) + ")");
}

// Fewest corrupt entries accepted per operation, then the highest
// throughput; the deliberately unsafe baseline never qualifies.
std::string safest_scheme(const std::vector<const Json*>& runs) {
  const Json* pick = nullptr;
  auto rate = [](const Json& d) { return num(d, "corrupt_accepted") / num(d, "ops"); };
  for (const Json* d : runs) {
    if (d->value("unprotected", false) || str(*d, "hash") == "unprotected") continue;
    if (std::isnan(rate(*d))) continue;
    if (!pick || rate(*d) < rate(*pick) ||
        (rate(*d) == rate(*pick) && num(*d, "ops_per_sec") > num(*pick, "ops_per_sec")))
      pick = d;
  }
  if (!pick) return "safest fast hash scheme: no protected scheme among the stress inputs";
  std::string line = "safest fast hash scheme: " + str(*pick, "hash") + " (" +
                     svg::table_number(1e8 * rate(*pick), 3) + " corrupt accepted per 1e8 ops, " +
                     svg::short_number(num(*pick, "ops_per_sec")) + " ops/s";
  for (const Json* u : runs)
    if (str(*u, "hash") == "unprotected" && str(*u, "threads") == str(*pick, "threads"))
      line += ", " + fixed(100.0 * num(*pick, "ops_per_sec") / num(*u, "ops_per_sec"), 0) +
              "% of unprotected";
  return line + ")";
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
      if (kind == "stress" && str(d, "mode") != "marks") stress.push_back(&d);
    }
  if (!lab) out.push_back("lab: no lab input");
  out.push_back(stress.empty() ? "safest fast hash scheme: no stress input"
                               : safest_scheme(stress));
  return out;
}

}  // namespace xq::lab::report
