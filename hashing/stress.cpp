#include "hashing/stress.h"

#include <cmath>
#include <string>

namespace xq {

void validate_stress_config(const StressConfig& c) {
  if (c.threads < 1) throw std::invalid_argument("stress needs at least 1 thread");
  if (c.threads > kMaxTableThreads)
    throw std::invalid_argument("stress thread count " + std::to_string(c.threads) +
                                " is too large (max " + std::to_string(kMaxTableThreads) + ")");
  if (c.entries == 0) throw std::invalid_argument("stress table needs at least 1 entry");
  if (c.entries > (std::size_t{1} << 32))
    throw std::invalid_argument("stress table of " + std::to_string(c.entries) +
                                " entries is too large (max 2^32)");
  if (!(c.seconds > 0) || !std::isfinite(c.seconds))
    throw std::invalid_argument("stress seconds must be a positive number");
  if (c.store_percent < 0 || c.store_percent > 100)
    throw std::invalid_argument("stress store percentage must be in 0..100");
}

}  // namespace xq
