// For a backend whose threads each search the whole root at the same depths
// (abdada, abdada-simple): under a depth limit the search is over as soon as
// *any* thread has completed the last iteration, not only the main one.
// Every thread's iteration is a full search of the root on the shared table
// (the root's running best shared, parallel/root_share.h), so a helper's
// completed iteration is as good a result as the main thread's; waiting for
// the main thread instead leaves it to finish alone while the helper idles.
//
// A helper offers each completed iteration; the first one at the depth
// limit is kept. overtaken() turns true once one is kept *and* the main
// thread has completed the iteration before the limit (main_reached), and
// the hooks' aborted() turns it into an unwind of the main thread; the
// backend then reports the kept iteration in place of the main thread's.
// So every depth is still reported once, in order: a helper that runs more
// than one iteration ahead (a starved main thread) leaves the main thread
// to complete, alone and on the helper's table, the iterations it has not
// reported yet. Without a depth limit (time, nodes, infinite) nothing is
// kept: the main thread ends the search as before.
#pragma once

#include "parallel/backend.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <utility>

#include "search/result.h"

namespace xq {

// The shared-table family's parameters that abdada and abdada-simple both read.
inline ParamSpec first_complete_param() {
  return {"abdada_first_complete",
          "under a depth limit, whether any thread's completed last iteration ends the "
          "search (no: only the main thread's)",
          0, 1, {"no", "yes"}, 1};
}
inline ParamSpec root_retest_param() {
  return {"root_retest",
          "a root move that fails high at a stale alpha is re-tested against the best "
          "another thread has raised meanwhile before its open-window re-search",
          0, 1, {"no", "yes"}, 1};
}

class FirstComplete {
 public:
  // Before the helpers start: the search's depth limit (0: none).
  void reset(Depth depth_limit) {
    limit_ = depth_limit;
    state_.store(limit_ <= 1 ? kMainAtLimit : 0u, std::memory_order_relaxed);
    kept_.reset();
  }
  // True once a helper has completed the depth limit and the main thread
  // has completed the depth before it.
  bool overtaken() const { return state_.load(std::memory_order_relaxed) == kBoth; }
  // The main thread's completed iteration (its observer calls this).
  void main_reached(Depth depth) {
    if (limit_ > 0 && depth >= limit_ - 1) state_.fetch_or(kMainAtLimit, std::memory_order_relaxed);
  }
  // A helper's completed iteration; kept when it is the first at the limit.
  void offer(const SearchResult& r) {
    if (limit_ <= 0 || r.depth < limit_) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (kept_) return;
    kept_ = r;
    state_.fetch_or(kKept, std::memory_order_relaxed);
  }
  // The kept iteration, if any (read once the helpers are parked).
  std::optional<SearchResult> take() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(kept_, std::nullopt);
  }
  // The kept iteration when it goes deeper than the main thread's result
  // (the main thread unwound before completing the limit), else nothing.
  std::optional<SearchResult> take_over(const SearchResult& main_result) {
    std::optional<SearchResult> h = take();
    if (h && h->depth <= main_result.depth) h.reset();
    return h;
  }
  // The search's result once the main thread's iterative deepening returned
  // main_result: a kept helper iteration that goes deeper is reported
  // through `report` (the backend's last-iteration observer, which ends the
  // helpers) and returned with every thread's counters (sum_stats(), read
  // after that); otherwise main_result.
  template <class SumStats>
  SearchResult result(const SearchResult& main_result, Observer& report, SumStats sum_stats) {
    std::optional<SearchResult> h = take_over(main_result);
    if (!h) return main_result;
    report.on_iteration(*h);
    h->stats = sum_stats();
    h->stopped = main_result.stopped;
    return *h;
  }

  // The observer a helper's iterative deepening reports to.
  class Offer final : public Observer {
   public:
    explicit Offer(FirstComplete& f) : f_(f) {}
    void on_iteration(const SearchResult& r) override { f_.offer(r); }

   private:
    FirstComplete& f_;
  };

 private:
  static constexpr unsigned kKept = 1, kMainAtLimit = 2, kBoth = 3;
  Depth limit_ = 0;
  std::atomic<unsigned> state_{0};
  std::mutex mutex_;
  std::optional<SearchResult> kept_;
};

}  // namespace xq
