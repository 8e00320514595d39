// Locked buckets with a spinlock word per bucket (seeds 000 and 004).
//
// Race model: nothing tears. Each 64-byte bucket starts with a lock word taken
// by an atomic exchange (acquire) and released by a store (release); a waiter
// spins on plain relaxed loads with a pause instruction until the word looks
// free before trying the exchange again (test-and-test-and-set), so waiting
// does not keep stealing the cache line. Probes take the lock too, so a probe
// never sees half a store; the entry words inside are relaxed atomics whose
// ordering the lock provides. torn_detected stays 0. Cost: an atomic
// read-modify-write and a release store per probe and per store, a bucket of
// three entries instead of four (the lock word takes the fourth slot's room;
// the word left over stays unused), and a thread preempted while holding a
// lock stalls every thread wanting that bucket. Searcher counts (claim and
// release) change under the lock, so they are exact.
#pragma once

#include <cstdint>
#include <string_view>

#include "hashing/cluster_table.h"
#include "hashing/processes.h"

namespace xq {

struct SpinlockLayout {
  static constexpr int kSlots = 3;
  struct alignas(kCacheLine) Bucket {
    std::atomic<std::uint64_t> lock;
    std::atomic<std::uint64_t> words[2 * kSlots];  // slot i: key, data
  };
  static_assert(sizeof(Bucket) == kCacheLine);

  class Guard {
   public:
    explicit Guard(std::atomic<std::uint64_t>& lock) : lock_(lock) {
      while (lock_.exchange(1, std::memory_order_acquire) != 0)
        for (std::uint32_t spins = 1; lock_.load(std::memory_order_relaxed) != 0; ++spins) {
          cpu_relax();
          // A worker process spinning on a word its killed parent held
          // would spin for ever: it leaves (a look every 65,536 pauses).
          if ((spins & 0xFFFF) == 0) WorkerProcesses::leave_if_orphaned();
        }
    }
    ~Guard() { lock_.store(0, std::memory_order_release); }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    std::atomic<std::uint64_t>& lock_;
  };

  static constexpr bool kProcessShared = true;  // atomic words only
  void prepare(std::size_t, TableMemory) {}
  void break_locks(Bucket* buckets, std::size_t n) {
    for (std::size_t b = 0; b < n; ++b) buckets[b].lock.store(0, std::memory_order_release);
  }
  Guard guard(Bucket& b, std::size_t) const { return Guard(b.lock); }
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
};

class SpinlockTable : public ClusterTable<SpinlockLayout> {
 public:
  static constexpr std::string_view kName = "spinlock";
  static constexpr std::string_view kSummary =
      "spinlock word per bucket (exchange + pause)";
};

}  // namespace xq
