#include "cli/lab_print.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "cli/options.h"
#include "parallel/params.h"

namespace xq::cli {

namespace {

// The `thr` column: threads, or R x T for a distributed backend's R ranks
// of T threads each.
std::string thr(const lab::timing::LabSummary& r) {
  const std::string t = std::to_string(r.config.threads);
  return r.ranks > 0 ? std::to_string(r.ranks) + "x" + t : t;
}

// The `backend` column: the backend, then the values of its own parameters
// (a --vary configuration: "ybwc:all").
std::string row_name(const lab::timing::LabSummary& r) {
  std::string s = r.config.backend;
  for (std::size_t i = 0; i < r.config.params.size(); ++i) {
    const std::string& p = r.config.params[i];
    s += (i == 0 ? ":" : ",") + p.substr(p.find('=') + 1);
  }
  return s;
}

std::string percent(bool known, double share) {
  if (!known) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * share);
  return buf;
}

// Where the threads' time went and what the speedup lost to what
// (lab/timing/summary.h states the decomposition), with the CPU each configuration
// really got.
void print_time_shares(const std::vector<lab::timing::LabSummary>& rows) {
  std::printf("\nthread time (summed over threads and runs; '-': not measured by the backend);"
              " loss = share of the thread time p x T lost to idle, sync (lock + copy) and"
              " search overhead,\nso that S = p x (1 - idle - sync - overhead) with summed"
              " times; cpu = CPU got / (wall x threads), median over runs; contested: some run"
              " got < %.0f%% of the CPU it wanted\n", 100.0 * lab::timing::kContestedShare);
  std::printf("%-13s %-11s %5s %7s %7s %7s %7s %12s %7s %7s %8s %5s %5s %s\n", "backend", "hash",
              "thr", "search", "idle", "lock", "copy", "wasted", "L.idle", "L.sync", "L.ovhd",
              "cpu", "load", "");
  for (const lab::timing::LabSummary& r : rows) {
    const double all = r.time_search + r.time_idle + r.time_lock + r.time_copy;
    const bool t = r.timed && all > 0;
    const double load = r.cpu_runs.empty() ? -1 : r.cpu_runs.front().load_average;
    std::printf("%-13s %-11s %5s %7s %7s %7s %7s %12s %7s %7s %8s %4.0f%% %5.2f %s\n",
                row_name(r).c_str(), r.config.hash.c_str(), thr(r).c_str(),
                percent(t, r.time_search / all).c_str(), percent(t, r.time_idle / all).c_str(),
                percent(t, r.time_lock / all).c_str(), percent(t, r.time_copy / all).c_str(),
                t ? std::to_string(std::llround(r.wasted_nodes)).c_str() : "-",
                percent(r.has_loss, r.loss_idle).c_str(), percent(r.has_loss, r.loss_sync).c_str(),
                percent(r.has_loss, r.loss_overhead).c_str(), 100.0 * r.cpu_share, load,
                r.contested ? "CONTESTED: speedup not clean" : "");
  }
}

// The paired per-run speedups (lab/timing/summary.h defines them).
void print_paired(const std::vector<lab::timing::LabSummary>& rows) {
  std::printf("\npaired S = T(serial) / T of the same run (configurations alternate within a run),"
              " median [min, max] over runs\n");
  std::printf("%-13s %-11s %5s %21s\n", "backend", "hash", "thr", "paired S med [min, max]");
  for (const lab::timing::LabSummary& r : rows) {
    char paired[64] = "-";
    if (!r.run_speedups.empty())
      std::snprintf(paired, sizeof paired, "%.3f [%.3f, %.3f]", r.paired_median, r.paired_min,
                    r.paired_max);
    std::printf("%-13s %-11s %5s %21s\n", row_name(r).c_str(), r.config.hash.c_str(),
                thr(r).c_str(), paired);
  }
}

// The declared counters (search/counters.h), one table per group: the rows
// that show the group, a column per counter as its Show says (the median
// over runs of the sum over positions, then per search, per second, over
// another counter, as a share of the threads' time, or the serial nodes
// over it), and a legend of what each counts.
void print_counters(const std::vector<lab::timing::LabSummary>& rows) {
  namespace common = lab::common;
  std::vector<std::vector<common::CounterFigure>> all;
  for (const lab::timing::LabSummary& r : rows) all.push_back(r.counters);
  for (const std::string& g : common::counter_groups(all)) {
    const std::vector<common::CounterFigure> head = common::group_columns(all, g);
    std::printf("\ncounters: %s (sums over positions, median over runs; '-': unknown)\n",
                g.c_str());
    std::printf("%-13s %-11s %5s", "backend", "hash", "thr");
    for (const common::CounterFigure& h : head) {
      const std::string t = common::counter_heading(h);
      std::printf(" %*s", int(std::max<std::size_t>(10, t.size())), t.c_str());
    }
    std::printf("\n");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const lab::timing::LabSummary& r = rows[i];
      if (std::none_of(r.counters.begin(), r.counters.end(),
                       [&](const common::CounterFigure& f) { return f.group == g; }))
        continue;
      std::printf("%-13s %-11s %5s", row_name(r).c_str(), r.config.hash.c_str(),
                  thr(r).c_str());
      for (const common::CounterFigure& h : head) {
        const std::string cell = common::cell_of(r.counters, h.name);
        std::printf(" %*s", int(std::max<std::size_t>(10, common::counter_heading(h).size())),
                    cell.empty() ? "-" : cell.c_str());
      }
      // The round trips' times beside the group that counts round trips.
      if (r.has_round_trips() && std::any_of(head.begin(), head.end(), [](const auto& h) {
            return h.unit == "round trips";
          }))
        std::printf("  round trips p50 %.0f us, p99 %.0f us", r.round_trip_p50_us,
                    r.round_trip_p99_us);
      std::printf("\n");
    }
    for (const common::CounterFigure& h : head)
      std::printf("  %s: %s\n", h.name.c_str(), h.meaning.c_str());
  }
}

