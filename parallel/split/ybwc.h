// Young Brothers Wait Concept (Feldmann) on the split pool (pool.h): a node
// splits only when a thread is idle, and an idle thread joins the first open
// split point it meets, scanning the other threads' split stacks from the
// next thread on, each stack oldest (largest remaining depth) first.
#pragma once

#include <string_view>

#include "parallel/split/pool.h"

namespace xq::ybwc {

struct Policy : split::PolicyDefaults {
  static constexpr std::string_view kName = "ybwc";
  explicit Policy(const BackendConfig&) {}

  template <class Thread>
  bool want_split(const Thread&, const SplitContext&, bool anyone_idle) const {
    return anyone_idle;
  }
  template <class Pool>
  typename Pool::Point* find(Pool& pool, typename Pool::Thread& t,
                             const typename Pool::Point* below) const {
    const int n = pool.size();
    for (int k = 1; k < n; ++k) {
      auto& other = pool.thread((t.id + k) % n);
      const int count = other.split_count.load(std::memory_order_acquire);
      for (int s = 0; s < count; ++s)
        if (pool.enter(t, other.splits[s], below)) return &other.splits[s];
    }
    return nullptr;
  }
};

using Pool = split::Pool<Policy>;
using Thread = Pool::Thread;
using SplitPoint = Pool::Point;
using split::SearchMoveFn;

}  // namespace xq::ybwc
