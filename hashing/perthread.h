// Per-thread tables (seed thesis 4.2.3): thread i stores only into table i; a
// probe reads every table and takes the deepest hit.
//
// Race model: each table has a single writer, but every other thread reads it
// while it is written, so a reader can still see half of a store. Each table
// therefore uses the XOR slot encoding (see xor_table.h): a torn slot fails the
// key check, is counted in torn_detected, and is never returned. Writers never
// contend for a cache line with another writer, only with readers. Cost: a
// probe touches one bucket in every table (T cache misses instead of one),
// and each thread's stores are seen by the others only through their probes,
// so the tables duplicate positions that several threads search. Memory: the
// configured size is split evenly — each of the T tables gets mib / T (rounded
// down to whole buckets), so the total equals the shared schemes' size and
// comparisons between schemes are made at equal memory.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "hashing/cluster_table.h"
#include "hashing/xor_table.h"

namespace xq {

class PerThreadTable {
 public:
  static constexpr std::string_view kName = "perthread";
  static constexpr std::string_view kSummary =
      "one table per thread (XOR-checked), probe reads all";
  using Layout = XorLayout;
  static constexpr int kBucketSlots = Layout::kSlots;
  static constexpr std::size_t kBucketBytes = sizeof(Layout::Bucket);
  static constexpr int kKeyCheckBits = BucketArray<Layout>::kKeyBits;
  static constexpr std::size_t kDefaultMiB = 1;

  PerThreadTable() { configure(kDefaultMiB, 1, Replacement::DepthPreferred); }

  // Every thread's table in shared memory works across processes as it does
  // across threads (see ClusterTable::configure_bytes).
  static constexpr bool kProcessShared = Layout::kProcessShared;

  void configure(std::size_t mib, int threads, Replacement r,
                 TableMemory memory = TableMemory::Private) {
    validate_table_request(mib, threads);
    configure_bytes(mib << 20, threads, r, memory);
  }
  // Total bytes over all threads; every table needs at least one bucket.
  void configure_bytes(std::size_t bytes, int threads, Replacement r,
                       TableMemory memory = TableMemory::Private) {
    validate_table_request(std::max<std::size_t>(1, bytes >> 20), threads);
    const std::size_t per_table = bytes / std::size_t(threads);
    if (per_table < kBucketBytes)
      throw std::invalid_argument("table of " + std::to_string(bytes) + " bytes split over " +
                                  std::to_string(threads) + " threads leaves less than one " +
                                  std::to_string(kBucketBytes) + "-byte bucket each");
    check_fits_in_memory(bytes);
    std::vector<BucketArray<Layout>> fresh(static_cast<std::size_t>(threads));
    for (auto& t : fresh) t.allocate(per_table / kBucketBytes, memory);
    tables_ = std::move(fresh);
    counters_.resize(threads, memory);
    memory_ = memory;
    replacement_ = r;
    generation_.store(0, std::memory_order_relaxed);
  }
  void resize(std::size_t mib) { configure(mib, threads(), replacement_, memory_); }

  bool probe(Key key, TTData& out, int tid) {
    ThreadCounters::Slot& c = counters_[tid];
    ThreadCounters::bump(c.probes);
    std::uint64_t torn = 0, best = 0;
    for (auto& t : tables_) {
      const std::uint64_t data = t.probe(key, torn);
      if (data != 0 && (best == 0 || packed::depth_of(data) > packed::depth_of(best))) best = data;
    }
    if (torn) ThreadCounters::bump(c.torn, torn);
    if (best == 0) return false;
    ThreadCounters::bump(c.hits);
    out = packed::unpack(best);
    return true;
  }

  void store(Key key, const TTData& d, int tid) {
    ThreadCounters::bump(counters_[tid].stores);
    const std::uint8_t g = generation_.load(std::memory_order_relaxed);
    tables_[std::size_t(tid)].store(key, packed::pack(d, g), g, replacement_);
  }

  // Per-thread tables cannot hold a count shared by every thread (each
  // thread writes only its own table), so they report that they hold none:
  // a claim is a plain probe that is never busy and claims nothing.
  static constexpr bool kCountsSearchers = false;
  static constexpr bool kExactSearcherCounts = false;
  TTClaim claim(Key key, bool, int tid) {
    TTClaim c;
    c.found = probe(key, c.data, tid);
    return c;
  }
  bool release(Key, TTSlot, int) { return false; }
  int searchers(Key) const { return 0; }
  std::uint64_t total_searchers() const { return 0; }
  std::uint64_t busy_marks() const { return 0; }
  std::uint64_t clear_busy_marks() { return 0; }

  void clear() {
    for (auto& t : tables_) t.clear();
  }
  void break_locks() {}  // lockless (XOR-checked)
  void new_search() {
    const auto g = generation_.load(std::memory_order_relaxed);
    generation_.store(std::uint8_t((g + 1) & packed::kGenerationMask), std::memory_order_relaxed);
  }
  // The generation lives in the table object: a process that works on its
  // copy of the object (forked after the table was configured in shared
  // memory) takes the owner's at each search.
  void set_generation(std::uint8_t g) {
    generation_.store(std::uint8_t(g & packed::kGenerationMask), std::memory_order_relaxed);
  }
  int hashfull() const {
    const std::size_t per_table =
        std::max<std::size_t>(1, 1000 / (kBucketSlots * tables_.size()));
    const auto g = generation_.load(std::memory_order_relaxed);
    std::size_t used = 0, slots = 0;
    for (const auto& t : tables_) {
      used += t.count_current(per_table, g);
      slots += std::min(per_table, t.buckets()) * kBucketSlots;
    }
    return int(used * 1000 / slots);
  }
  TableCounters counters() const { return counters_.sum(); }
  void reset_counters() { counters_.reset(); }

  std::size_t bucket_count() const { return tables_[0].buckets() * tables_.size(); }
  std::size_t entry_count() const { return bucket_count() * kBucketSlots; }
  // Bucket index inside each per-thread table (all tables have the same size).
  std::size_t bucket_of(Key key) const { return tables_[0].index_of(key); }
  int threads() const { return int(tables_.size()); }
  Replacement replacement() const { return replacement_; }
  TableMemory memory() const { return memory_; }
  std::uint8_t generation() const { return generation_.load(std::memory_order_relaxed); }

 private:
  std::vector<BucketArray<Layout>> tables_;
  ThreadCounters counters_;
  Replacement replacement_ = Replacement::DepthPreferred;
  TableMemory memory_ = TableMemory::Private;
  std::atomic<std::uint8_t> generation_{0};
};

}  // namespace xq