// Work W (nodes), critical path C and parallelism W / C for the backends
// that count C, and Kuszmaul's T = a W / P + b C fitted over their runs.
void print_work_span(const std::vector<lab::timing::LabSummary>& rows,
                     const std::vector<lab::timing::WorkSpanFit>& fits) {
  bool any = false;
  for (const lab::timing::LabSummary& r : rows) any = any || r.has_span();
  if (!any) return;
  std::printf("\nwork W = nodes of every thread, critical path C = the longest chain of nodes"
              " searched one after another, K = split points on it (summed over positions,"
              " median over runs); burdened W/(C+Kb), b = one split point's publish and join"
              " in nodes\n");
  std::printf("%-13s %-11s %5s %12s %12s %8s %8s %6s %10s\n", "backend", "hash", "thr", "W", "C",
              "W/C", "K", "b", "W/(C+Kb)");
  for (const lab::timing::LabSummary& r : rows)
    if (r.has_span())
      std::printf("%-13s %-11s %5s %12.0f %12.0f %8.1f %8.0f %6.2f %10.1f\n",
                  row_name(r).c_str(), r.config.hash.c_str(), thr(r).c_str(), r.nodes,
                  r.critical_path, r.parallelism, r.critical_splits, r.burden_nodes,
                  r.burdened_parallelism);
  if (fits.empty()) return;
  std::printf("Kuszmaul's model T = a W/P + b C, W and C in serial seconds (least squares over"
              " every search; StarTech on a CM-5: a = 1.02, b = 1.5)\n");
  for (const lab::timing::WorkSpanFit& f : fits) {
    std::string threads;
    for (int t : f.threads) threads += (threads.empty() ? "" : ",") + std::to_string(t);
    std::printf("%-13s %-11s threads %-9s a = %.3f  b = %.3f  R^2 = %.3f  (%d searches)\n",
                f.backend.c_str(), f.hash.c_str(), threads.c_str(), f.a, f.b, f.r2, f.samples);
  }
}

}  // namespace

std::string suite_text(const lab::timing::LabSettings& s) {
  return s.suite_half == "all" ? s.suite_path : s.suite_path + " (" + s.suite_half + " half)";
}

