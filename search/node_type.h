// Node types after Knuth and Moore, predicted along a thread's path: the root
// is a PV node; a PV node's first child is PV and its other children CUT;
// every child of a CUT node is ALL and every child of an ALL node CUT. An ALL
// node searches all its moves (none cuts off), a CUT node needs one. The
// split backends read the prediction: dts to choose a split point, the task
// engine's Mandatory Work First policy to spawn an ALL node's moves at once.
#pragma once

#include <array>
#include <cstdint>

#include "board/types.h"

namespace xq {

enum class NodeType : std::uint8_t { Pv, Cut, All };

constexpr NodeType child_type(NodeType parent, bool first_child) {
  if (parent == NodeType::Pv) return first_child ? NodeType::Pv : NodeType::Cut;
  return parent == NodeType::Cut ? NodeType::All : NodeType::Cut;
}

// The predicted type of the node at each ply of a thread's current path, and
// how many children of it have been entered so far. enter() is called as each
// node is entered (a hooks class's on_enter); a thread that starts in the
// middle of another thread's path (a split point's helper) calls resume().
struct NodeTypes {
  std::array<NodeType, kMaxPly + 2> types{};
  std::array<int, kMaxPly + 2> children{};

  void enter(int ply) {
    const auto p = std::size_t(ply);
    types[p] = ply == 0 ? NodeType::Pv : child_type(types[p - 1], children[p - 1]++ == 0);
    children[p] = 0;
  }
  // Continues at a node of type `type` at `ply` whose first `entered`
  // children were entered already (elsewhere).
  void resume(int ply, NodeType type, int entered) {
    types[std::size_t(ply)] = type;
    children[std::size_t(ply)] = entered;
  }
  NodeType at(int ply) const { return types[std::size_t(ply)]; }
};

}  // namespace xq
