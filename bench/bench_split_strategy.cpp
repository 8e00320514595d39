// Micro-benchmarks of the dts backend's split strategy (parallel/dts.h).
//
//  * BM_FindWork/<policy>/<open>: what an idle thread pays to find work
//    among <open> open split points spread over 4 threads' stacks (random
//    descriptors: depth, ply, moves left, predicted type, workers): the
//    lock-free read of every descriptor, the policy's pick, and the lock
//    and unlock of the chosen split point that entering it takes. Per
//    policy, so the cost of a smarter choice is seen next to "first".
//  * BM_PublishCost/<gratuitous_depth>: the cost of publishing a split
//    point against the work done under it. The timed part is one split()
//    over the start position's 44 moves on a 1-thread pool whose child
//    searches are a make/unmake pair each (so: publish, 44 moves taken
//    under the lock, close); the counters come from one real dts search
//    (2 threads, depth 7, start position, min_split_depth 4, the given
//    gratuitous_depth) made once per run: nodes_per_split, node_ns (its
//    wall time per node and thread) and cost_share = split time /
//    (nodes_per_split x node_ns), the share of a split point's work that
//    goes to publishing it.
//  * BM_AbortLatency/<threads>: from the moment the owner's move cuts a
//    split point off to the moment split() returns with every helper back
//    (manual time). Each helper sits in a child search that, like the node
//    function, checks the abort chain once per "node" (a make/unmake pair).
//  * BM_PolicySuite/<policy>: time to depth on the opening suite at 2
//    threads with each policy (depth $XQLAB_SPLIT_DEPTH, default 7; manual
//    time = summed search time); counters nodes, gratuitous, late joins,
//    idle share of thread time, and the prediction hit rate. Slow: filter
//    it out (--benchmark_filter=-BM_PolicySuite) for the micro-benchmarks.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/split_fixture.h"
#include "lab/common/suite.h"
#include "parallel/backend.h"
#include "parallel/split/dts.h"
#include "parallel/params.h"
#include "parallel/split/split_counters.h"

namespace {

using namespace xq;
using xq::bench::make_unmake;
using xq::bench::split_context;
using Clock = std::chrono::steady_clock;

void BM_FindWork(benchmark::State& state) {
  const auto policy = dts::Policy(state.range(0));
  const int open = int(state.range(1));
  constexpr int kThreads = 4;
  const int per_thread = (open + kThreads - 1) / kThreads;
  std::vector<std::unique_ptr<dts::SplitPoint[]>> stacks;
  std::mt19937 rng(2026);
  int left = open;
  for (int t = 0; t < kThreads; ++t) {
    stacks.push_back(std::make_unique<dts::SplitPoint[]>(std::size_t(per_thread)));
    for (int s = 0; s < per_thread && left > 0; ++s, --left) {
      const dts::Candidate c{4 + int(rng() % 10), int(rng() % 12), 1 + int(rng() % 40),
                             dts::NodeType(rng() % 3), 1 + int(rng() % 3), 1 + int(rng() % 4)};
      stacks.back()[std::size_t(s)].data.summary.store(dts::pack(c), std::memory_order_relaxed);
    }
  }
  std::vector<dts::Candidate> candidates;
  std::vector<dts::SplitPoint*> where;
  candidates.reserve(std::size_t(open));
  where.reserve(std::size_t(open));
  for (auto _ : state) {
    candidates.clear();
    where.clear();
    for (auto& stack : stacks) dts::gather(stack.get(), per_thread, candidates, where);
    const int i = dts::pick(candidates, policy);
    if (i >= 0) {
      std::lock_guard g(where[std::size_t(i)]->lock);
      benchmark::DoNotOptimize(where[std::size_t(i)]->open);
    }
    benchmark::DoNotOptimize(i);
  }
}
BENCHMARK(BM_FindWork)->ArgsProduct({{0, 1, 2, 3, 4}, {2, 8, 32}})->ArgNames({"policy", "open"});

void BM_PublishCost(benchmark::State& state) {
  BackendConfig c;
  c.threads = 2;
  c.set("gratuitous_depth", Depth(state.range(0)));
  auto b = make_backend("dts", c);
  SearchOptions o;
  o.limits.depth = 7;
  Observer quiet;
  const SearchResult r = b->search(Position(), o, quiet);
  const double nodes_per_split =
      double(r.stats.nodes) / double(std::max<std::uint64_t>(1, r.stats.splits));
  const double node_ns = 1e9 * r.seconds * c.threads / double(r.stats.nodes);

  BackendConfig one;
  dts::Pool pool(one);
  SearchShared shared;
  pool.begin_search(Position(), shared);
  dts::Thread& t = pool.thread(0);
  const Features f;
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    MovePicker picker(t.pos, t, f, Move::none(), 0);
    SplitContext ctx = split_context(picker);
    pool.split(t, ctx, make_unmake, nullptr);
    benchmark::DoNotOptimize(ctx.best_value);
  }
  const double split_ns =
      std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
      double(state.iterations());
  pool.end_search();
  state.counters["nodes_per_split"] = nodes_per_split;
  state.counters["node_ns"] = node_ns;
  state.counters["splits"] = double(r.stats.splits);
  state.counters["gratuitous"] = double(r.stats[dts::gratuitous_splits]);
  state.counters["cost_share"] = split_ns / (nodes_per_split * node_ns);
}
BENCHMARK(BM_PublishCost)->ArgName("gratuitous_depth")->Arg(4)->Arg(6)->Arg(8)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The owner's move waits until every helper sits in its child search, then
// cuts off; the helpers' child searches run until the abort reaches them.
struct AbortBench {
  int helpers = 0;
  std::atomic<int> inside{0};
  Clock::time_point cut;
};

