#include "cli/lab_print.h"

#include <cstdio>
#include <thread>

#include "cli/options.h"
#include "lab/json.h"
#include "parallel/params.h"

namespace xq::cli {

void print_lab_text(const lab::LabSettings& s, std::size_t positions,
                    const std::vector<lab::LabSummary>& rows) {
  std::printf("xqlab lab: %zu positions from %s, depth %d, median of %d run%s, %zu MiB table\n",
              positions, s.suite_path.c_str(), s.depth, s.runs, s.runs == 1 ? "" : "s",
              s.base.hash_mib);
  std::printf("backend parameters:");
  for (const BackendParam& p : backend_params())
    std::printf(" %s=%s", std::string(p.name).c_str(), p.value_text(s.base).c_str());
  std::printf("\n");
  std::printf("T = median over runs of the time summed over positions; S = T(serial, 1 thread,"
              " same hash) / T (ratio of summed times);\nE = S / threads; SO = nodes / serial"
              " nodes; S spread = min/median/max of per-position speedups; agree = best move as"
              " serial's\n\n");
  std::printf("%-10s %-11s %3s %9s %8s %6s %5s %12s %6s %10s %6s %9s %9s %6s %17s\n", "backend",
              "hash", "thr", "T (s)", "ms/pos", "S", "E", "nodes", "SO", "nps", "tthit",
              "splits", "aborts", "agree", "S min/med/max");
  for (const lab::LabSummary& r : rows) {
    std::printf(
        "%-10s %-11s %3d %9.3f %8.1f %6.3f %5.2f %12.0f %6.3f %10.0f %5.1f%% %9.0f %9.0f %5.1f%% "
        "%5.2f/%5.2f/%5.2f\n",
        r.config.backend.c_str(), r.config.hash.c_str(), r.config.threads, r.seconds,
        r.ms_per_position, r.speedup, r.efficiency, r.nodes, r.overhead, r.nps,
        100.0 * r.tt_hit_rate, r.splits, r.aborts, r.agreement, r.spread_min, r.spread_median,
        r.spread_max);
  }
  const std::string note = lab::oversubscription_note(s);
  if (!note.empty()) std::printf("\n%s\n", note.c_str());
}

Json lab_json(const lab::LabSettings& s, std::size_t positions,
              const std::vector<lab::LabSummary>& rows) {
  const std::string note = lab::oversubscription_note(s);
  Json j{{"suite", s.suite_path},
         {"positions", positions},
         {"depth", s.depth},
         {"runs", s.runs},
         {"hash_mb", s.base.hash_mib},
         {"cores", std::thread::hardware_concurrency()},
         {"speedup_definition", "ratio of summed times, median over runs"},
         {"note", note.empty() ? Json() : Json(note)},
         {"params", lab::backend_json("", s.base)["params"]},
         {"results", rows}};
  return j;
}

}  // namespace xq::cli
