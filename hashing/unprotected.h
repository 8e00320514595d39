// Unprotected: the baseline that shows what the other schemes protect against.
//
// Race model: a slot is two relaxed atomic words, the key and the packed data,
// written key first and read key first, with no check that they belong
// together. Each word is atomic (so this is legal C++ and ThreadSanitizer is
// silent), but the *pair* tears: a reader can see a new key with the old data
// while a writer is between its two stores, and two writers racing on one slot
// can leave key A beside data B for good. Such an entry is accepted as a hit
// for the wrong position — a corrupt move, score and bound. The scheme checks
// nothing (a loaded slot is never flagged torn); the only torn entries counted
// are those the bucket array notices for every scheme, a key that does not
// belong in its bucket (a reader that meets an empty slot's key 0 beside a
// writer's new data, say), and such slots are never returned, so the count is
// a small lower bound. The cost is the lowest of all shared schemes: two
// plain stores, two plain loads, no extra arithmetic. Never use it for real
// searches; it exists to measure how often tearing happens.
#pragma once

#include <string_view>

#include "hashing/cluster_table.h"

namespace xq {

struct UnprotectedLayout {
  static constexpr int kSlots = 4;
  using Bucket = PairBucket;  // slot i: words[2i] = key, words[2i+1] = data
  static constexpr bool kProcessShared = true;  // atomic words only
  void prepare(std::size_t, TableMemory) {}
  void break_locks(Bucket*, std::size_t) {}  // lockless
  NoLock guard(Bucket&, std::size_t) const { return {}; }
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

class UnprotectedTable : public ClusterTable<UnprotectedLayout> {
 public:
  static constexpr std::string_view kName = "unprotected";
  static constexpr std::string_view kSummary =
      "UNSAFE baseline: no check, torn entries accepted";
};

}  // namespace xq
