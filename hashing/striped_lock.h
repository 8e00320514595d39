// A layout whose buckets are guarded by a striped array of lock objects kept
// beside the table: bucket b takes stripe b mod kStripes. Used by the mutex
// and tbbspin schemes, which differ only in the lock type.
//
// Race model: nothing tears; every probe and store holds the bucket's stripe
// lock, whose acquire/release orders the relaxed entry words inside.
// torn_detected stays 0. Two buckets sharing a stripe contend although they do
// not conflict; with kStripes = 4096 and 2 threads that is rare. Memory: the
// stripes (one cache line each, 256 KiB) come on top of the configured size,
// which all goes to entries, so the entry count equals the lockless schemes'.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <type_traits>

#include "hashing/cluster_table.h"

namespace xq {

template <class Lock>
struct StripedLayout {
  static constexpr int kSlots = 4;
  static constexpr std::size_t kStripes = 4096;  // a power of two
  using Bucket = PairBucket;  // slot i: words[2i] = key, words[2i+1] = data

  struct alignas(kCacheLine) Stripe {
    Lock lock;
  };

  // A lock works across processes when it is an address-free atomic
  // (tbb::spin_mutex); std::mutex is a process-private futex.
  static constexpr bool kProcessShared = !std::is_same_v<Lock, std::mutex>;
  void prepare(std::size_t, TableMemory memory) {
    if (memory == TableMemory::Shared && !kProcessShared)
      throw std::invalid_argument("a striped std::mutex cannot be shared between processes");
    stripes_ = TableBlock<Stripe>(kStripes, memory);
  }
  // Unlocks every stripe (see BucketArray::break_locks): a lock that works
  // across processes is a flag without an owner, so this clears it; a
  // process-private std::mutex never needs it (its holder is a thread of
  // the same process) and is left alone.
  template <class Bucket>
  void break_locks(Bucket*, std::size_t) {
    if constexpr (kProcessShared)
      for (std::size_t i = 0; i < stripes_.size(); ++i) stripes_[i].lock.unlock();
  }
  std::lock_guard<Lock> guard(Bucket&, std::size_t index) const {
    return std::lock_guard<Lock>(stripes_[index & (kStripes - 1)].lock);
  }
  static LoadedSlot load(const Bucket& b, int i) {
    LoadedSlot s;
    s.key = b.words[2 * i].load(std::memory_order_relaxed);
    s.data = b.words[2 * i + 1].load(std::memory_order_relaxed);
    return s;
  }
  static void save(Bucket& b, int i, Key key, std::uint64_t data) {
    b.words[2 * i].store(key, std::memory_order_relaxed);
    b.words[2 * i + 1].store(data, std::memory_order_relaxed);
  }

 private:
  TableBlock<Stripe> stripes_;
};

}  // namespace xq
