// Race stress harness: T threads store and probe keys from a small pool in a
// small table, so that they collide on the same slots as often as possible.
// The data stored for a key is a function of the key alone (every field is a
// hash of it), so a reader can tell a genuinely stored entry from a mix of two:
// a probe that succeeds with data that is not stress_payload(key) is a corrupt
// entry the scheme accepted. Used by `xqlab stress` and the Stress tests.
//
// The busy-mark mode (run_mark_stress) hammers the enter/leave path instead
// (claim and release of searcher counts, as ABDADA uses them) and compares
// the counts left in the table with the truth, which is 0 once every thread
// has left every node it entered.
#pragma once

#include <algorithm>
#include <utility>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "hashing/entry.h"
#include "hashing/memory.h"
#include "hashing/perthread.h"
#include "hashing/processes.h"

namespace xq {

struct StressConfig {
  int threads = 2;
  double seconds = 1.0;        // wall-clock limit
  std::uint64_t max_ops = 0;   // total operations limit, 0 = none (split evenly over threads)
  std::size_t entries = 1024;  // table size in entries (rounded up to whole buckets)
  Replacement replacement = Replacement::AlwaysReplace;
  int store_percent = 50;      // share of operations that are stores
  std::uint64_t seed = 1;
  // The workers are processes instead of threads: the table lives in memory
  // shared between them (TableMemory::Shared), as do their tallies and the
  // start and stop words (hashing/processes.h). `threads` counts them.
  bool processes = false;
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
// the limit is kept within 1 %; calls `check` (when given) at every step.
void wait_for(const std::atomic<int>& finished, int threads,
              std::chrono::steady_clock::time_point start, double seconds,
              const std::function<void()>& check = {});

struct alignas(kCacheLine) ThreadTally {
  std::uint64_t ops = 0, corrupt = 0;
};

struct Shared {
  std::atomic<bool> go{false}, stop{false};
  std::atomic<int> finished{0};
};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the start and stop words work across processes only when lock-free");

inline TableMemory memory_of(const StressConfig& c) {
  return c.processes ? TableMemory::Shared : TableMemory::Private;
}

// How long a worker process may take to stop once told (it looks at the
// stop word every 64 operations): only a hung one takes longer.
inline constexpr double kStopGraceSeconds = 5.0;

// Runs work(tid, shared) on config.threads threads, or worker processes when
// config.processes (whatever they write for the parent must then live in
// shared memory), releases them together and returns once every one has
// finished, or the time limit passed and every one has stopped: the seconds
// from the release. Throws std::runtime_error (one line) when a worker
// process died; every other one is killed and reaped first.
template <class Work>
double run_workers(const StressConfig& config, Work work) {
  TableBlock<Shared> block(1, memory_of(config));
  Shared& shared = block[0];
  const int n = config.threads;
  std::chrono::steady_clock::time_point start;
  if (config.processes) {
    WorkerProcesses workers("stress worker", n, [&](int t) { work(t, shared); });
    start = std::chrono::steady_clock::now();
    shared.go.store(true, std::memory_order_release);
    wait_for(shared.finished, n, start, config.seconds, [&] { workers.poll(); });
    shared.stop.store(true, std::memory_order_relaxed);
    workers.join(kStopGraceSeconds);
  } else {
    std::vector<std::thread> workers;
    for (int t = 0; t < n; ++t) workers.emplace_back([&, t] { work(t, shared); });
    start = std::chrono::steady_clock::now();
    shared.go.store(true, std::memory_order_release);
    wait_for(shared.finished, n, start, config.seconds);
    shared.stop.store(true, std::memory_order_relaxed);
    for (auto& t : workers) t.join();
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Throws std::invalid_argument (one line) when the workers are processes and
// Table cannot live in memory they share.
template <class Table>
void check_process_shared(const StressConfig& c) {
  if (c.processes && !Table::kProcessShared)
    throw std::invalid_argument("hash scheme " + std::string(Table::kName) +
                                " cannot be shared between processes (its locks are "
                                "process-private std::mutex)");
}

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
  check_process_shared<Table>(config);
  const int threads = config.threads;
  std::size_t buckets = (config.entries + Table::kBucketSlots - 1) / Table::kBucketSlots;
  if constexpr (std::is_same_v<Table, PerThreadTable>)  // whole buckets in every table
    buckets = (buckets + std::size_t(threads) - 1) / std::size_t(threads) * std::size_t(threads);
  Table table;
  table.configure_bytes(buckets * Table::kBucketBytes, threads, config.replacement,
                        memory_of(config));
  const KeyPool pool = make_key_pool(table.entry_count(), config.seed);

  TableBlock<ThreadTally> tally(std::size_t(threads), memory_of(config));
  StressResult r;
  r.seconds = run_workers(config, [&](int t, Shared& shared) {
    tally[std::size_t(t)] = hammer(table, pool, config, t, shared);
  });
  for (std::size_t t = 0; t < tally.size(); ++t) {
    r.ops += tally[t].ops;
    r.corrupt_accepted += tally[t].corrupt;
  }
  const TableCounters c = table.counters();
  r.probes = c.probes;
  r.stores = c.stores;
  r.hits = c.hits;
  r.torn_detected = c.torn_detected;
  r.entries = table.entry_count();
  return r;
}


// ------------------------------------------------------------ busy-mark mode

struct MarkStressResult {
  std::uint64_t ops = 0;         // claims and releases
  std::uint64_t enters = 0;      // claims that raised a count (held until released)
  std::uint64_t busy = 0;        // exclusive claims answered busy
  std::uint64_t underflows = 0;  // releases that found the count already at 0
  std::uint64_t residual = 0;    // searcher counts left in the table (truth: 0)
  std::uint64_t leaks = 0;       // entries still marked busy at the end (truth: 0)
  std::size_t entries = 0;
  double seconds = 0;
  // Each lost increment shows as one underflow (a release finds nothing left
  // to lower), each lost decrement as one count left over; a lost increment
  // and a lost decrement on one entry can cancel, so this is a lower bound.
  std::uint64_t lost_updates() const { return underflows + residual; }
  double lost_per_1e8() const { return ops ? 1e8 * double(lost_updates()) / double(ops) : 0.0; }
};

namespace stress_detail {

// Keys that fill every slot of `table` exactly, stored there once (one
// thread, before the run), so every claim finds its key and no claim or
// store ever has to replace another key: a count can only change by a claim
// or a release of its own key. Throws std::logic_error if a key found no slot.
template <class Table>
std::vector<Key> fill_with_keys(Table& table, std::uint64_t seed) {
  std::vector<int> used(table.bucket_count(), 0);
  std::vector<Key> keys;
  for (std::uint64_t i = 0; keys.size() < table.entry_count(); ++i) {
    const Key k = mix64(seed * 0x9E3779B97F4A7C15ULL + i) | 1;
    int& n = used[table.bucket_of(k)];
    if (n == Table::kBucketSlots) continue;
    ++n;
    keys.push_back(k);
    table.store(k, stress_payload(k), 0);
  }
  for (Key k : keys)
    if (TTData d; !table.probe(k, d, 0)) throw std::logic_error("mark stress: a key found no slot");
  return keys;
}

// Threads form teams of at most 3 (Weill's count saturates at 3): a team
// shares its keys and no other thread touches them, and a thread holds a key
// at most once at a time, so no count is ever truly above 3. Saturation,
// which records no further searcher, is thus never mistaken for a lost update.
constexpr int kMaxTeam = packed::kMaxSearchers;
constexpr int mark_teams(int threads) { return (threads + kMaxTeam - 1) / kMaxTeam; }
constexpr int kMaxHeld = 4;  // nodes a thread is inside at once (a short search path)

struct alignas(kCacheLine) MarkTally {
  std::uint64_t ops = 0, enters = 0, busy = 0, underflows = 0;
};

// Thread tid's share: enter (claim; a quarter of them exclusive, as a younger
// brother's) or leave (release the innermost held key), at random, until its
// quota or the stop; then it leaves whatever it still holds. With a quota,
// it stops entering while an enter and every leave would not fit, so it
// exceeds the quota by at most one op (a last enter and its leave).
template <class Table>
MarkTally hammer_marks(Table& table, const std::vector<Key>& team_keys, const StressConfig& config,
                       int tid, Shared& shared) {
  std::uint64_t rng = mix64(config.seed + std::uint64_t(tid) * 0x632BE59BD9B4E019ULL) | 1;
  const std::uint64_t quota = thread_quota(config, tid);
  std::pair<Key, TTSlot> held[kMaxHeld];
  int depth = 0;
  MarkTally t;
  const auto leave = [&] {
    --depth;
    t.underflows += table.release(held[depth].first, held[depth].second, tid);
    ++t.ops;
  };
  while (!shared.go.load(std::memory_order_acquire)) std::this_thread::yield();
  while (t.ops < quota && !shared.stop.load(std::memory_order_relaxed)) {
    for (int k = 0; k < 64 && t.ops < quota; ++k) {
      rng ^= rng << 13;  // xorshift64
      rng ^= rng >> 7;
      rng ^= rng << 17;
      const bool must_leave = depth == kMaxHeld || quota - t.ops <= std::uint64_t(depth) + 1;
      if (depth > 0 && (must_leave || (rng & 1))) {
        leave();
        continue;
      }
      const Key key = team_keys[std::size_t((rng >> 8) % team_keys.size())];
      if (std::any_of(held, held + depth, [&](const auto& h) { return h.first == key; })) continue;
      const TTClaim c = table.claim(key, (rng & 6) == 0, tid);
      ++t.ops;
      t.busy += c.busy;
      if (c.slot.slot < 0) continue;
      held[depth++] = {key, c.slot};
      ++t.enters;
    }
  }
  while (depth > 0) leave();
  shared.finished.fetch_add(1, std::memory_order_release);
  return t;
}

}  // namespace stress_detail

// Throws std::invalid_argument (one line) for a scheme without searcher
// counts or a table too small to give every team of threads its own keys.
template <class Table>
MarkStressResult run_mark_stress(const StressConfig& config) {
  using namespace stress_detail;
  validate_stress_config(config);
  if constexpr (!Table::kCountsSearchers) {
    throw std::invalid_argument("hash scheme " + std::string(Table::kName) +
                                " holds no searcher counts (busy marks): nothing to stress");
  } else {
    check_process_shared<Table>(config);
    const int threads = config.threads, teams = mark_teams(threads);
    Table table;
    const std::size_t buckets = (config.entries + Table::kBucketSlots - 1) / Table::kBucketSlots;
    table.configure_bytes(buckets * Table::kBucketBytes, threads, Replacement::DepthPreferred,
                          memory_of(config));
    const std::vector<Key> keys = fill_with_keys(table, config.seed);
    std::vector<std::vector<Key>> team_keys(static_cast<std::size_t>(teams));
    for (std::size_t i = 0; i < keys.size(); ++i) team_keys[i % std::size_t(teams)].push_back(keys[i]);
    if (team_keys.back().size() < std::size_t(2 * kMaxHeld))
      throw std::invalid_argument("mark stress needs at least " +
                                  std::to_string(2 * kMaxHeld * teams) + " entries at " +
                                  std::to_string(threads) + " threads");

    TableBlock<MarkTally> tally(std::size_t(threads), memory_of(config));
    MarkStressResult r;
    r.seconds = run_workers(config, [&](int t, Shared& shared) {
      const auto& mine = team_keys[std::size_t(t % teams)];
      tally[std::size_t(t)] = hammer_marks(table, mine, config, t, shared);
    });
    for (std::size_t i = 0; i < tally.size(); ++i) {
      const MarkTally& t = tally[i];
      r.ops += t.ops;
      r.enters += t.enters;
      r.busy += t.busy;
      r.underflows += t.underflows;
    }
    r.residual = table.total_searchers();
    r.leaks = table.busy_marks();
    r.entries = table.entry_count();
    return r;
  }
}

// ------------------------------------------------------------ false-match mode

// How often a probe for a position the table does not hold returns an
// entry: one thread fills the table with four keys per entry, then probes
// keys it never stored. A whole-key check never lets one through; a b-bit
// check lets through about (entries held in the probed bucket) / 2^b.
struct FalseMatchResult {
  std::uint64_t stored = 0, probes = 0, false_matches = 0;
  std::size_t entries = 0;
  int bucket_slots = 0, key_bits = 64;
  double fill = 0;  // share of slots holding an entry of this run (hashfull)
  double seconds = 0;
  double per_million() const { return probes ? 1e6 * double(false_matches) / double(probes) : 0.0; }
  // What a check of key_bits bits predicts for the probes made.
  double expected() const {
    return double(probes) * fill * double(bucket_slots) / std::ldexp(1.0, key_bits);
  }
};

template <class Table>
FalseMatchResult run_false_match(const StressConfig& config) {
  validate_stress_config(config);
  const std::size_t buckets = (config.entries + Table::kBucketSlots - 1) / Table::kBucketSlots;
  Table table;
  table.configure_bytes(buckets * Table::kBucketBytes, 1, Replacement::AlwaysReplace);
  FalseMatchResult r;
  r.entries = table.entry_count();
  r.bucket_slots = Table::kBucketSlots;
  r.key_bits = Table::kKeyCheckBits;
  r.probes = config.max_ops ? config.max_ops : 1000000;
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t base = mix64(config.seed) * 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t i = 0; i < 4 * r.entries; ++i) {
    const Key k = mix64(base + i) | 1;
    table.store(k, stress_payload(k), 0);
  }
  r.stored = 4 * r.entries;
  r.fill = table.hashfull() / 1000.0;
  for (std::uint64_t i = 0; i < r.probes; ++i) {
    TTData d;
    r.false_matches += table.probe(mix64(base + (std::uint64_t{1} << 48) + i) | 1, d, 0);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace xq
