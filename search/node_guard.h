// Enter/leave of one node of the node function (search/search.h):
// on_enter() when the guard is made; on_leave() and then the release of the
// node's table claim when the node function exits by any path, exceptions
// included. Compiles to nothing for hooks that use neither.
#pragma once

#include "hashing/entry.h"
#include "search/worker.h"
#include "search/coordination.h"

namespace xq {

template <class Table, class Hooks>
class NodeGuard {
 public:
  NodeGuard(Table& tt, Hooks& hooks, Worker& w, int ply)
      : tt_(tt), hooks_(hooks), w_(w), ply_(ply) {
    if constexpr (Hooks::kTracksNodes) hooks_.on_enter(w_, ply_);
  }
  // A release that finds the count already at 0 is counted: a mark was lost
  // (a racing update, or the slot was replaced and claimed again by others).
  ~NodeGuard() {
    if constexpr (Hooks::kTracksNodes) hooks_.on_leave(w_, ply_);
    if constexpr (Hooks::kClaimsNodes)
      if (tt_.release(key_, slot_, w_.id)) ++w_.stats[coordination::mark_underflows];
  }
  NodeGuard(const NodeGuard&) = delete;
  NodeGuard& operator=(const NodeGuard&) = delete;
  // The node's claim, released on exit (slot < 0: nothing was claimed).
  void claimed(TTSlot slot) {
    key_ = w_.pos.key();
    slot_ = slot;
  }

 private:
  Table& tt_;
  Hooks& hooks_;
  Worker& w_;
  int ply_;
  Key key_ = 0;
  TTSlot slot_;
};

}  // namespace xq
