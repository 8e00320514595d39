// The root's running best shared by threads that each search the whole
// root (abdada, abdada-simple): the hooks' publish_root() / adopt_root().
#pragma once

#include <mutex>

#include "board/types.h"
#include "search/hooks.h"
#include "search/worker.h"

namespace xq {

// The running best of the root, for the threads that search the same root
// window at the same depth. Each thread's alpha is its own: without this, a
// thread that did not search another's better root move goes on with a
// stale alpha, the other's results (bounds at its higher alpha) cut none of
// its searches off, and it re-searches as much as the iteration itself.
// Touched once per root move, so a mutex costs nothing measurable.
class RootShare {
 public:
  void reset() {
    const std::lock_guard<std::mutex> lock(mutex_);
    depth_ = 0;
  }
  // A root move of the iteration (depth, [lo, hi]) scored v > lo; line = pv.
  // A deeper or different window replaces the state of an older one.
  void publish(Depth depth, Value lo, Value hi, Value v, const PvLine& pv) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const bool same = depth == depth_ && lo == lo_ && hi == hi_;
    if (same ? v <= best_ : depth < depth_) return;
    depth_ = depth;
    lo_ = lo;
    hi_ = hi;
    best_ = v;
    pv_ = pv;
  }
  // Raises best to the published value of the same iteration when higher,
  // and copies its line to pv.
  bool adopt(Depth depth, Value lo, Value hi, Value& best, PvLine& pv) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (depth != depth_ || lo != lo_ || hi != hi_ || best_ <= best) return false;
    best = best_;
    pv = pv_;
    return true;
  }

 private:
  mutable std::mutex mutex_;
  Depth depth_ = 0;  // 0: nothing published
  Value lo_ = 0, hi_ = 0, best_ = 0;
  PvLine pv_;
};

// The hooks' side of it (search/hooks.h, kSharesRoot), for backends whose
// threads each search the whole root; a lone thread passes null and keeps
// its own alpha.
class RootSharingHooks : public SerialHooks {
 public:
  static constexpr bool kSharesRoot = true;
  // retest: a younger root move whose null-window search fails high is
  // tested against a best another thread has raised meanwhile before its
  // open-window re-search (Search::root_child).
  explicit RootSharingHooks(RootShare* root, bool retest = true)
      : root_(root), retest_(root != nullptr && retest) {}
  bool retest_root() const { return retest_; }

  void publish_root(Worker& w, Depth depth, Value lo, Value hi, Value v) {
    if (root_) root_->publish(depth, lo, hi, v, w.pv[0]);
  }
  bool adopt_root(Worker& w, Depth depth, Value lo, Value hi, Value& best) {
    return root_ && root_->adopt(depth, lo, hi, best, w.pv[0]);
  }

 private:
  RootShare* const root_;
  const bool retest_;
};

}  // namespace xq
