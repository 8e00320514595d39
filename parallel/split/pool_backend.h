// What the split-pool backends (ybwc, dts) share above the pool (pool.h):
// the hooks that hand the node function's splits to the pool, and the
// Backend that runs iterative deepening on the pool's thread 0.
#pragma once

#include <string_view>

#include "parallel/backend_base.h"
#include "parallel/split/pool.h"
#include "parallel/work_span.h"
#include "search/driver.h"
#include "search/hooks.h"

namespace xq::split {

template <class Pool>
class PoolHooks : public SerialHooks {
 public:
  using Thread = typename Pool::Thread;
  static constexpr bool kSplits = true;
  explicit PoolHooks(Pool& pool) : pool_(pool) {}

  bool aborted(const Worker& w) const { return chain_cut(static_cast<const Thread&>(w)); }
  void add_helper_stats(SearchStats& s) const {
    for (int i = 1; i < pool_.size(); ++i) s += pool_.thread(i).stats;
  }
  bool want_split(const Worker& w, const SplitContext& ctx) const {
    return pool_.want_split(static_cast<const Thread&>(w), ctx);
  }
  bool want_split_first(const Worker& w, const SplitContext& ctx) const {
    return pool_.want_split_first(static_cast<const Thread&>(w), ctx);
  }
  template <class SearchMove>
  void split(Worker& w, SplitContext& ctx, SearchMove&& search_move) {
    using Fn = std::remove_reference_t<SearchMove>;
    if constexpr (Pool::Exec::kProcesses)
      static_assert(std::is_trivially_copyable_v<Fn> && sizeof(Fn) <= ProcessExec::kClosureBytes,
                    "a split of worker processes copies the closure's bytes");
    pool_.split(static_cast<Thread&>(w), ctx, erase<SearchMove>(),
                static_cast<const void*>(&search_move), sizeof(Fn));
  }

 protected:
  Pool& pool_;
};

// The counters of every thread of the pool, and the critical path that
// thread 0's chain measured (pool.h, Thread::crit_extra).
template <class Pool>
SearchStats pool_stats(const Pool& pool) {
  SearchStats s;
  for (int i = 0; i < pool.size(); ++i) s += pool.thread(i).stats;
  const auto& main = pool.thread(0);
  s.critical_path = std::uint64_t(
      std::max<std::int64_t>(std::int64_t(main.stats.nodes) + main.crit_extra, 0));
  s[critical_splits] = std::uint64_t(std::max<std::int64_t>(main.crit_splits, 0));
  return s;
}

// Hooks and Pool name the backend: Pool::kBackendName.
template <class Pool, class Hooks, class Table>
class PoolBackend final : public BackendBase<Table> {
 public:
  explicit PoolBackend(const BackendConfig& c) : BackendBase<Table>(c), pool_(c) {
    this->require_thread_slots(pool_.size());
  }
  std::string_view name() const override { return Pool::kBackendName; }

  void clear() override {
    this->tt_.clear();
    pool_.clear();
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    pool_.begin_search(pos, shared);
  }
  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    Hooks hooks(pool_);
    Search<Table, Hooks> search(this->tt_, hooks, shared);
    return iterative_deepening(search, pool_.thread(0), shared, &observer);
  }
  void end_search() noexcept override { pool_.end_search(); }
  SearchStats thread_stats() const override { return pool_stats(pool_); }

 private:
  Pool pool_;
};

}  // namespace xq::split
