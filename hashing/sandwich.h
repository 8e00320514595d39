// Checksum sandwich (the variant of seed 000, laid out as in ElephantEye: check
// words at both ends of the entry).
//
// Race model: a slot is three atomic words — head check, data, tail check —
// with head == tail == key ^ data. A writer
// stores head, then data and tail with release; a reader loads tail and data
// with acquire, then head: the opposite order, as in a seqlock (release/acquire
// pairs rather than fences, which ThreadSanitizer does not model). If the
// reader's data came from a later store than its tail, the orders guarantee it
// sees that later store's head (or a newer one), so a write in progress or a
// mix of two writes shows as head != tail and is counted as torn_detected. Ordering alone cannot
// catch an A-B-A overwrite in which a third store puts A's check word back at
// the head around B's data, so the check words are a checksum of the data
// too: a probe accepts only head == tail and head ^ data == key. On x86
// acquire/release cost no instructions, only reordering freedom; the real
// price is memory: 24-byte entries, two per cache line instead of four.
// Searcher counts live in the data word, so a claim or release rewrites all
// three words like a store: racing claims may lose an update, never tear.
#pragma once

#include <string_view>

#include "hashing/cluster_table.h"

namespace xq {

struct SandwichLayout {
  static constexpr int kSlots = 2;
  struct alignas(kCacheLine) Bucket {
    struct Slot {
      std::atomic<std::uint64_t> head, data, tail;
    } slots[kSlots];
  };
  static_assert(sizeof(Bucket) == kCacheLine);

  static constexpr bool kProcessShared = true;  // atomic words only
  void prepare(std::size_t, TableMemory) {}
  void break_locks(Bucket*, std::size_t) {}  // lockless
  NoLock guard(Bucket&, std::size_t) const { return {}; }
  static LoadedSlot load(const Bucket& b, int i) {
    const Bucket::Slot& s = b.slots[i];
    LoadedSlot out;
    const std::uint64_t tail = s.tail.load(std::memory_order_acquire);
    out.data = s.data.load(std::memory_order_acquire);
    const std::uint64_t head = s.head.load(std::memory_order_relaxed);
    out.torn = head != tail;
    out.key = head ^ out.data;
    return out;
  }
  static void save(Bucket& b, int i, Key key, std::uint64_t data) {
    Bucket::Slot& s = b.slots[i];
    const std::uint64_t check = key ^ data;
    s.head.store(check, std::memory_order_relaxed);
    s.data.store(data, std::memory_order_release);
    s.tail.store(check, std::memory_order_release);
  }
};

class SandwichTable : public ClusterTable<SandwichLayout> {
 public:
  static constexpr std::string_view kName = "sandwich";
  static constexpr std::string_view kSummary =
      "lockless, check words at both ends (ElephantEye-style)";
};

}  // namespace xq