Value abort_child(const void* closure, Worker& w, Move m, int, Value, const SplitContext& ctx) {
  auto& bench = *static_cast<AbortBench*>(const_cast<void*>(closure));
  auto& t = static_cast<dts::Thread&>(w);
  if (t.id == 0) {
    while (bench.inside.load(std::memory_order_acquire) < bench.helpers) split::cpu_relax();
    bench.cut = Clock::now();
    return ctx.beta;
  }
  bench.inside.fetch_add(1, std::memory_order_acq_rel);
  while (!dts::chain_cut(t)) {  // one abort check per node, as in the node function
    t.pos.do_move(m);
    benchmark::DoNotOptimize(t.pos.key());
    t.pos.undo_move(m);
  }
  return 0;
}

void BM_AbortLatency(benchmark::State& state) {
  BackendConfig c;
  c.threads = int(state.range(0));
  dts::Pool pool(c);
  SearchShared shared;
  pool.begin_search(Position(), shared);
  dts::Thread& t = pool.thread(0);
  const Features f;
  for (auto _ : state) {
    AbortBench bench;
    bench.helpers = c.threads - 1;
    MovePicker picker(t.pos, t, f, Move::none(), 0);
    SplitContext ctx = split_context(picker);
    pool.split(t, ctx, abort_child, &bench);
    const std::chrono::duration<double> latency = Clock::now() - bench.cut;
    state.SetIterationTime(latency.count());
  }
  pool.end_search();
}
BENCHMARK(BM_AbortLatency)->ArgName("threads")->Arg(2)->Arg(3)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_PolicySuite(benchmark::State& state) {
  static const std::vector<Position> suite = xq::bench::opening_suite();
  BackendConfig c;
  c.threads = 2;
  c.set("split_policy", int(state.range(0)));
  auto b = make_backend("dts", c);
  const SearchStats sum = xq::bench::search_suite(state, *b, suite);
  const double n = double(state.iterations());
  const double thread_time = sum.search_seconds + sum.idle_seconds + sum.lock_seconds +
                             sum.copy_seconds;
  state.SetLabel(std::string(dts::kPolicyNames[std::size_t(state.range(0))]));
  state.counters["nodes"] = double(sum.nodes) / n;
  state.counters["gratuitous"] = double(sum[dts::gratuitous_splits]) / n;
  state.counters["late_joins"] = double(sum[dts::late_joins]) / n;
  state.counters["idle_share"] = thread_time > 0 ? sum.idle_seconds / thread_time : 0.0;
  const double predicted = double(sum[dts::predicted_all] + sum[dts::predicted_cut]);
  state.counters["held"] = predicted > 0 ? double(sum[dts::prediction_held]) / predicted : 0.0;
}
BENCHMARK(BM_PolicySuite)->ArgName("policy")->DenseRange(0, 4)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

}  // namespace
