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

template <class Table>
StressResult run_stress(const StressConfig& config) {
  validate_stress_config(config);
  const int threads = config.threads;
  std::size_t buckets = (config.entries + Table::kBucketSlots - 1) / Table::kBucketSlots;
  if constexpr (std::is_same_v<Table, PerThreadTable>)  // whole buckets in every table
    buckets = (buckets + std::size_t(threads) - 1) / std::size_t(threads) * std::size_t(threads);
  Table table;
  table.configure_bytes(buckets * Table::kBucketBytes, threads, config.replacement);

  // Four keys per entry: slots are overwritten all the time, and a quarter of
  // the probes or so find their key.
  const std::size_t pool_size = std::max<std::size_t>(64, 4 * table.entry_count());
  std::vector<Key> keys(pool_size);
  std::vector<TTData> payloads(pool_size);
  for (std::size_t i = 0; i < pool_size; ++i) {
    keys[i] = mix64(config.seed * 0x9E3779B97F4A7C15ULL + i) | 1;
    payloads[i] = stress_payload(keys[i]);
  }

  struct alignas(kCacheLine) Local {
    std::uint64_t ops = 0, corrupt = 0;
  };
  std::vector<Local> local(static_cast<std::size_t>(threads));
  std::atomic<bool> go{false}, stop{false};
  std::atomic<int> finished{0};
  // An exact share of max_ops per thread, so the total is max_ops exactly.
  const auto quota_of = [&](int tid) {
    if (!config.max_ops) return ~std::uint64_t{0};
    const std::uint64_t t = std::uint64_t(threads);
    return config.max_ops / t + (std::uint64_t(tid) < config.max_ops % t ? 1 : 0);
  };
  const std::uint64_t store_threshold = std::uint64_t(config.store_percent) * 1024 / 100;

  auto worker = [&](int tid) {
    std::uint64_t rng = mix64(config.seed + std::uint64_t(tid) * 0x632BE59BD9B4E019ULL) | 1;
    std::uint64_t ops = 0, corrupt = 0;
    const std::uint64_t quota = quota_of(tid);
    while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
    while (ops < quota && !stop.load(std::memory_order_relaxed)) {
      const std::uint64_t batch = std::min<std::uint64_t>(64, quota - ops);
      for (std::uint64_t k = 0; k < batch; ++k) {
        rng ^= rng << 13;  // xorshift64
        rng ^= rng >> 7;
        rng ^= rng << 17;
        __extension__ using U128 = unsigned __int128;
        const std::size_t i = std::size_t((U128(rng >> 11) * pool_size) >> 53);
        if ((rng & 1023) < store_threshold) {
          table.store(keys[i], payloads[i], tid);
        } else {
          TTData got;
          if (table.probe(keys[i], got, tid)) {
            got.generation = payloads[i].generation;
            corrupt += !(got == payloads[i]);
          }
        }
      }
      ops += batch;
    }
    local[std::size_t(tid)].ops = ops;
    local[std::size_t(tid)].corrupt = corrupt;
    finished.fetch_add(1, std::memory_order_release);
  };

  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker, t);
  const auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  // Polled in steps of at most 1/200 of the limit (and 500 us), so the
  // time limit is kept within 1 %.
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(config.seconds));
  const auto step = std::min<std::chrono::steady_clock::duration>(
      std::chrono::microseconds(500), (deadline - start) / 200);
  for (auto now = start; finished.load(std::memory_order_acquire) < threads && now < deadline;
       now = std::chrono::steady_clock::now())
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(step, deadline - now));
  stop.store(true, std::memory_order_relaxed);
  for (auto& t : pool) t.join();
  const auto end = std::chrono::steady_clock::now();

  StressResult r;
  r.seconds = std::chrono::duration<double>(end - start).count();
  for (const Local& l : local) {
    r.ops += l.ops;
    r.corrupt_accepted += l.corrupt;
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