void print_lab_text(const lab::timing::LabSettings& s, std::size_t positions,
                    const std::vector<lab::timing::LabSummary>& rows,
                    const std::vector<lab::timing::WorkSpanFit>& fits) {
  if (s.sim) std::printf("%s\n", lab::timing::sim_banner(*s.sim, s.runs).c_str());
  std::printf("xqlab lab%s: %zu positions from %s, depth %d, %s profile, median of %d %s%s, "
              "%zu MiB table\n",
              s.sim ? " (SIMULATED, virtual time)" : "", positions, suite_text(s).c_str(), s.depth,
              profile_name(s.features).c_str(), s.runs, s.sim ? "seed" : "run",
              s.runs == 1 ? "" : "s", s.base.hash_mib);
  std::printf("backend parameters:");
  for (const BackendParam& p : backend_params())
    std::printf(" %s=%s", std::string(p.name).c_str(), p.value_text(s.base).c_str());
  std::printf("\n");
  std::printf("T = median over runs of the time summed over positions; S = T(serial, 1 thread,"
              " same hash) / T (ratio of summed times);\nE = S / processors (threads, times ranks for a distributed backend; thr R x T: R ranks of T threads); SO = nodes / serial"
              " nodes; S spread = min/median/max of per-position speedups; agree = best move as"
              " serial's\n\n");
  std::printf("%-13s %-11s %5s %9s %8s %6s %5s %12s %6s %10s %6s %9s %9s %6s %17s\n", "backend",
              "hash", "thr", "T (s)", "ms/pos", "S", "E", "nodes", "SO", "nps", "tthit",
              "splits", "aborts", "agree", "S min/med/max");
  for (const lab::timing::LabSummary& r : rows) {
    std::printf(
        "%-13s %-11s %5s %9.3f %8.1f %6.3f %5.2f %12.0f %6.3f %10.0f %5.1f%% %9.0f %9.0f %5.1f%% "
        "%5.2f/%5.2f/%5.2f\n",
        row_name(r).c_str(), r.config.hash.c_str(), thr(r).c_str(), r.seconds,
        r.ms_per_position, r.speedup, r.efficiency, r.nodes, r.overhead, r.nps,
        100.0 * r.tt_hit_rate, r.splits, r.aborts, r.agreement, r.spread_min, r.spread_median,
        r.spread_max);
  }
  print_time_shares(rows);
  print_paired(rows);
  print_work_span(rows, fits);
  print_counters(rows);
  const std::string note = lab::timing::oversubscription_note(s);
  if (!note.empty()) std::printf("\n%s\n", note.c_str());
}

lab::timing::LabSettings lab_settings(const std::string& suite, int depth, int runs) {
  lab::timing::LabSettings s;
  s.suite_path = suite;
  s.depth = Depth(depth);
  s.runs = runs;
  return s;
}

lab::timing::LabSettings lab_settings(const std::string& suite, int depth, int runs,
                                      std::size_t hash_mb, const std::vector<std::string>& params) {
  lab::timing::LabSettings s = lab_settings(suite, depth, runs);
  s.base.hash_mib = hash_mb;
  apply_params(s.base, params);
  return s;
}

void print_lab_groups(const lab::timing::LabSettings& s, const std::string& column,
                      const std::vector<lab::timing::GroupSummary>& groups) {
  std::printf("\n%sby %s: each group's figures over its positions alone (its own serial reference"
              " and paired runs); idle = L.idle, the share of the thread time p x T spent idle\n",
              s.sim ? "SIMULATED " : "", column.c_str());
  for (const lab::timing::GroupSummary& g : groups) {
    std::printf("%s = %s: %zu position%s\n", column.c_str(), g.label.c_str(), g.positions.size(),
                g.positions.size() == 1 ? "" : "s");
    std::printf("  %-13s %-11s %5s %7s %21s %7s %7s\n", "backend", "hash", "thr", "S",
                "paired S med [min, max]", "SO", "idle");
    for (const lab::timing::LabSummary& r : g.rows) {
      if (r.reference < 0) continue;
      char paired[64] = "-";
      if (!r.run_speedups.empty())
        std::snprintf(paired, sizeof paired, "%.3f [%.3f, %.3f]", r.paired_median, r.paired_min,
                      r.paired_max);
      std::printf("  %-13s %-11s %5s %7.3f %21s %7.3f %7s\n", row_name(r).c_str(),
                  r.config.hash.c_str(), thr(r).c_str(), r.speedup, paired, r.overhead,
                  percent(r.has_loss, r.loss_idle).c_str());
    }
  }
}

}  // namespace xq::cli
