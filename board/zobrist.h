// Zobrist keys: one random 64-bit key per (piece, square) and one for the side
// to move, from a fixed-seed generator so keys (and so node counts of a
// search) are identical in every run and on every machine.
#pragma once

#include <array>

#include "board/types.h"

namespace xq::zobrist {

struct Keys {
  std::array<std::array<Key, kSquares>, kPieceCodes> psq{};
  Key black_to_move = 0;
};

namespace detail {
// SplitMix64: tiny, well mixed, and fully determined by its seed.
struct SplitMix64 {
  std::uint64_t state;
  constexpr std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

constexpr Keys build_keys() {
  Keys k;
  SplitMix64 rng{0x58514C4142ULL};  // "XQLAB"
  for (auto& row : k.psq)
    for (Key& key : row) key = rng.next();
  k.psq[0].fill(0);  // the empty square contributes nothing
  k.black_to_move = rng.next();
  return k;
}

}  // namespace detail

inline constexpr Keys kKeys = detail::build_keys();

inline Key piece_key(Piece p, Square s) { return kKeys.psq[index(p)][index(s)]; }

}  // namespace xq::zobrist
