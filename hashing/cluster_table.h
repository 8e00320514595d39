// The machinery every scheme shares: a cache-line aligned array of buckets
// indexed by the key, the probe/store loops, aging, hashfull, and per-thread
// counters. A scheme is a *Layout* — how one bucket is laid out, how a slot is
// read and written, and what lock (if any) guards a bucket:
//
//   struct Layout {
//     static constexpr int kSlots;             // entries per bucket
//     struct Bucket;                           // alignas(64), size a multiple of 64
//     void prepare(std::size_t buckets);       // size any side structures (lock stripes)
//     auto guard(Bucket&, std::size_t index);  // RAII lock held for one probe/store
//     static LoadedSlot load(const Bucket&, int slot);
//     static void save(Bucket&, int slot, Key key, std::uint64_t data);
//   };
//
// Everything is a template instantiated per scheme, so the hot path has no
// virtual call and no branch on the scheme.
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "hashing/entry.h"
#include "hashing/memory.h"
#include "hashing/replacement.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace xq {

// One slot as a probe sees it. `key` is the key the slot claims (decoded for
// XOR-style schemes); `torn` is set when the scheme itself saw the slot torn.
struct LoadedSlot {
  Key key = 0;
  std::uint64_t data = 0;
  bool torn = false;
};

// Bucket of four (key word, data word) pairs: 64 bytes, one cache line.
struct alignas(kCacheLine) PairBucket {
  std::atomic<std::uint64_t> words[8];
};
static_assert(sizeof(PairBucket) == kCacheLine);

// A guard that guards nothing, for the lockless schemes.
struct NoLock {};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// Counters as one cache line per thread slot: thread tid is the only writer of
// slot tid (a relaxed load + store, no read-modify-write), readers sum them.
class ThreadCounters {
 public:
  struct alignas(kCacheLine) Slot {
    std::atomic<std::uint64_t> probes{0}, hits{0}, stores{0}, torn{0};
  };
  static_assert(sizeof(Slot) == kCacheLine);

