#include "lab/timing/calibrate.h"

#include <omp.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>

#include "hashing/cpu_relax.h"
#include "parallel/split/common.h"
#include "parallel/thread_pool.h"

namespace xq::lab::timing {
namespace {

using Clock = std::chrono::steady_clock;

// Median over `batches` of the nanoseconds per call of fn() over n calls.
template <class Fn>
double per_call_ns(int batches, int n, Fn&& fn) {
  std::vector<double> v;
  for (int b = 0; b < batches; ++b) {
    const Clock::time_point t0 = Clock::now();
    for (int i = 0; i < n; ++i) fn();
    v.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / n);
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

sim::Time ps(double ns) { return sim::Time(std::llround(ns * 1000.0)); }

// Puts the calling thread on core `cpu` alone; false if it cannot.
bool pin_to_cpu(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}

// The operating system's time slice: three busy threads on one core, each
// noting when another of them ran since its last look (a run ended); the
// median run, in ns. 0 when the threads cannot be put on one core.
double measure_slice_ns(double seconds) {
  const int cpu = sched_getcpu();
  if (cpu < 0) return 0;
  std::atomic<int> owner{-1};
  std::atomic<bool> pinned_all{true};
  std::vector<std::vector<double>> runs(3);
  const Clock::time_point end =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i)
    threads.emplace_back([&, i] {
      if (!pin_to_cpu(cpu)) {
        pinned_all.store(false);
        return;
      }
      Clock::time_point begin{}, last{};
      bool running = false;
      for (Clock::time_point t = Clock::now(); t < end; t = Clock::now()) {
        if (owner.load(std::memory_order_relaxed) != i) {
          if (running) runs[std::size_t(i)].push_back(std::chrono::duration<double, std::nano>(last - begin).count());
          owner.store(i, std::memory_order_relaxed);
          begin = t;
          running = true;
        }
        last = t;
      }
    });
  for (std::thread& t : threads) t.join();
  std::vector<double> all;
  for (const auto& r : runs) all.insert(all.end(), r.begin(), r.end());
  if (!pinned_all.load() || all.size() < 9) return 0;
  std::sort(all.begin(), all.end());
  return all[all.size() / 2];
}

// Runs probe() on the calling thread's core beside `busy` threads spinning
// there (once they all run); false when a thread could not be put on that
// core (the probe's figures then mean nothing).
template <class Fn>
bool beside_busy_on_one_core(int busy, Fn&& probe) {
  const int cpu = sched_getcpu();
  if (cpu < 0) return false;
  std::atomic<bool> stop{false}, pinned{true};
  std::atomic<int> running{0};
  std::vector<std::thread> load;
  for (int i = 0; i < busy; ++i)
    load.emplace_back([&] {
      if (!pin_to_cpu(cpu)) pinned.store(false);
      running.fetch_add(1);
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  std::thread prober([&] {
    if (!pin_to_cpu(cpu)) pinned.store(false);
    while (running.load() < busy && pinned.load()) std::this_thread::yield();
    probe();
  });
  prober.join();
  stop.store(true);
  for (std::thread& t : load) t.join();
  return pinned.load();
}

// How late a thread that sleeps 50 us wakes (median over 300 sleeps, with
// 20 us of work between them), on one core beside `busy` busy threads.
// Negative when the threads cannot be put on one core.
double wake_lateness_ns(int busy) {
  std::vector<double> late;
  const bool one_core = beside_busy_on_one_core(busy, [&] {
    const std::chrono::microseconds nap(50), work(20);
    for (int i = 0; i < 300; ++i) {
      const Clock::time_point t0 = Clock::now();
      std::this_thread::sleep_for(nap);
      late.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0 - nap).count());
      for (const Clock::time_point t1 = Clock::now(); Clock::now() - t1 < work;) {
      }
    }
  });
  if (!one_core) return -1;
  std::sort(late.begin(), late.end());
  return late[late.size() / 2];
}

// A thread that yields its core 300 times beside a busy thread on the same
// core: the mean time of one yield, in ns, and the share of the yields that
// kept it off the core for more than 1 ms (gave the core away for a slice).
// Negative when the threads cannot be put on one core.
struct YieldProbe {
  double mean_ns = -1;
  double long_share = 0;
};
YieldProbe yield_beside_busy() {
  YieldProbe out;
  const bool one_core = beside_busy_on_one_core(1, [&] {
    constexpr int kYields = 300;
    int long_ones = 0;
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < kYields; ++i) {
      const Clock::time_point t0 = Clock::now();
      std::this_thread::yield();
      long_ones += Clock::now() - t0 > std::chrono::milliseconds(1);
    }
    out.mean_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kYields;
    out.long_share = double(long_ones) / kYields;
  });
  return one_core ? out : YieldProbe{};
}

// One serial search's wall time, in seconds.
double serial_seconds(const Position& pos, Depth depth, SearchStats* stats = nullptr) {
  BackendConfig c;
  c.hash = "xor";
  c.hash_mib = 16;
  auto serial = make_backend("serial", c);
  SearchOptions o;
  o.limits.depth = depth;
  Observer silent;
  const Clock::time_point t0 = Clock::now();
  const SearchResult res = serial->search(pos, o, silent);
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (stats) *stats = res.stats;
  return s;
}

// Machine noise: the same serial search in two threads at once, started
// together (each with its own table), `repeats` times per position; the
// root mean square of ln(t0 / t1) over the pairs. Nothing (pairs 0) with
// fewer than two cores.
struct TwinNoise {
  double rms = 0;
  double median = 0;   // of |ln(t0 / t1)|
  double largest = 0;  // ... and its largest
  int pairs = 0;
};

TwinNoise twin_noise(const std::vector<common::SuiteEntry>& suite, Depth depth, int repeats) {
  TwinNoise out;
  if (std::thread::hardware_concurrency() < 2) return out;
  std::vector<double> logs;
  for (const common::SuiteEntry& e : suite)
    for (int r = 0; r < repeats; ++r) {
      double secs[2] = {0, 0};
      std::atomic<int> ready{0};
      const auto run = [&](int i) {
        ready.fetch_add(1);
        while (ready.load() < 2) cpu_relax();
        secs[i] = serial_seconds(e.pos, depth);
      };
      std::thread other(run, 1);
      run(0);
      other.join();
      if (secs[0] <= 0 || secs[1] <= 0) continue;
      logs.push_back(std::abs(std::log(secs[0] / secs[1])));
    }
  out.pairs = int(logs.size());
  if (logs.empty()) return out;
  double sum = 0;
  for (double l : logs) sum += l * l;
  out.rms = std::sqrt(sum / double(logs.size()));
  std::sort(logs.begin(), logs.end());
  out.median = logs[logs.size() / 2];
  out.largest = logs.back();
  return out;
}

}  // namespace

