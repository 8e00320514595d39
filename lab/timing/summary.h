// The lab's report over the runs of lab/timing/runner.h, in the shape of the seed
// thesis's Tables 4.3 (time, speedup, efficiency) and 4.4 (nodes, search
// overhead, TT hits). Definitions (DESIGN.md §5), all against the serial
// backend at one thread with the same hash scheme:
//  * T(c)  = median over runs of the time summed over the suite's positions;
//  * S(c)  = T(serial) / T(c): a ratio of summed times, so long positions
//            weigh more than short ones; the per-position spread (median time
//            per position, min/median/max of the per-position speedups) is
//            reported beside it;
//  * E(c)  = S(c) / threads;  SO(c) = nodes(c) / nodes(serial), nodes being
//            the median over runs of the summed node counts;
//  * agreement = share of (position, run) searches whose best move equals
//            the serial backend's first-run best move;
//  * paired S = T_k(serial) / T_k(c) for each run k: the runner interleaves
//            the configurations position by position, so each position's
//            two times were taken seconds apart, while S compares medians
//            that may come from different runs. On a machine whose speed
//            drifts between runs the paired figures are the steadier ones;
//            their median, min and max are reported beside S.
// Where the time goes (split backends, which account their threads' time,
// parallel/split_timing.h): over all runs and positions, the thread time
// p x sum(T) is search + idle + lock + copy. With E' = sum(T_serial) /
// (p x sum(T)) (E from summed rather than median times):
//     1 - E' = idle / (p sum T) + (lock + copy) / (p sum T) + overhead,
// so S' = p x (1 - loss.idle - loss.sync - loss.overhead), where overhead is
// the rest: thread time spent searching beyond the serial search's time
// (more nodes, and slower nodes). The quantities Hyatt's DTS paper and
// Crafty's SMP statistics report.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lab/common/counter_figures.h"
#include "lab/timing/runner.h"