  void resize(int threads) {
    slots_ = std::make_unique<Slot[]>(std::size_t(threads));
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
  std::unique_ptr<Slot[]> slots_;
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

// The bucket array and the probe/store loops of one table.
template <class Layout>
class BucketArray {
 public:
  using Bucket = typename Layout::Bucket;
  static constexpr int kSlots = Layout::kSlots;
  static_assert(kSlots >= 2, "two-tier replacement needs two slots per bucket");
  static_assert(alignof(Bucket) >= kCacheLine && sizeof(Bucket) % kCacheLine == 0);

  // Zeroed buckets; throws std::bad_alloc. Leaves *this unchanged on failure.
  void allocate(std::size_t buckets) {
    auto fresh = std::make_unique<Bucket[]>(buckets);  // value-initialised: all words 0
    Layout layout;
    layout.prepare(buckets);
    table_ = std::move(fresh);
    layout_ = std::move(layout);
    count_ = buckets;
  }
  std::size_t buckets() const { return count_; }

  // Maps the key onto [0, count_) by a multiply-high, so any bucket count
  // works. The key is rotated first so that the index comes from its low 32
  // bits: a torn XOR-style mix differs from a real key in the bits where two
  // data words differ — mostly the low ones (move, value), hardly ever the
  // high ones (bound, generation) — so this way a torn slot almost always
  // decodes to a key of another bucket, which probe() counts as torn.
  std::size_t index_of(Key key) const {
    __extension__ using U128 = unsigned __int128;
    const Key rotated = key << 32 | key >> 32;
    return std::size_t((U128(rotated) * U128(count_)) >> 64);
  }

  // The deepest slot holding `key` (packed data word), or 0. Adds to `torn`
  // the slots seen torn: flagged by the scheme, or claiming a key that does
  // not belong in this bucket (a mix of two entries decodes to such a key
  // with probability 1 - 1/buckets, so this is a lower bound).
  std::uint64_t probe(Key key, std::uint64_t& torn) {
    const std::size_t b = index_of(key);
    Bucket& bucket = table_[b];
    [[maybe_unused]] const auto guard = layout_.guard(bucket, b);
    std::uint64_t best = 0;
    for (int i = 0; i < kSlots; ++i) {
      const LoadedSlot s = Layout::load(bucket, i);
      if (s.torn) {
        ++torn;
      } else if (packed::occupied(s.data)) {
        if (s.key == key) {
          if (best == 0 || packed::depth_of(s.data) > packed::depth_of(best)) best = s.data;
        } else if (index_of(s.key) != b) {
          ++torn;
        }
      }
    }
    return best;
  }

  void store(Key key, std::uint64_t data, std::uint8_t generation, Replacement r) {
    const std::size_t b = index_of(key);
    Bucket& bucket = table_[b];
    [[maybe_unused]] const auto guard = layout_.guard(bucket, b);
    replacement::SlotState state[kSlots];
    for (int i = 0; i < kSlots; ++i) {
      const LoadedSlot s = Layout::load(bucket, i);
      replacement::SlotState& st = state[i];
      st.empty = s.torn || !packed::occupied(s.data) || (s.key != key && index_of(s.key) != b);
      if (st.empty) continue;
      st.same_key = s.key == key;
      st.depth = packed::depth_of(s.data);
      st.age = int((generation - packed::generation_of(s.data)) & packed::kGenerationMask);
    }
    const int slot = replacement::choose_slot(state, kSlots, packed::depth_of(data),
                                              packed::bound_of(data), r);
    if (slot >= 0) Layout::save(bucket, slot, key, data);
  }

  // Zeroes every word (only while no other thread uses the table).
  void clear() {
    for (std::size_t b = 0; b < count_; ++b)
      for (int i = 0; i < kSlots; ++i) Layout::save(table_[b], i, 0, 0);
  }

  // Occupied slots of `generation` among the first `sample` buckets.
  std::size_t count_current(std::size_t sample, std::uint8_t generation) const {
    std::size_t used = 0;
    for (std::size_t b = 0; b < std::min(sample, count_); ++b)
      for (int i = 0; i < kSlots; ++i) {
        const LoadedSlot s = Layout::load(table_[b], i);
        used += !s.torn && packed::occupied(s.data) && packed::generation_of(s.data) == generation;
      }
    return used;
  }

 private:
  std::unique_ptr<Bucket[]> table_;
  std::size_t count_ = 0;
  Layout layout_;
};

// A whole table for the schemes that share one bucket array between threads.
// The concrete scheme classes derive from this and add their kName.
template <class Layout>
class ClusterTable {
 public:
  using Bucket = typename Layout::Bucket;
  static constexpr int kBucketSlots = Layout::kSlots;
  static constexpr std::size_t kBucketBytes = sizeof(Bucket);
  static constexpr std::size_t kDefaultMiB = 1;

  ClusterTable() { configure(kDefaultMiB, 1, Replacement::DepthPreferred); }

  // mib of entries for `threads` threads. Throws std::invalid_argument for
  // mib == 0, threads < 1 or sizes too large, std::bad_alloc if memory runs out.
  void configure(std::size_t mib, int threads, Replacement r) {
    validate_table_request(mib, threads);
    configure_bytes(mib << 20, threads, r);
  }
  // Same with the size in bytes (rounded down to whole buckets, at least one),
  // for small tables in tests and the stress tool.
  void configure_bytes(std::size_t bytes, int threads, Replacement r) {
    validate_table_request(std::max<std::size_t>(1, bytes >> 20), threads);
    if (bytes < kBucketBytes)
      throw std::invalid_argument("table of " + std::to_string(bytes) +
                                  " bytes is smaller than one bucket (" +
                                  std::to_string(kBucketBytes) + " bytes)");
    check_fits_in_memory(bytes);
    array_.allocate(bytes / kBucketBytes);
    counters_.resize(threads);
    threads_ = threads;
    replacement_ = r;
    generation_.store(0, std::memory_order_relaxed);
  }
  void resize(std::size_t mib) { configure(mib, threads_, replacement_); }

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

  void clear() { array_.clear(); }
  void new_search() {
    const auto g = generation_.load(std::memory_order_relaxed);
    generation_.store(std::uint8_t((g + 1) & packed::kGenerationMask), std::memory_order_relaxed);
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
  std::uint8_t generation() const { return generation_.load(std::memory_order_relaxed); }

 private:
  BucketArray<Layout> array_;
  ThreadCounters counters_;
  int threads_ = 1;
  Replacement replacement_ = Replacement::DepthPreferred;
  std::atomic<std::uint8_t> generation_{0};
};

}  // namespace xq