Calibration calibrate(const std::vector<common::SuiteEntry>& suite, Depth depth, int repeats,
                      int batches) {
  Calibration out;
  SimSettings& p = out.profile;
  out.positions = int(suite.size());

  // Node costs: serial searches, the fastest of `repeats` per position.
  std::vector<double> t, interior, quiet;
  for (const common::SuiteEntry& e : suite) {
    double best = 1e300;
    SearchStats stats;
    for (int r = 0; r < repeats; ++r) {
      SearchStats st;
      const double s = serial_seconds(e.pos, depth, &st);
      if (s < best) {
        best = s;
        stats = st;
      }
    }
    t.push_back(best * 1e9);  // ns
    quiet.push_back(double(stats.qnodes));
    interior.push_back(double(stats.nodes - stats.qnodes));
  }
  // Least squares through the origin: t = a I + b Q.
  double ii = 0, iq = 0, qq = 0, ti = 0, tq = 0, tt = 0, sum_t = 0, sum_n = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    ii += interior[k] * interior[k];
    iq += interior[k] * quiet[k];
    qq += quiet[k] * quiet[k];
    ti += t[k] * interior[k];
    tq += t[k] * quiet[k];
    tt += t[k] * t[k];
    sum_t += t[k];
    sum_n += interior[k] + quiet[k];
  }
  const double det = ii * qq - iq * iq;
  double a = 0, b = 0;
  bool fitted = false;
  if (std::abs(det) > 1e-9 * ii * qq) {
    a = (ti * qq - tq * iq) / det;
    b = (tq * ii - ti * iq) / det;
    fitted = a > 0 && b > 0;
  }
  if (!fitted) a = b = sum_t / sum_n;
  double ss_res = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double e = t[k] - a * interior[k] - b * quiet[k];
    ss_res += e * e;
  }
  const double mean = sum_t / double(t.size());
  const double ss_tot = tt - double(t.size()) * mean * mean;
  out.fit_r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 0.0;
  p.costs.node = ps(a);
  p.costs.qnode = ps(b);
  char how[256];
  std::snprintf(how, sizeof how,
                "serial searches of %zu positions at depth %d, fastest of %d each; least squares "
                "%s (R^2 %.4f)",
                suite.size(), int(depth), repeats,
                fitted ? "on interior and quiescence nodes" : "degenerate: one cost per node",
                out.fit_r2);
  out.lines.push_back({"node", a, how});
  out.lines.push_back({"qnode", b, how});

  // Speed jitter: the spread of the positions' relative residuals.
  std::vector<double> rel;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double model = a * interior[k] + b * quiet[k];
    if (model > 0) rel.push_back(t[k] / model - 1.0);
  }
  if (rel.size() >= 4) {
    double m = 0, v = 0;
    for (double r : rel) m += r;
    m /= double(rel.size());
    for (double r : rel) v += (r - m) * (r - m);
    const double sd = std::sqrt(v / double(rel.size()));
    p.costs.jitter = std::min(0.5, sd * std::sqrt(3.0));
    std::snprintf(how, sizeof how,
                  "the node-cost fit's relative residuals over %zu positions: sd %.4f about their "
                  "mean %+.4f, times sqrt(3)",
                  rel.size(), sd, m);
    out.jitter_how = how;
  } else {
    out.jitter_how = "not measured (fewer than 4 positions with nodes): the built-in value";
  }

  // Machine noise, beside the jitter: two threads' speeds on the same work
  // at once, on the jitter's scale.
  const TwinNoise twins = twin_noise(suite, depth, repeats);
  if (twins.pairs >= 4) {
    // A pair's ln ratio is the difference of two threads' factors: one
    // thread's deviation is 1/sqrt(2) of it, and a uniform spread with that
    // deviation reaches sqrt(3) times as far.
    out.thread_noise = twins.rms / std::sqrt(2.0) * std::sqrt(3.0);
    std::snprintf(how, sizeof how,
                  "the same serial search in two threads at once, %d pairs (%zu positions x %d): "
                  "rms of ln(t0/t1) %.4f (median |ln| %.4f, largest %.4f), over sqrt(2) per "
                  "thread, times sqrt(3)",
                  twins.pairs, suite.size(), repeats, twins.rms, twins.median, twins.largest);
    out.thread_noise_how = how;
  } else {
    out.thread_noise_how = "not measured (fewer than two cores or 4 pairs)";
  }

  // Split copies: a worker in the middle of a search (a suite position,
  // its history and killers as a search left them).
  Worker w;
  w.pos = suite.empty() ? Position() : suite.front().pos;
  for (int i = 0; i < kSquares; ++i) w.history_table()[std::size_t(i)].fill(i);
  split::Snapshot snap;
  const double publish = per_call_ns(batches, 20000, [&] { snap.take(w); });
  Worker helper;
  const double join = per_call_ns(batches, 20000, [&] { snap.give(helper, true); });
  p.costs.publish = ps(publish);
  p.costs.join = ps(join);
  out.lines.push_back({"publish", publish, "the owner's snapshot copy (position, history, killers)"});
  out.lines.push_back({"join", join, "a helper's copy of the snapshot"});

  std::mutex m;
  const double lock = per_call_ns(batches, 1000000, [&] {
    m.lock();
    m.unlock();
  });
  p.costs.lock = ps(lock);
  out.lines.push_back({"lock", lock, "an uncontended std::mutex lock and unlock"});

  double wake = 0;
  {
    ThreadPool pool(2);
    wake = 0.5 * per_call_ns(batches, 2000, [&] {
      pool.run([](int) {});
      pool.wait_parked();
    });
  }
  p.costs.wake = ps(wake);
  out.lines.push_back({"wake", wake, "half the round trip of a pool helper's job (wake, park)"});

  const double region = per_call_ns(batches, 2000, [] {
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() < 0) std::abort();  // an empty region the compiler keeps
    }
  });
  p.costs.fork = ps(region / 2);
  p.costs.barrier = ps(region / 2);
  out.lines.push_back({"fork", region / 2, "half an empty OpenMP region at 2 threads"});
  out.lines.push_back({"barrier", region / 2, "the other half"});

  const double pause = per_call_ns(batches, 100000, [] { split::cpu_relax(); });
  p.costs.idle_poll = ps(2 * lock + pause);
  out.lines.push_back({"idle_poll", 2 * lock + pause, "two uncontended locks and a pause"});
  p.costs.idle_timeout = ps(50000);
  out.lines.push_back({"idle_timeout", 50000, "the back-off's sleep (a constant of the code)"});

  const double slice = measure_slice_ns(1.0);
  if (slice > 0) {
    p.costs.slice = ps(slice);
    out.lines.push_back({"slice", slice, "the median run of three busy threads on one core, 1 s"});
  } else {
    out.lines.push_back({"slice", double(p.costs.slice) / 1000.0,
                         "not measured (threads could not share one core): the built-in value"});
  }
  const double alone = wake_lateness_ns(0), beside = wake_lateness_ns(1);
  if (alone >= 0 && beside >= 0) {
    out.checks.push_back({"wake_alone", alone, "a 50 us sleep's lateness, alone on its core (median of 300)"});
    out.checks.push_back({"wake_beside_busy", beside,
                          "the same beside a busy thread on the core: about the same means the OS "
                          "preempts the runner for a woken sleeper, as the simulation does"});
  }
  const YieldProbe y = yield_beside_busy();
  if (y.mean_ns >= 0) {
    std::snprintf(how, sizeof how,
                  "mean of 300 yields beside a busy thread on one core; %.0f %% kept the yielder off "
                  "the core for more than 1 ms (the simulation: an idle thread's yield hands the "
                  "core to a waiting thread for its slice)",
                  100.0 * y.long_share);
    out.checks.push_back({"yield_beside_busy", y.mean_ns, how});
  }
  return out;
}

}  // namespace xq::lab::timing
