// Race stress harness: T threads store and probe keys from a small pool in a
// small table, so that they collide on the same slots as often as possible.
// The data stored for a key is a function of the key alone (every field is a
// hash of it), so a reader can tell a genuinely stored entry from a mix of two:
// a probe that succeeds with data that is not stress_payload(key) is a corrupt
// entry the scheme accepted. Used by `xqlab stress` and the Stress tests.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

#include "hashing/entry.h"
#include "hashing/perthread.h"

namespace xq {

struct StressConfig {
  int threads = 2;
  double seconds = 1.0;        // wall-clock limit
  std::uint64_t max_ops = 0;   // total operations limit, 0 = none (split evenly over threads)
  std::size_t entries = 1024;  // table size in entries (rounded up to whole buckets)
  Replacement replacement = Replacement::AlwaysReplace;
  int store_percent = 50;      // share of operations that are stores
  std::uint64_t seed = 1;
};

struct StressResult {
  std::uint64_t ops = 0, probes = 0, stores = 0, hits = 0;
  std::uint64_t torn_detected = 0;     // rejected by the scheme (its own count)
  std::uint64_t corrupt_accepted = 0;  // probes that returned data not stored for the key
  std::size_t entries = 0;             // the table's actual entry count
  double seconds = 0;
  double ops_per_sec() const { return seconds > 0 ? double(ops) / seconds : 0.0; }
};

// A 64-bit mixer (splitmix64 finaliser).
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// The entry the stress run stores for `key`: move, value, eval, depth and
// bound all derive from a hash of the key (about 50 checked bits).
constexpr TTData stress_payload(Key key) {
  const std::uint64_t h = mix64(key ^ 0x5DEECE66DULL);
  TTData d;
  d.move = Move::from_raw(std::uint16_t(h & 0x3FFF));
  d.value = std::int16_t(std::uint16_t(h >> 14));
  d.eval = std::int16_t(std::uint16_t(h >> 30));
  d.depth = std::int8_t((h >> 46) % 64);
  d.bound = Bound(1 + (h >> 52) % 3);
  return d;
}

// True when `d` is what stress_payload(key) stored (the generation is ignored).
constexpr bool stress_payload_matches(Key key, const TTData& d) {
  TTData expected = stress_payload(key);
  expected.generation = d.generation;
  return expected == d;
}

// Throws std::invalid_argument (one line) for a configuration that cannot run.
void validate_stress_config(const StressConfig& c);

namespace stress_detail {

// Four keys per entry: slots are overwritten all the time, and a quarter of
// the probes or so find their key.
struct KeyPool {
  std::vector<Key> keys;
  std::vector<TTData> payloads;
};
KeyPool make_key_pool(std::size_t entries, std::uint64_t seed);

// Thread tid's exact share of max_ops, so the shares add up to max_ops.
std::uint64_t thread_quota(const StressConfig& c, int tid);

// Blocks until `finished` reaches `threads` or `seconds` have passed since
// `start`, polling in steps of at most 1/200 of the limit (and 500 us), so
// the limit is kept within 1 %.
void wait_for(const std::atomic<int>& finished, int threads,
              std::chrono::steady_clock::time_point start, double seconds);

struct alignas(kCacheLine) ThreadTally {
  std::uint64_t ops = 0, corrupt = 0;
};

struct Shared {
  std::atomic<bool> go{false}, stop{false};
  std::atomic<int> finished{0};
};

// One thread's share of the work: random stores and probes from the pool,
// in batches of at most 64 between looks at the stop flag.
template <class Table>
ThreadTally hammer(Table& table, const KeyPool& pool, const StressConfig& config, int tid,
                   Shared& shared) {
  std::uint64_t rng = mix64(config.seed + std::uint64_t(tid) * 0x632BE59BD9B4E019ULL) | 1;
  const std::uint64_t quota = thread_quota(config, tid);
  const std::uint64_t store_threshold = std::uint64_t(config.store_percent) * 1024 / 100;
  const std::size_t n = pool.keys.size();
  ThreadTally t;
  while (!shared.go.load(std::memory_order_acquire)) std::this_thread::yield();
  while (t.ops < quota && !shared.stop.load(std::memory_order_relaxed)) {
    const std::uint64_t batch = std::min<std::uint64_t>(64, quota - t.ops);
    for (std::uint64_t k = 0; k < batch; ++k) {
      rng ^= rng << 13;  // xorshift64
      rng ^= rng >> 7;
      rng ^= rng << 17;
      __extension__ using U128 = unsigned __int128;
      const std::size_t i = std::size_t((U128(rng >> 11) * n) >> 53);
      if ((rng & 1023) < store_threshold) {
        table.store(pool.keys[i], pool.payloads[i], tid);
      } else if (TTData got; table.probe(pool.keys[i], got, tid)) {
        got.generation = pool.payloads[i].generation;
        t.corrupt += !(got == pool.payloads[i]);
      }
    }
    t.ops += batch;
  }
  shared.finished.fetch_add(1, std::memory_order_release);
  return t;
}

}  // namespace stress_detail

template <class Table>
StressResult run_stress(const StressConfig& config) {
  using namespace stress_detail;
  validate_stress_config(config);
  const int threads = config.threads;
  std::size_t buckets = (config.entries + Table::kBucketSlots - 1) / Table::kBucketSlots;
  if constexpr (std::is_same_v<Table, PerThreadTable>)  // whole buckets in every table
    buckets = (buckets + std::size_t(threads) - 1) / std::size_t(threads) * std::size_t(threads);
  Table table;
  table.configure_bytes(buckets * Table::kBucketBytes, threads, config.replacement);
  const KeyPool pool = make_key_pool(table.entry_count(), config.seed);

  std::vector<ThreadTally> tally(static_cast<std::size_t>(threads));
  Shared shared;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] { tally[std::size_t(t)] = hammer(table, pool, config, t, shared); });
  const auto start = std::chrono::steady_clock::now();
  shared.go.store(true, std::memory_order_release);
  wait_for(shared.finished, threads, start, config.seconds);
  shared.stop.store(true, std::memory_order_relaxed);
  for (auto& t : workers) t.join();

  StressResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const ThreadTally& t : tally) {
    r.ops += t.ops;
    r.corrupt_accepted += t.corrupt;
  }
  const TableCounters c = table.counters();
  r.probes = c.probes;
  r.stores = c.stores;
  r.hits = c.hits;
  r.torn_detected = c.torn_detected;
  r.entries = table.entry_count();
  return r;
}

}  // namespace xq
