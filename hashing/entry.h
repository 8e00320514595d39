// What a transposition-table entry holds, and how that is packed into one
// 64-bit data word shared by every scheme. The schemes differ only in how they
// guard that word (and the key beside it) against concurrent writers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "board/types.h"

namespace xq {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// What a probe returns (a copy) and a store takes.
struct TTData {
  Move move;               // Move::none() when none
  std::int16_t value = 0;  // as given by the caller (caller does mate-ply adjustment)
  std::int16_t eval = 0;   // static eval, may be unused
  std::int8_t depth = 0;   // remaining depth; negative allowed down to -8 (quiescence)
  Bound bound = Bound::None;
  std::uint8_t generation = 0;  // filled by the table on store

  friend constexpr bool operator==(const TTData&, const TTData&) = default;
};

enum class Replacement : std::uint8_t { DepthPreferred, AlwaysReplace, TwoTier };

// Where a claimed entry lives, so that its release finds it without a
// second search of the bucket (unless the slot was overwritten meanwhile).
// slot < 0: nothing was claimed (the table holds no searcher counts, or the
// bucket had no room for a placeholder).
struct TTSlot {
  std::size_t bucket = 0;
  int slot = -1;
};

// What claim() returns: the probe's answer plus the handle to release.
// busy: an exclusive claim found other searchers and claimed nothing.
struct TTClaim {
  bool found = false;
  bool busy = false;
  TTData data;        // valid when found
  int searchers = 0;  // threads already searching the node, before this claim
  TTSlot slot;
};

struct TableCounters {
  std::uint64_t probes = 0, hits = 0, stores = 0, torn_detected = 0;
};

constexpr std::size_t kCacheLine = 64;
constexpr int kMaxTableThreads = 1024;
constexpr std::size_t kMaxTableMiB = std::size_t{1} << 18;  // 256 GiB

// ------------------------------------------------------------ data word layout
// One 64-bit word per entry:
//   bits  0..13  move (Move::raw(); a legal move never sets bits 14..15)
//   bits 14..29  value, int16 two's complement
//   bits 30..45  static eval, int16 two's complement
//   bits 46..53  depth, int8 two's complement (-128..127)
//   bits 54..55  bound (Bound)
//   bits 56..60  generation modulo 32 (aging)
//   bit  61      occupied: always 1 in a stored entry, so data == 0 means "empty"
//   bits 62..63  searchers: how many threads are searching this node now
//                (Weill's nproc for ABDADA), saturating at 3. Only a claim
//                (a probe by a thread about to search the node) raises it and
//                only a release lowers it; a store keeps the count of the
//                same-key slot it replaces; pack() writes 0.
// The key travels beside this word (how depends on the scheme), never inside it.
namespace packed {

constexpr int kMoveShift = 0, kValueShift = 14, kEvalShift = 30, kDepthShift = 46,
              kBoundShift = 54, kGenerationShift = 56, kOccupiedShift = 61, kSearchersShift = 62;
constexpr std::uint64_t kMoveMask = 0x3FFF;
constexpr std::uint64_t kGenerationMask = 0x1F;  // 5 bits
constexpr int kGenerations = 32;
constexpr std::uint64_t kOccupied = std::uint64_t{1} << kOccupiedShift;
constexpr std::uint64_t kSearchersMask = std::uint64_t{3} << kSearchersShift;
constexpr int kMaxSearchers = 3;
// Depth of the placeholder a claim writes when the node has no entry yet
// (bound None): below every real depth, so any store replaces it.
constexpr std::int8_t kPlaceholderDepth = -128;

constexpr std::uint64_t pack(const TTData& d, std::uint8_t generation) {
  return (std::uint64_t(d.move.raw()) & kMoveMask) << kMoveShift |
         std::uint64_t(std::uint16_t(d.value)) << kValueShift |
         std::uint64_t(std::uint16_t(d.eval)) << kEvalShift |
         std::uint64_t(std::uint8_t(d.depth)) << kDepthShift |
         std::uint64_t(d.bound) << kBoundShift |
         (std::uint64_t(generation) & kGenerationMask) << kGenerationShift | kOccupied;
}

constexpr TTData unpack(std::uint64_t w) {
  TTData d;
  d.move = Move::from_raw(std::uint16_t(w >> kMoveShift & kMoveMask));
  d.value = std::int16_t(std::uint16_t(w >> kValueShift));
  d.eval = std::int16_t(std::uint16_t(w >> kEvalShift));
  d.depth = std::int8_t(std::uint8_t(w >> kDepthShift));
  d.bound = Bound(w >> kBoundShift & 3);
  d.generation = std::uint8_t(w >> kGenerationShift & kGenerationMask);
  return d;
}

constexpr int depth_of(std::uint64_t w) { return std::int8_t(std::uint8_t(w >> kDepthShift)); }
constexpr std::uint8_t generation_of(std::uint64_t w) {
  return std::uint8_t(w >> kGenerationShift & kGenerationMask);
}
constexpr Bound bound_of(std::uint64_t w) { return Bound(w >> kBoundShift & 3); }
constexpr bool occupied(std::uint64_t w) { return (w & kOccupied) != 0; }
constexpr int searchers_of(std::uint64_t w) { return int(w >> kSearchersShift); }
constexpr std::uint64_t with_searchers(std::uint64_t w, int n) {
  return (w & ~kSearchersMask) | std::uint64_t(n) << kSearchersShift;
}

static_assert(kGenerationShift + 5 == kOccupiedShift && kOccupiedShift + 1 == kSearchersShift);
static_assert(unpack(pack(TTData{Move::from_raw(0x3FFF), -32768, 32767, -8, Bound::Exact, 0}, 31))
                  .depth == -8);
static_assert(unpack(pack(TTData{Move::from_raw(0x1234), -5, 7, 100, Bound::Lower, 0}, 33)) ==
              TTData{Move::from_raw(0x1234), -5, 7, 100, Bound::Lower, 1});

}  // namespace packed

}  // namespace xq
