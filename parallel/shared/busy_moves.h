// The side table of simplified ABDADA (Kerrigan 2017): the (position, move)
// pairs some thread is searching right now, as 64-bit move hashes
// (position key ^ f(move)), in buckets of a few ways. The transposition
// table's entries stay untouched.
//
// A thread marks a move by claiming a free slot of the move's bucket (0 ->
// hash) and owns that slot until it frees it, so two threads searching the
// same move hold two slots and no mark is ever lost or freed by the wrong
// thread. A full bucket leaves the move unmarked: a lost hint, never a wrong
// value. Marks publish nothing else, so relaxed atomics suffice; a stale read
// only defers a move needlessly or searches it twice at once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "board/types.h"

namespace xq {

class BusyMoves {
 public:
  static constexpr int kMaxWays = 16;
  static constexpr std::size_t kMaxBuckets = std::size_t{1} << 22;

  BusyMoves(std::size_t buckets, int ways) {
    if (buckets < 1 || buckets > kMaxBuckets || ways < 1 || ways > kMaxWays)
      throw std::invalid_argument("busy-move table needs 1.." + std::to_string(kMaxBuckets) +
                                  " buckets of 1.." + std::to_string(kMaxWays) + " ways");
    buckets_ = buckets;
    ways_ = ways;
    slots_ = std::make_unique<std::atomic<std::uint64_t>[]>(buckets * std::size_t(ways));
    clear();
  }

  std::size_t buckets() const { return buckets_; }
  int ways() const { return ways_; }

  // The hash of move m in the position with key `key`; never 0 (a free slot).
  static std::uint64_t move_hash(Key key, Move m) {
    const std::uint64_t h = key ^ ((std::uint64_t{m.raw()} + 1) * 0x9E3779B97F4A7C15ULL);
    return h != 0 ? h : 1;
  }

  // Marks h in a free slot of its bucket; returns that slot (for unmark) or
  // -1 when every way of the bucket is taken.
  long mark(std::uint64_t h) {
    std::atomic<std::uint64_t>* b = bucket(h);
    for (int i = 0; i < ways_; ++i) {
      std::uint64_t expected = 0;
      if (b[i].load(std::memory_order_relaxed) == 0 &&
          b[i].compare_exchange_strong(expected, h, std::memory_order_relaxed))
        return long(b - slots_.get()) + i;
    }
    return -1;
  }

  // Frees the slot mark() returned for h. False when the slot did not hold h
  // (an underflow: something else freed it, which the ownership rule forbids).
  bool unmark(long slot, std::uint64_t h) {
    std::uint64_t expected = h;
    return slots_[std::size_t(slot)].compare_exchange_strong(expected, 0,
                                                             std::memory_order_relaxed);
  }

  bool marked(std::uint64_t h) const {
    const std::atomic<std::uint64_t>* b = bucket(h);
    for (int i = 0; i < ways_; ++i)
      if (b[i].load(std::memory_order_relaxed) == h) return true;
    return false;
  }

  // Slots still marked (after a search: marks that leaked).
  std::size_t count_marked() const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < buckets_ * std::size_t(ways_); ++i)
      n += slots_[i].load(std::memory_order_relaxed) != 0;
    return n;
  }

  // Only while no thread marks.
  void clear() {
    for (std::size_t i = 0; i < buckets_ * std::size_t(ways_); ++i)
      slots_[i].store(0, std::memory_order_relaxed);
  }

 private:
  // The high bits of h pick the bucket (any bucket count, no modulo).
  std::size_t bucket_index(std::uint64_t h) const {
    __extension__ using Wide = unsigned __int128;
    return std::size_t((Wide{h} * buckets_) >> 64);
  }
  std::atomic<std::uint64_t>* bucket(std::uint64_t h) {
    return slots_.get() + bucket_index(h) * std::size_t(ways_);
  }
  const std::atomic<std::uint64_t>* bucket(std::uint64_t h) const {
    return slots_.get() + bucket_index(h) * std::size_t(ways_);
  }

  std::size_t buckets_ = 0;
  int ways_ = 0;
  std::unique_ptr<std::atomic<std::uint64_t>[]> slots_;
};

}  // namespace xq
