// A whole shared table on one bucket array (hashing/bucket_array.h): sizing,
// the probe/store/claim entry points, aging, hashfull, and per-thread
// counters. The concrete scheme classes derive from ClusterTable and add
// their kName.
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "hashing/bucket_array.h"
#include "hashing/memory.h"

namespace xq {

// Counters as one cache line per thread slot: thread tid is the only writer of
// slot tid (a relaxed load + store, no read-modify-write), readers sum them.
class ThreadCounters {
 public:
  struct alignas(kCacheLine) Slot {
    std::atomic<std::uint64_t> probes{0}, hits{0}, stores{0}, torn{0};
  };
  static_assert(sizeof(Slot) == kCacheLine);

  void resize(int threads, TableMemory memory = TableMemory::Private) {
    slots_ = TableBlock<Slot>(std::size_t(threads), memory);
    count_ = threads;
  }
  Slot& operator[](int tid) {
    assert(tid >= 0 && tid < count_);
    return slots_[std::size_t(tid)];
  }
  static void bump(std::atomic<std::uint64_t>& c, std::uint64_t by = 1) {
    c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }
  TableCounters sum() const {
    TableCounters t;
    for (int i = 0; i < count_; ++i) {
      const Slot& s = slots_[std::size_t(i)];
      t.probes += s.probes.load(std::memory_order_relaxed);
      t.hits += s.hits.load(std::memory_order_relaxed);
      t.stores += s.stores.load(std::memory_order_relaxed);
      t.torn_detected += s.torn.load(std::memory_order_relaxed);
    }
    return t;
  }
  void reset() {
    for (int i = 0; i < count_; ++i) {
      Slot& s = slots_[std::size_t(i)];
      s.probes.store(0, std::memory_order_relaxed);
      s.hits.store(0, std::memory_order_relaxed);
      s.stores.store(0, std::memory_order_relaxed);
      s.torn.store(0, std::memory_order_relaxed);
    }
  }

 private:
  TableBlock<Slot> slots_;
  int count_ = 0;
};

// Throws std::invalid_argument (one line) for sizes and thread counts no table accepts.
inline void validate_table_request(std::size_t mib, int threads) {
  if (mib == 0) throw std::invalid_argument("hash size must be at least 1 MiB");
  if (mib > kMaxTableMiB)
    throw std::invalid_argument("hash size " + std::to_string(mib) + " MiB is too large (max " +
                                std::to_string(kMaxTableMiB) + " MiB)");
  if (threads < 1) throw std::invalid_argument("table thread count must be at least 1");
  if (threads > kMaxTableThreads)
    throw std::invalid_argument("table thread count " + std::to_string(threads) +
                                " is too large (max " + std::to_string(kMaxTableThreads) + ")");
}

// A whole table for the schemes that share one bucket array between threads.
// The concrete scheme classes derive from this and add their kName.
template <class Layout>
class ClusterTable {
 public:
  using Bucket = typename Layout::Bucket;
  static constexpr int kBucketSlots = Layout::kSlots;
  static constexpr std::size_t kBucketBytes = sizeof(Bucket);
  // How many key bits a slot checks: 64, or fewer (false matches possible).
  static constexpr int kKeyCheckBits = BucketArray<Layout>::kKeyBits;
  static constexpr std::size_t kDefaultMiB = 1;

  ClusterTable() { configure(kDefaultMiB, 1, Replacement::DepthPreferred); }

  // Whether the table works from several processes when it lives in shared
  // memory (TableMemory::Shared): its buckets, locks and counters do.
  static constexpr bool kProcessShared = Layout::kProcessShared;

