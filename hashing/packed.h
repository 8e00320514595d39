// Packed clusters: six entries of 10 bytes in one 64-byte line, the key
// kept as a 16-bit check (as Stockfish keeps three 10-byte entries in 32
// bytes), so that a MiB holds 98,304 entries instead of the 65,536 of the
// 16-byte schemes.
//
// Layout: the six 64-bit data words (hashing/entry.h, searcher count
// included) side by side, then six 16-bit check words, then 4 spare bytes:
// 6 x (8 + 2) + 4 = 64. Each word is a relaxed atomic of its own width, so
// the bytes of an entry sit apart but no word of it straddles another's.
//
// Which key bits: the bucket index comes from the key's low 32 bits
// (BucketArray::index_of), the check from its top 16, so the two are
// independent and a slot holds one of 2^16 positions' keys among those that
// map to its bucket. A probe of a position the bucket does not hold accepts
// another's entry when their top 16 bits agree: about (occupied slots) /
// 65,536 per such probe, a *false match*, the price of the shorter key.
//
// Race model: lockless; the check word is the key's top 16 bits XOR a
// 16-bit fold of the data word (Hyatt and Mann's idea in 16 bits), so a
// reader that combines one store's check with another's data sees a wrong
// key and passes the slot by, except with probability about 2^-16. The
// bucket array cannot tell such a mix from another position's entry (it
// cannot recompute a bucket from 16 bits), so torn_detected stays 0 here:
// the stress tool's corrupt entries accepted count what gets through, false
// matches and mixes together. Searcher counts are a hint, as in xor: two
// racing claims may lose an update. Which backends run on it: every one
// that runs on xor (the data word is the same), with the same inexact
// counts.
#pragma once

#include <cstdint>
#include <string_view>

#include "hashing/cluster_table.h"

namespace xq {

struct PackedLayout {
  static constexpr int kSlots = 6;
  // The key bits a slot keeps (LoadedSlot::key holds these bits only).
  static constexpr Key kKeyMask = Key{0xFFFF} << 48;
  struct alignas(kCacheLine) Bucket {
    std::atomic<std::uint64_t> data[kSlots];
    std::atomic<std::uint16_t> check[kSlots];
    std::uint8_t spare[kCacheLine - kSlots * 10];
  };
  static_assert(sizeof(Bucket) == kCacheLine);

  static constexpr bool kProcessShared = true;  // atomic words only
  void prepare(std::size_t, TableMemory) {}
  void break_locks(Bucket*, std::size_t) {}  // lockless
  NoLock guard(Bucket&, std::size_t) const { return {}; }
  static constexpr std::uint16_t fold(std::uint64_t d) {
    return std::uint16_t(d ^ d >> 16 ^ d >> 32 ^ d >> 48);
  }
  static LoadedSlot load(const Bucket& b, int i) {
    LoadedSlot s;
    s.data = b.data[i].load(std::memory_order_relaxed);
    const std::uint16_t check = b.check[i].load(std::memory_order_relaxed);
    s.key = Key(std::uint16_t(check ^ fold(s.data))) << 48;
    return s;
  }
  static void save(Bucket& b, int i, Key key, std::uint64_t data) {
    b.data[i].store(data, std::memory_order_relaxed);
    b.check[i].store(std::uint16_t(std::uint16_t(key >> 48) ^ fold(data)),
                     std::memory_order_relaxed);
  }
};

class PackedTable : public ClusterTable<PackedLayout> {
 public:
  static constexpr std::string_view kName = "packed";
  static constexpr std::string_view kSummary =
      "lockless, six 10-byte entries per line, 16-bit key check ^ data fold (false matches)";
};

}  // namespace xq
