// Micro-benchmarks of the split machinery of the split-point backends.
//
//  * BM_YbwcSplit/<threads>/<abort>: one ybwc split point over the start
//    position's 44 moves, created, worked and closed by thread 0, where each
//    "child search" is a make/unmake pair. At 1 thread nobody joins (pure
//    create + close cost); at 2 the pool's helper joins (counter joins/split);
//    with abort=1 the first move searched at the split point fails high, so
//    the split point is aborted (counter aborts/split).
//  * BM_OmpParallelFor/<items>/<mode>: entering an OpenMP parallel region at
//    a PV node as pvsplit does, parallel for over N trivial items with 2
//    threads, schedule(static,1) (mode 0) or (dynamic,1) (mode 1), against
//    the same loop run serially (mode 2).
//  * BM_NodeRate/<backend>/<threads>: a fixed-depth search (depth 7, start
//    position, all features) through the registry; the counter nps is the
//    backend's node rate, so serial vs ybwc/pvsplit at 1 thread is the
//    per-node cost of the hooks.
//  * BM_StopLatency/<backend>/<threads>: milliseconds from stop() until an
//    unlimited search of the start position returns, the stop coming 20-50
//    ms after the first iteration was reported (manual time = the latency;
//    counters median_ms and max_ms over the iterations). The tests assert
//    only that a stop ends a search; this is the figure for how fast.
//  * BM_Suite/<backend>/<threads>/<min_split_depth>: time to depth on the
//    opening suite (depth $XQLAB_SPLIT_DEPTH, default 7; fresh tables per
//    position), manual time = summed search time; counter nodes. Used to tune
//    min_split_depth; filter it out (--benchmark_filter=-BM_Suite) for the
//    micro-benchmarks alone.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/split_fixture.h"
#include "board/movegen.h"
#include "lab/common/suite.h"
#include "parallel/backend.h"
#include "parallel/split/ybwc.h"

namespace {

using namespace xq;
using xq::bench::make_unmake;
using xq::bench::split_context;

Value fail_high(const void*, Worker&, Move, int, Value, const SplitContext& ctx) { return ctx.beta; }

void BM_YbwcSplit(benchmark::State& state) {
  BackendConfig c;
  c.threads = int(state.range(0));
  const bool abort = state.range(1) != 0;
  ybwc::Pool pool(c);
  SearchShared shared;
  const Position start;
  pool.begin_search(start, shared);
  ybwc::Thread& t = pool.thread(0);
  Features f;
  for (auto _ : state) {
    MovePicker picker(t.pos, t, f, Move::none(), 0);
    SplitContext ctx = split_context(picker);
    pool.split(t, ctx, abort ? fail_high : make_unmake, nullptr);
    benchmark::DoNotOptimize(ctx.best_value);
  }
  pool.end_search();
  SearchStats s;
  for (int i = 0; i < pool.size(); ++i) s += pool.thread(i).stats;
  const double n = double(state.iterations());
  state.counters["joins/split"] = double(s.joins) / n;
  state.counters["aborts/split"] = double(s.aborts) / n;
}
BENCHMARK(BM_YbwcSplit)->ArgsProduct({{1, 2}, {0, 1}})->UseRealTime();

void BM_OmpParallelFor(benchmark::State& state) {
  const int items = int(state.range(0));
  const int mode = int(state.range(1));
  std::vector<double> out(std::size_t(items), 0.0);
  for (auto _ : state) {
    if (mode == 0) {
#pragma omp parallel for num_threads(2) schedule(static, 1)
      for (int i = 0; i < items; ++i) out[std::size_t(i)] += std::sqrt(double(i));
    } else if (mode == 1) {
#pragma omp parallel for num_threads(2) schedule(dynamic, 1)
      for (int i = 0; i < items; ++i) out[std::size_t(i)] += std::sqrt(double(i));
    } else {
      for (int i = 0; i < items; ++i) out[std::size_t(i)] += std::sqrt(double(i));
    }
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_OmpParallelFor)->ArgsProduct({{8, 40}, {0, 1, 2}})->UseRealTime();

void BM_NodeRate(benchmark::State& state, const char* backend) {
  BackendConfig c;
  c.threads = int(state.range(0));
  auto b = make_backend(backend, c);
  SearchOptions o;
  o.limits.depth = 7;
  Observer quiet;
  std::uint64_t nodes = 0;
  double seconds = 0;
  for (auto _ : state) {
    b->clear();
    const SearchResult r = b->search(Position(), o, quiet);
    nodes += r.stats.nodes;
    seconds += r.seconds;
  }
  state.counters["nps"] = seconds > 0 ? double(nodes) / seconds : 0.0;
  state.counters["nodes"] = double(nodes) / double(state.iterations());
}
BENCHMARK_CAPTURE(BM_NodeRate, serial, "serial")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_NodeRate, ybwc, "ybwc")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_NodeRate, pvsplit, "pvsplit")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Wakes the benchmark once the search has reported its first iteration.
class FirstIteration final : public Observer {
 public:
  void on_iteration(const SearchResult&) override {
    std::lock_guard lock(mutex_);
    started_ = true;
    cv_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return started_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool started_ = false;
};

void BM_StopLatency(benchmark::State& state, const char* backend) {
  using Clock = std::chrono::steady_clock;
  BackendConfig c;
  c.threads = int(state.range(0));
  c.hash_mib = 16;
  auto b = make_backend(backend, c);
  std::vector<double> ms;
  for (auto _ : state) {
    FirstIteration observer;
    Clock::time_point returned;
    std::thread searcher([&] {
      b->search(Position(), SearchOptions{}, observer);
      returned = Clock::now();
    });
    observer.wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + 10 * (ms.size() % 4)));
    const Clock::time_point stopped = Clock::now();
    b->stop();
    searcher.join();
    const std::chrono::duration<double> latency = returned - stopped;
    state.SetIterationTime(latency.count());
    ms.push_back(latency.count() * 1000.0);
    b->clear();
  }
  std::sort(ms.begin(), ms.end());
  state.counters["median_ms"] = ms[ms.size() / 2];
  state.counters["max_ms"] = ms.back();
}
BENCHMARK_CAPTURE(BM_StopLatency, serial, "serial")->Arg(1)->Iterations(20)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StopLatency, ybwc, "ybwc")->Arg(1)->Arg(2)->Arg(4)->Iterations(20)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StopLatency, pvsplit, "pvsplit")->Arg(1)->Arg(2)->Arg(4)->Iterations(20)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_Suite(benchmark::State& state, const char* backend) {
  static const std::vector<Position> suite = xq::bench::opening_suite();
  BackendConfig c;
  c.threads = int(state.range(0));
  c.set("min_split_depth", Depth(state.range(1)));
  auto b = make_backend(backend, c);
  const SearchStats sum = xq::bench::search_suite(state, *b, suite);
  state.counters["nodes"] = double(sum.nodes) / double(state.iterations());
  state.counters["splits"] = double(sum.splits) / double(state.iterations());
}
BENCHMARK_CAPTURE(BM_Suite, serial, "serial")->Args({1, 4})->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_Suite, ybwc, "ybwc")->ArgsProduct({{2}, {2, 3, 4, 5}})->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_Suite, pvsplit, "pvsplit")->ArgsProduct({{2}, {2, 3, 4}})->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

}  // namespace
