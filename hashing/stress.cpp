#include "hashing/stress.h"

#include <algorithm>
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

namespace stress_detail {

KeyPool make_key_pool(std::size_t entries, std::uint64_t seed) {
  const std::size_t n = std::max<std::size_t>(64, 4 * entries);
  KeyPool p;
  p.keys.resize(n);
  p.payloads.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    p.keys[i] = mix64(seed * 0x9E3779B97F4A7C15ULL + i) | 1;
    p.payloads[i] = stress_payload(p.keys[i]);
  }
  return p;
}

std::uint64_t thread_quota(const StressConfig& c, int tid) {
  if (!c.max_ops) return ~std::uint64_t{0};
  const std::uint64_t t = std::uint64_t(c.threads);
  return c.max_ops / t + (std::uint64_t(tid) < c.max_ops % t ? 1 : 0);
}

void wait_for(const std::atomic<int>& finished, int threads,
              std::chrono::steady_clock::time_point start, double seconds,
              const std::function<void()>& check) {
  using Duration = std::chrono::steady_clock::duration;
  const auto deadline =
      start + std::chrono::duration_cast<Duration>(std::chrono::duration<double>(seconds));
  const Duration step = std::min<Duration>(std::chrono::microseconds(500), (deadline - start) / 200);
  for (auto now = start; finished.load(std::memory_order_acquire) < threads && now < deadline;
       now = std::chrono::steady_clock::now()) {
    if (check) check();
    std::this_thread::sleep_for(std::min<Duration>(step, deadline - now));
  }
}

}  // namespace stress_detail

}  // namespace xq
