// What processes cost that threads do not (issue 27): building a backend
// (the -proc backends fork their helpers then; the others start a thread
// pool) and
// tearing it down, and one search's round trip through the helpers' wake-up
// and park (a depth-1 search: almost nothing but the hand-over). Run with
// --benchmark_enable_random_interleaving=true so that the two sit side by side
// on a noisy machine.
#include <benchmark/benchmark.h>

#include "parallel/backend.h"

namespace {

xq::BackendConfig config(int threads) {
  xq::BackendConfig c;
  c.threads = threads;
  c.hash_mib = 16;
  return c;
}

// Build and destroy (helpers started and ended; the 16 MiB table zeroed).
void BM_BuildBackend(benchmark::State& state, const char* backend) {
  const xq::BackendConfig c = config(int(state.range(0)));
  for (auto _ : state) {
    auto b = xq::make_backend(backend, c);
    benchmark::DoNotOptimize(b.get());
  }
}
BENCHMARK_CAPTURE(BM_BuildBackend, lazysmp, "lazysmp")->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_BuildBackend, lazysmp_proc, "lazysmp-proc")->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_BuildBackend, ybwc, "ybwc")->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_BuildBackend, ybwc_proc, "ybwc-proc")->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// A depth-1 search of the start position: wake the helpers, search, stop
// them, wait until they have parked.
void BM_SearchRoundTrip(benchmark::State& state, const char* backend) {
  auto b = xq::make_backend(backend, config(int(state.range(0))));
  xq::SearchOptions o;
  o.limits.depth = 1;
  xq::Observer quiet;
  const xq::Position start;
  for (auto _ : state) benchmark::DoNotOptimize(b->search(start, o, quiet).score);
}
BENCHMARK_CAPTURE(BM_SearchRoundTrip, lazysmp, "lazysmp")->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SearchRoundTrip, lazysmp_proc, "lazysmp-proc")->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SearchRoundTrip, ybwc, "ybwc")->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SearchRoundTrip, ybwc_proc, "ybwc-proc")->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