  // mib of entries for `threads` threads. Throws std::invalid_argument for
  // mib == 0, threads < 1 or sizes too large, std::bad_alloc if memory runs out.
  void configure(std::size_t mib, int threads, Replacement r,
                 TableMemory memory = TableMemory::Private) {
    validate_table_request(mib, threads);
    configure_bytes(mib << 20, threads, r, memory);
  }
  // Same with the size in bytes (rounded down to whole buckets, at least one),
  // for small tables in tests and the stress tool. With TableMemory::Shared
  // the buckets, lock stripes and counters live in shared mappings (the
  // table object itself does not: a process forked after this call works on
  // its copy of it, whose pointers lead to the same memory); `threads` then
  // counts the threads of every process, each with its own tid.
  void configure_bytes(std::size_t bytes, int threads, Replacement r,
                       TableMemory memory = TableMemory::Private) {
    validate_table_request(std::max<std::size_t>(1, bytes >> 20), threads);
    if (bytes < kBucketBytes)
      throw std::invalid_argument("table of " + std::to_string(bytes) +
                                  " bytes is smaller than one bucket (" +
                                  std::to_string(kBucketBytes) + " bytes)");
    check_fits_in_memory(bytes);
    array_.allocate(bytes / kBucketBytes, memory);
    counters_.resize(threads, memory);
    memory_ = memory;
    threads_ = threads;
    replacement_ = r;
    generation_.store(0, std::memory_order_relaxed);
  }
  void resize(std::size_t mib) { configure(mib, threads_, replacement_, memory_); }

  bool probe(Key key, TTData& out, int tid) {
    ThreadCounters::Slot& c = counters_[tid];
    ThreadCounters::bump(c.probes);
    std::uint64_t torn = 0;
    const std::uint64_t data = array_.probe(key, torn);
    if (torn) ThreadCounters::bump(c.torn, torn);
    if (data == 0) return false;
    ThreadCounters::bump(c.hits);
    out = packed::unpack(data);
    return true;
  }

  void store(Key key, const TTData& d, int tid) {
    ThreadCounters::bump(counters_[tid].stores);
    const std::uint8_t g = generation_.load(std::memory_order_relaxed);
    array_.store(key, packed::pack(d, g), g, replacement_);
  }

  // Searcher counts (see BucketArray::claim): the seam for ABDADA-style
  // backends. The handle in the result goes back to release().
  static constexpr bool kCountsSearchers = true;
  // Whether no racing claim or release is ever lost (bucket_array.h, kExactCounts).
  static constexpr bool kExactSearcherCounts = kExactCounts<Layout>;
  TTClaim claim(Key key, bool exclusive, int tid) {
    ThreadCounters::Slot& c = counters_[tid];
    ThreadCounters::bump(c.probes);
    std::uint64_t torn = 0;
    const TTClaim r = array_.claim(key, exclusive, generation_.load(std::memory_order_relaxed),
                                   replacement_, torn);
    if (torn) ThreadCounters::bump(c.torn, torn);
    if (r.found) ThreadCounters::bump(c.hits);
    return r;
  }
  // True when the count was already 0 (see BucketArray::release).
  bool release(Key key, TTSlot slot, int) { return array_.release(key, slot); }
  int searchers(Key key) { return array_.searchers(key); }
  std::uint64_t total_searchers() const { return array_.total_searchers(); }
  // Entries still marked busy: after a search, marks nobody released (leaks).
  // clear_busy_marks() also resets them, so the next search starts unmarked.
  // Both scan the whole table, only while no other thread uses it.
  std::uint64_t busy_marks() const { return array_.busy_marks(); }
  std::uint64_t clear_busy_marks() { return array_.clear_busy_marks(); }

  void clear() { array_.clear(); }
  // See BucketArray::break_locks.
  void break_locks() { array_.break_locks(); }
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
    const std::size_t sample = std::max<std::size_t>(1, 1000 / kBucketSlots);
    const std::size_t slots = std::min(sample, array_.buckets()) * kBucketSlots;
    return int(array_.count_current(sample, generation_.load(std::memory_order_relaxed)) * 1000 /
               slots);
  }
  TableCounters counters() const { return counters_.sum(); }
  void reset_counters() { counters_.reset(); }

  // Introspection for tests, tools and reports.
  std::size_t bucket_count() const { return array_.buckets(); }
  std::size_t entry_count() const { return array_.buckets() * kBucketSlots; }
  std::size_t bucket_of(Key key) const { return array_.index_of(key); }
  int threads() const { return threads_; }
  Replacement replacement() const { return replacement_; }
  TableMemory memory() const { return memory_; }
  std::uint8_t generation() const { return generation_.load(std::memory_order_relaxed); }

 private:
  BucketArray<Layout> array_;
  ThreadCounters counters_;
  int threads_ = 1;
  Replacement replacement_ = Replacement::DepthPreferred;
  TableMemory memory_ = TableMemory::Private;
  std::atomic<std::uint8_t> generation_{0};
};

}  // namespace xq
