// Locked buckets behind striped tbb::spin_mutex (4096 stripes, see striped_lock.h).
//
// Race model: nothing tears — every probe and store holds the stripe's lock.
// Cost: oneTBB's spin_mutex is a one-byte test-and-set lock that backs off
// with pause and then yields, so it sits between our own spinlock word (inside
// the bucket, no extra cache line) and std::mutex (which sleeps in the kernel
// under contention); the stripe lives on a cache line of its own, so a probe
// touches two lines instead of one.
#pragma once

#include <string_view>

#include <oneapi/tbb/spin_mutex.h>

#include "hashing/striped_lock.h"

namespace xq {

class TbbSpinTable : public ClusterTable<StripedLayout<tbb::spin_mutex>> {
 public:
  static constexpr std::string_view kName = "tbbspin";
  static constexpr std::string_view kSummary =
      "striped tbb::spin_mutex";
};

}  // namespace xq
