// How a dts thread that has fallen idle chooses among the open split points
// of every thread (Hyatt's DTS lets the idle processor pick), as a pure
// function of the split points' descriptors, and the node-type prediction a
// descriptor carries.
//
// Node types (search/node_type.h): an ALL node searches all its moves, so a
// helper there never wastes work on a cutoff; a CUT node that already
// searched its first move without a cutoff is the likeliest split point to
// cut off later and throw the helpers' work away.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "board/types.h"
#include "search/node_type.h"

namespace xq::dts {

using xq::NodeType;
using xq::child_type;

// The selection policies, in the order of their parameter choices.
enum class Policy : std::uint8_t {
  Depth,  // largest remaining depth first (then shallowest ply, most moves left)
  Moves,  // most moves left first (then largest remaining depth)
  Type,   // predicted ALL first, then PV, CUT last (then largest remaining depth)
  First,  // the first open split point met in the scan (ybwc's choice)
  // Proven ALL first: a PV node, or one that has searched at least
  // proven_moves moves without a cutoff (then largest remaining depth). A
  // cutoff after several moves failed to give one is rarer than after the
  // first: the prediction is checked against what the node did so far.
  Proven,
};
inline constexpr std::array<std::string_view, 5> kPolicyNames = {"depth", "moves", "type",
                                                                 "first", "proven"};

// What a thread looking for work reads about an open split point without
// taking its lock (a hint: the choice is checked under the lock on joining).
struct Candidate {
  int depth = 0;       // remaining depth of the node
  int ply = 0;
  int moves_left = 0;  // moves not yet handed out (pseudo-legal, an upper bound)
  NodeType type = NodeType::Pv;
  int workers = 0;     // threads inside, the owner included
  int searched = 0;    // moves searched to the end without a cutoff so far
};

namespace detail {

constexpr int type_rank(NodeType t) {
  return t == NodeType::All ? 2 : t == NodeType::Pv ? 1 : 0;
}

// Lexicographic: the first key that differs decides.
constexpr bool better_keys(std::initializer_list<int> a, std::initializer_list<int> b) {
  const int* x = a.begin();
  for (const int* y = b.begin(); x != a.end(); ++x, ++y)
    if (*x != *y) return *x > *y;
  return false;
}

}  // namespace detail

// Whether the policy prefers a to b (false for equals: the scan order decides).
// proven_moves is Policy::Proven's threshold.
constexpr bool better(const Candidate& a, const Candidate& b, Policy policy,
                      int proven_moves = 2) {
  using detail::better_keys;
  using detail::type_rank;
  const auto proven = [proven_moves](const Candidate& c) {
    return c.type == NodeType::Pv || c.searched >= proven_moves ? 1 : 0;
  };
  switch (policy) {
    case Policy::Depth:
      return better_keys({a.depth, -a.ply, a.moves_left, -a.workers},
                         {b.depth, -b.ply, b.moves_left, -b.workers});
    case Policy::Moves:
      return better_keys({a.moves_left, a.depth, -a.workers}, {b.moves_left, b.depth, -b.workers});
    case Policy::Type:
      return better_keys({type_rank(a.type), a.depth, a.moves_left},
                         {type_rank(b.type), b.depth, b.moves_left});
    case Policy::First: return false;
    case Policy::Proven:
      return better_keys({proven(a), a.depth, -a.ply, a.moves_left, -a.workers},
                         {proven(b), b.depth, -b.ply, b.moves_left, -b.workers});
  }
  return false;
}

// The index of the candidate the policy picks, or -1 when none has a move
// left. Candidates come in scan order; ties go to the earlier one.
constexpr int pick(std::span<const Candidate> candidates, Policy policy, int proven_moves = 2) {
  int best = -1;
  for (int i = 0; i < int(candidates.size()); ++i) {
    const Candidate& c = candidates[std::size_t(i)];
    if (c.moves_left <= 0) continue;
    if (best < 0) {
      best = i;
      if (policy == Policy::First) break;
    } else if (better(c, candidates[std::size_t(best)], policy, proven_moves)) {
      best = i;
    }
  }
  return best;
}

// A Candidate packed into one word, so that a scanning thread reads a split
// point's descriptor with one relaxed load and never sees half an update.
// Bits: 0-7 depth, 8-15 ply, 16-17 type, 18-27 moves left, 28-36 workers,
// 37-46 moves searched.
// Zero means "closed": an open split point always has a worker.
constexpr std::uint64_t pack(const Candidate& c) {
  const auto field = [](int v, int bits) {
    const int most = (1 << bits) - 1;
    return std::uint64_t(v < 0 ? 0 : v > most ? most : v);
  };
  return field(c.depth, 8) | field(c.ply, 8) << 8 | std::uint64_t(c.type) << 16 |
         field(c.moves_left, 10) << 18 | field(c.workers, 9) << 28 | field(c.searched, 10) << 37;
}

constexpr Candidate unpack(std::uint64_t w) {
  Candidate c;
  c.depth = int(w & 0xff);
  c.ply = int(w >> 8 & 0xff);
  c.type = NodeType(w >> 16 & 3);
  c.moves_left = int(w >> 18 & 0x3ff);
  c.workers = int(w >> 28 & 0x1ff);
  c.searched = int(w >> 37 & 0x3ff);
  return c;
}

}  // namespace xq::dts
