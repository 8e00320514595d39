// Fault injection: a table that lies. Lying<Inner> answers a chosen share of
// probes and claims with a random data word (any move, value, eval, depth and
// bound), the rest from Inner. It is what a torn or colliding entry looks like
// at its worst, delivered often enough that a search test can assert that the
// node function survives it: rejects impossible entries, validates the move,
// keeps every score within +-kInfinite. Test only: the scheme "faulty" is kept
// out of kSchemeNames (hashing/schemes.h), so no measurement ever runs it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "hashing/entry.h"
#include "hashing/xor_table.h"

namespace xq {

// The share new Lying tables start with. Process-wide, because backends build
// their tables themselves; tests set it before creating a backend.
class FaultInjection {
 public:
  static constexpr double kDefaultShare = 1.0 / 16;
  // Throws std::invalid_argument unless 0 <= share <= 1.
  static void set_share(double share) { threshold_.store(to_threshold(share)); }
  static std::uint64_t threshold() { return threshold_.load(); }

  // A share as a threshold on 32 random bits (1 << 32: always lie).
  static std::uint64_t to_threshold(double share) {
    if (!(share >= 0 && share <= 1))
      throw std::invalid_argument("fault share must lie in [0, 1], got " + std::to_string(share));
    return std::uint64_t(share * double(std::uint64_t{1} << 32));
  }

 private:
  static inline std::atomic<std::uint64_t> threshold_{to_threshold(kDefaultShare)};
};

template <class Inner>
class Lying : public Inner {
 public:
  using Inner::Inner;

  bool probe(Key key, TTData& out, int tid) {
    if (lie(tid, out)) return true;
    return Inner::probe(key, out, tid);
  }
  // The claim itself goes to Inner, so searcher counts and the release handle
  // stay consistent; only the answer is replaced.
  TTClaim claim(Key key, bool exclusive, int tid) {
    TTClaim c = Inner::claim(key, exclusive, tid);
    if (lie(tid, c.data)) c.found = true;
    return c;
  }

  void set_share(double share) { threshold_ = FaultInjection::to_threshold(share); }
  void set_seed(std::uint64_t seed) { seed_ = seed; }
  // Lies told so far, summed over threads (exact once the threads are joined).
  std::uint64_t lies() const {
    std::uint64_t n = 0;
    for (int i = 0; i < kMaxTableThreads; ++i) n += lanes_[i].lies.load(std::memory_order_relaxed);
    return n;
  }

 private:
  // One per thread slot: thread tid alone advances its generator.
  struct alignas(kCacheLine) Lane {
    std::uint64_t state = 0;
    std::atomic<std::uint64_t> lies{0};
  };

  bool lie(int tid, TTData& out) {
    Lane& lane = lanes_[tid];
    if ((next(lane, tid) >> 32) >= threshold_) return false;
    out = packed::unpack(next(lane, tid));
    lane.lies.store(lane.lies.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return true;
  }
  // SplitMix64 (Steele, Lea and Flood), one stream per thread slot.
  std::uint64_t next(Lane& lane, int tid) const {
    lane.state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = lane.state + seed_ + std::uint64_t(tid) * 0xD1B54A32D192ED03ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::unique_ptr<Lane[]> lanes_ = std::make_unique<Lane[]>(kMaxTableThreads);
  std::uint64_t threshold_ = FaultInjection::threshold();
  std::uint64_t seed_ = 0x5EED;
};

// The test-only scheme: the xor table, lying at FaultInjection's share.
class FaultyTable : public Lying<XorTable> {
 public:
  static constexpr std::string_view kName = "faulty";
  static constexpr std::string_view kSummary =
      "test only: fault injection (xor, a share of probes answered with random words)";
};

}  // namespace xq
