// Locked buckets behind striped std::mutex (4096 stripes, see striped_lock.h).
//
// Race model: nothing tears — every probe and store holds the stripe's mutex.
// Cost: an uncontended std::mutex is a lock-prefixed read-modify-write to take
// and another to release (glibc futex word), plus a cache miss on the stripe
// line when the stripe was last taken by another core; a contended one parks
// the thread in the kernel, which makes this the scheme to compare against a
// spinlock when threads outnumber cores.
#pragma once

#include <mutex>
#include <string_view>

#include "hashing/striped_lock.h"

namespace xq {

class MutexTable : public ClusterTable<StripedLayout<std::mutex>> {
 public:
  static constexpr std::string_view kName = "mutex";
  static constexpr std::string_view kSummary =
      "striped std::mutex";
};

}  // namespace xq