namespace xq::lab::timing {

// CPU the process got against what it asked for. cpu_share = cpu / (wall x
// threads). A search wanted wall x threads minus the idle time its backend
// measured (an idle helper may sleep), at least one thread's wall time; it is
// contested when it got less than kContestedShare of that, at thread counts
// the machine's cores can serve (above them every run is short by design).
inline constexpr double kContestedShare = 0.9;
double cpu_share(double cpu_seconds, double wall_seconds, int threads);
bool contested(double cpu_seconds, double wall_seconds, int threads, double idle_seconds);

// One run (pass over the suite) of one configuration: summed wall and CPU
// time, the mean load average at its searches' starts.
struct RunCpu {
  int run = 0;
  double seconds = 0, cpu_seconds = 0, cpu_share = 0, load_average = -1;
  bool contested = false;
};

using common::CounterFigure;

struct LabSummary {
  LabConfig config;
  // The processors the configuration ran on: its threads, times its ranks
  // for a distributed backend (mpi-lazy: `ranks` ranks of `threads` each);
  // efficiency, CPU share and thread time are per processor.
  int processors = 1;
  int ranks = 0;  // a distributed backend's ranks (`threads` is then per rank); 0: not one
  int reference = -1;  // config index of its serial reference
  double seconds = 0;  // T: median over runs of the summed time
  double ms_per_position = 0;  // median over positions of the median time
  double speedup = 0, efficiency = 0;
  double spread_min = 0, spread_median = 0, spread_max = 0;  // per-position S
  double nodes = 0, overhead = 0, nps = 0;
  double tt_hits = 0, tt_hit_rate = 0;
  // The table's fill at the end of a search, in permille (UCI "hashfull"),
  // median over searches; -1 when no search could say.
  double hashfull = -1;
  double splits = 0, joins = 0, aborts = 0;
  double agreement = 0;  // percent
  // Paired per-run speedups (above), in run order; empty without a reference.
  std::vector<double> run_speedups;
  double paired_median = 0, paired_min = 0, paired_max = 0;
  // Thread time in seconds, summed over threads, positions and runs; timed
  // when the backend accounts it.
  bool timed = false;
  double time_search = 0, time_idle = 0, time_lock = 0, time_copy = 0;
  double wasted_nodes = 0;  // median over runs of the summed count
  // Speedup-loss shares of the thread time (above); has_loss when timed and
  // a serial reference exists.
  bool has_loss = false;
  double loss_idle = 0, loss_sync = 0, loss_overhead = 0;
  std::vector<RunCpu> cpu_runs;
  double cpu_share = 0;   // median over runs
  bool contested = false;  // some run was
  // Work and critical path (Kuszmaul; backends that count C): median over
  // runs of the summed critical paths in nodes, and the parallelism W / C
  // with W = nodes (summed over positions).
  double critical_path = 0, parallelism = 0;
  bool has_span() const { return critical_path > 0; }
  // The burdened parallelism (Cilkview's burdened span, parallel/work_span.h):
  // W / (C + K b), K the split points on the critical path (the counter
  // critical_splits, summed like C) and b one split point's publish and
  // join in nodes: (publish + join) / node of the simulated machine's costs
  // when simulated, else of the calibrated profile of this project's
  // machine kind (data/sim/epyc-2c.json; the built-in costs without it).
  double critical_splits = 0, burden_nodes = 0, burdened_parallelism = 0;
  // The round trips of a distributed backend's remote claims
  // (SearchResult::round_trips): p50 and p99 over every search of every run.
  double round_trip_p50_us = 0, round_trip_p99_us = 0;
  bool has_round_trips() const { return round_trip_p50_us > 0; }
  // The declared counters (search/counters.h) of the groups its backend
  // declares, and of any other group a run moved, in the registry's order.
  std::vector<CounterFigure> counters;
};

// Kuszmaul's model of a task-parallel search's time, T = a W / P + b C,
// fitted by least squares (no intercept) over every search of one backend
// and hash at every thread count the lab ran, with W and C converted from
// nodes to seconds at the serial reference's seconds per node, so that a and
// b are dimensionless (Kuszmaul's StarTech: a = 1.02, b = 1.5 on a CM-5).
// r2: the share of the times' variance about zero that the fit explains.
struct WorkSpanFit {
  std::string backend, hash;
  std::vector<int> threads;  // the thread counts fitted
  int samples = 0;
  double seconds_per_node = 0;
  double a = 0, b = 0, r2 = 0;
};
std::vector<WorkSpanFit> fit_work_span(const LabSettings& s, const std::vector<LabRun>& runs);
// b of LabSummary::burdened_parallelism: one split point's burden in nodes.
double split_burden_nodes(const sim::Costs& c);
double split_burden_nodes(const LabSettings& s);

std::vector<LabSummary> summarise(const LabSettings& s, std::size_t positions,
                                  const std::vector<LabRun>& runs);

// The same figures per group of positions (`xqlab lab --by COLUMN`): one
// group per distinct label, in the order of first appearance; labels[i] is
// position i's. Each group's figures are summarise() over its positions
// alone (its own serial reference, its own paired runs). Throws
// std::invalid_argument when labels and positions differ in number.
struct GroupSummary {
  std::string label;
  std::vector<int> positions;  // indices into the suite
  std::vector<LabSummary> rows;
};
std::vector<GroupSummary> summarise_by(const LabSettings& s, const std::vector<std::string>& labels,
                                       const std::vector<LabRun>& runs);

// The note on thread counts above the machine's cores ("" when none is).
std::string oversubscription_note(const LabSettings& s);

// What an interrupted run is missing: one line per configuration with a
// search missing from `runs`, "LABEL: N of M searches (run 2: positions
// 9-16; run 3: all)", runs and positions counted from 1.
std::vector<std::string> missing_searches(const LabSettings& s, std::size_t positions,
                                          const std::vector<LabRun>& runs);

}  // namespace xq::lab::timing
