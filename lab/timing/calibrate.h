// `xqlab sim-calibrate`: measures a machine's costs for the simulated
// machine (parallel/sim/machine.h) and returns them as a profile
// (lab/timing/simulation.h), each cost with how it was measured:
//  * node, qnode: serial searches of a suite (each position `repeats` times,
//    its fastest time kept), time = node x interior nodes + qnode x
//    quiescence nodes fitted by least squares through the origin; when the
//    fit is degenerate (a cost <= 0: the two counts move together), one
//    cost per node of either kind;
//  * publish, join: the split pool's snapshot copies (parallel/split/common.h
//    Snapshot::take and ::give), timed over many copies;
//  * lock: an uncontended std::mutex lock and unlock;
//  * wake: half the round trip of waking a parked pool helper for a job and
//    waiting for it to park again (parallel/thread_pool.h);
//  * fork, barrier: half each of an empty OpenMP parallel region at the
//    backends' largest thread count measured (2 here, so this machine's
//    figure is kept for every p: the simulator does not grow it with p);
//  * idle_poll: two uncontended locks (a look for work takes a split
//    point's lock to join it) and a pause;
//  * idle_timeout: the real back-off's sleep, 50 us (a constant of the code);
//  * slice: the operating system's time slice, the median run of three busy
//    threads sharing one core for a second (the scheduler's tick here);
//  * jitter (a fraction, not a time): how far a thread's speed in nodes per
//    second strays from the fit with the tree it searches -- the standard
//    deviation of the positions' relative residuals about their mean, times
//    sqrt(3) (the half-width of the uniform spread with that deviation, the
//    simulator's per-thread factor 1 +- jitter). Two threads of a shared-table
//    backend search different trees, so their speeds differ by about this.
//    Needs 4 positions; fewer keep the built-in value.
// Beside it, not a cost: thread_noise, how far two threads' speeds differ
// on the same work (machine noise alone) -- the same serial search in two
// threads at once, per position and repeat; the root mean square of the
// log time ratio over sqrt(2) (one thread's share), times sqrt(3) (on the
// jitter's scale). Needs two cores.
// And, as checks of the time-slicing model's assumptions (no cost): how
// late a thread sleeping 50 us wakes beside a busy thread on its core and
// alone (the model lets a woken, less-served thread take the core at once:
// wake-up preemption); and what a yield beside a busy thread on its core
// costs (the model's idle threads yield their core: machine.h).
// Every time is the median of `batches` batches.
#pragma once

#include <string>
#include <vector>

#include "lab/common/suite.h"
#include "lab/timing/simulation.h"

namespace xq::lab::timing {

struct CalibrationLine {
  std::string cost;    // a cost name of the profile
  double value_ns = 0;
  std::string how;     // how it was measured, with its sample
};

struct Calibration {
  SimSettings profile;
  std::vector<CalibrationLine> lines;
  std::vector<CalibrationLine> checks;  // measured assumptions, not costs
  double fit_r2 = 0;  // of the node-cost fit
  std::string jitter_how;  // how the profile's jitter was measured
  double thread_noise = -1;  // machine noise on the jitter's scale (-1: not measured)
  std::string thread_noise_how;
  int positions = 0;
};

Calibration calibrate(const std::vector<common::SuiteEntry>& suite, Depth depth, int repeats,
                      int batches);

}  // namespace xq::lab::timing
