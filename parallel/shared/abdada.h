// The hooks the abdada backend (parallel/abdada.cpp) compiles the node
// function with; in a header so that tests can drive the same node function
// with their own thread schedule.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "parallel/backend.h"
#include "parallel/shared/first_complete.h"
#include "parallel/shared/root_share.h"
#include "search/hooks.h"
#include "search/worker.h"

namespace xq {

using AbdadaWorkers = std::vector<std::unique_ptr<Worker>>;

// The hooks the node function is compiled with.
class AbdadaHooks : public RootSharingHooks {
 public:
  static constexpr bool kClaimsNodes = true;
  // A lone thread has nobody to defer to: its marks would be pure cost
  // (a write per claim and per release), so it claims nothing.
  static constexpr Depth kNoClaims = 1 << 20;

  // root: the root's shared best (null: each thread keeps its own alpha);
  // first: where a helper that completes the depth limit first is recorded
  // (null, and always so for a lone thread: only the main thread ends the
  // search, and its aborted() reads nothing per node).
  AbdadaHooks(const BackendConfig& c, const AbdadaWorkers& workers, const std::atomic<bool>& done,
              RootShare* root, const FirstComplete* first)
      : RootSharingHooks(c.threads > 1 ? root : nullptr, c.param("root_retest") != 0),
        claim_depth_(c.threads > 1 ? Depth(c.param("abdada_defer_depth")) : kNoClaims),
        reprobe_depth_(Depth(c.param("abdada_reprobe_depth"))),
        defer_root_(c.param("abdada_defer_root") != 0),
        workers_(workers),
        helpers_done_(done),
        first_(c.threads > 1 ? first : nullptr) {}

  Depth claim_depth() const { return claim_depth_; }
  bool defer_root() const { return defer_root_; }
  Depth reprobe_depth() const { return reprobe_depth_; }
  // Helpers end when the main thread is done; the main thread by its own
  // limits, or when a helper has completed the depth limit first.
  bool aborted(const Worker& w) const {
    if (w.id != 0) return helpers_done_.load(std::memory_order_relaxed);
    return first_ && first_->overtaken();
  }
  // Helpers never pause: their counters are read while they run (relaxed).
  void add_helper_stats(SearchStats& s) const {
    for (std::size_t i = 1; i < workers_.size(); ++i) s += workers_[i]->stats;
  }

 private:
  const Depth claim_depth_;
  const Depth reprobe_depth_;
  const bool defer_root_;
  const AbdadaWorkers& workers_;
  const std::atomic<bool>& helpers_done_;
  const FirstComplete* const first_;
};

}  // namespace xq
