// Micro-benchmarks of the hash schemes: probe, store and mixed (half probes,
// half stores) workloads at 1, 2 and 4 threads (4 oversubscribes this 2-core
// machine), on a table that fits in L2 (256 KiB) and one far larger than L3
// (1 GiB). Names read BM_<workload>/<scheme>/<bytes>/threads:<T>.
//
// Every thread draws keys from the same pool of `entries` keys (key i is
// mix64(i), computed inline: a few cycles that every scheme pays alike), so
// threads hit the same entries as a parallel search does. Before a run the
// table is filled with the first half of the pool, so about half of the probes
// hit. The table is configured for exactly the run's thread count (the
// per-thread scheme splits its memory T ways), and one table is kept alive at
// a time: a benchmark of another scheme, size or thread count rebuilds it.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <string>

#include "hashing/schemes.h"
#include "hashing/stress.h"

namespace {

using namespace xq;

constexpr std::int64_t kL2Bytes = std::int64_t{256} << 10;
constexpr std::int64_t kHugeBytes = std::int64_t{1} << 30;
constexpr Key kSalt = 0x6A09E667F3BCC908ULL;

Key pool_key(std::uint64_t i) { return mix64(i ^ kSalt) | 1; }

// The one big table alive at a time, and how to release it.
std::function<void()> g_release;
const void* g_owner = nullptr;

template <class Table>
struct Shared {
  Table table;
  std::int64_t bytes = 0;
  int threads = 0;
  std::uint64_t pool = 1;
};

template <class Table>
Shared<Table>& shared() {
  static Shared<Table> s;
  return s;
}

template <class Table>
void setup(const benchmark::State& state) {
  Shared<Table>& s = shared<Table>();
  const std::int64_t bytes = state.range(0);
  const int threads = state.threads();
  if (g_owner == &s && s.bytes == bytes && s.threads == threads) return;
  if (g_release) g_release();
  s.table.configure_bytes(std::size_t(bytes), threads, Replacement::DepthPreferred);
  s.pool = s.table.entry_count();
  for (std::uint64_t i = 0; i < s.pool / 2; ++i)
    s.table.store(pool_key(i), stress_payload(pool_key(i)), int(i % std::uint64_t(threads)));
  s.bytes = bytes;
  s.threads = threads;
  g_owner = &s;
  g_release = [] {
    Shared<Table>& old = shared<Table>();
    old.table.configure_bytes(Table::kBucketBytes, 1, Replacement::DepthPreferred);
    old.bytes = 0;
  };
}

enum class Workload { Probe, Store, Mixed };

template <class Table, Workload W>
void run(benchmark::State& state) {
  Shared<Table>& s = shared<Table>();
  const int tid = state.thread_index();
  const std::uint64_t pool = s.pool;
  std::uint64_t rng = mix64(std::uint64_t(tid) + 77) | 1;
  std::uint64_t hits = 0;
  TTData out;
  for (auto _ : state) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    __extension__ using U128 = unsigned __int128;
    const Key key = pool_key(std::uint64_t((U128(rng) * pool) >> 64));
    const bool store = W == Workload::Store || (W == Workload::Mixed && (rng >> 63) != 0);
    if (store) {
      TTData d;
      d.depth = std::int8_t(rng >> 58);
      d.bound = Bound::Lower;
      d.value = std::int16_t(rng);
      s.table.store(key, d, tid);
    } else {
      hits += s.table.probe(key, out, tid);
      benchmark::DoNotOptimize(out);
    }
  }
  state.SetItemsProcessed(state.iterations());
  if (W != Workload::Store)
    state.counters["hit%"] = benchmark::Counter(
        100.0 * double(hits) / double(std::max<std::int64_t>(1, state.iterations())),
        benchmark::Counter::kAvgThreads);
}

template <class Table>
void register_scheme() {
  const std::string scheme(Table::kName);
  struct Entry {
    const char* name;
    void (*fn)(benchmark::State&);
  };
  const Entry workloads[] = {{"BM_probe/", run<Table, Workload::Probe>},
                             {"BM_store/", run<Table, Workload::Store>},
                             {"BM_mixed/", run<Table, Workload::Mixed>}};
  // Grouped by (size, threads) so that consecutive runs reuse the table.
  for (std::int64_t bytes : {kL2Bytes, kHugeBytes})
    for (int threads : {1, 2, 4})
      for (const Entry& w : workloads)
        benchmark::RegisterBenchmark((w.name + scheme).c_str(), w.fn)
            ->Arg(bytes)
            ->Threads(threads)
            ->Setup(setup<Table>)
            ->UseRealTime();
}

struct Registrar {
  Registrar() {
    for (std::string_view name : kSchemeNames)
      visit_scheme(name, [](auto tag) { register_scheme<typename decltype(tag)::type>(); });
  }
} const registrar;

}  // namespace
