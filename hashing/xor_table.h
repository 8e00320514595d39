// XOR lockless hashing (Hyatt and Mann, as in Crafty).
//
// Race model: a slot is two relaxed atomic words, `key ^ data` and `data`. The
// pair can tear exactly as in the unprotected scheme — a reader may combine
// the check word of one store with the data word of another — but a probe
// accepts a slot only when check ^ data equals the probed key, and a mix of two
// different stores passes that test only if the two data words are equal (then
// the mix *is* a consistent entry) or with probability about 2^-64 for unrelated
// words. Two stores of the same key with different data also fail the test, so
// a torn same-key pair is rejected instead of blending two scores. A rejected
// mix usually decodes to a key that does not belong in the bucket, which is
// counted as torn_detected (a lower bound: a mix decoding to a key of the same
// bucket looks like another position). Cost against unprotected: one XOR on
// store and per slot on probe, and the probe must read the data word of every
// slot rather than of the matching one; both words share a cache line.
#pragma once

#include <string_view>

#include "hashing/cluster_table.h"

namespace xq {

struct XorLayout {
  static constexpr int kSlots = 4;
  using Bucket = PairBucket;  // slot i: words[2i] = key ^ data, words[2i+1] = data
  static constexpr bool kProcessShared = true;  // atomic words only
  void prepare(std::size_t, TableMemory) {}
  void break_locks(Bucket*, std::size_t) {}  // lockless
  NoLock guard(Bucket&, std::size_t) const { return {}; }
  static LoadedSlot load(const Bucket& b, int i) {
    LoadedSlot s;
    const std::uint64_t check = b.words[2 * i].load(std::memory_order_relaxed);
    s.data = b.words[2 * i + 1].load(std::memory_order_relaxed);
    s.key = check ^ s.data;
    return s;
  }
  static void save(Bucket& b, int i, Key key, std::uint64_t data) {
    b.words[2 * i].store(key ^ data, std::memory_order_relaxed);
    b.words[2 * i + 1].store(data, std::memory_order_relaxed);
  }
};

class XorTable : public ClusterTable<XorLayout> {
 public:
  static constexpr std::string_view kName = "xor";
  static constexpr std::string_view kSummary =
      "lockless, check word = key ^ data (Hyatt-Mann)";
};

}  // namespace xq
