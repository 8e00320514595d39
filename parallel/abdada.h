// The hooks the abdada backend (parallel/abdada.cpp) compiles the node
// function with; in a header so that tests can drive the same node function
// with their own thread schedule.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "parallel/backend.h"
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

using AbdadaWorkers = std::vector<std::unique_ptr<Worker>>;

// The hooks the node function is compiled with.
class AbdadaHooks : public SerialHooks {
 public:
  static constexpr bool kClaimsNodes = true;
  // A lone thread has nobody to defer to: its marks would be pure cost
  // (a write per claim and per release), so it claims nothing.
  static constexpr Depth kNoClaims = 1 << 20;

  static constexpr bool kSharesRoot = true;

  AbdadaHooks(const BackendConfig& c, const AbdadaWorkers& workers, const std::atomic<bool>& done,
              RootShare& root)
      : root_(c.threads > 1 ? &root : nullptr),
        claim_depth_(c.threads > 1 ? c.abdada_defer_depth : kNoClaims),
        reprobe_depth_(c.abdada_reprobe_depth),
        defer_root_(c.abdada_defer_root),
        workers_(workers),
        helpers_done_(done) {}

  Depth claim_depth() const { return claim_depth_; }
  void publish_root(Worker& w, Depth depth, Value lo, Value hi, Value v) {
    if (root_) root_->publish(depth, lo, hi, v, w.pv[0]);
  }
  bool adopt_root(Worker& w, Depth depth, Value lo, Value hi, Value& best) {
    return root_ && root_->adopt(depth, lo, hi, best, w.pv[0]);
  }
  bool defer_root() const { return defer_root_; }
  Depth reprobe_depth() const { return reprobe_depth_; }
  // The main thread ends by its own limits; helpers when it is done.
  bool aborted(const Worker& w) const {
    return w.id != 0 && helpers_done_.load(std::memory_order_relaxed);
  }
  // Helpers never pause: their counters are read while they run (relaxed).
  void add_helper_stats(SearchStats& s) const {
    for (std::size_t i = 1; i < workers_.size(); ++i) s += workers_[i]->stats;
  }

 private:
  RootShare* const root_;  // null for a lone thread
  const Depth claim_depth_;
  const Depth reprobe_depth_;
  const bool defer_root_;
  const AbdadaWorkers& workers_;
  const std::atomic<bool>& helpers_done_;
};

}  // namespace xq
