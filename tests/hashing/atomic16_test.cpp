// The atomic16 scheme's own pieces: the CPU check and its one-line refusal,
// the 16-byte compare-and-swap, and one slot raced by two threads that
// write whole (key, f(key)) pairs: a reader must never see a key beside
// another key's data. The table's behaviour is in the parameterised suites
// (table, claim, replacement, stress) with every other scheme.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "hashing/atomic16.h"
#include "hashing/stress.h"

namespace xq::testing {
namespace {

TEST(Atomic16, RefusesACpuWithoutAvxOrCmpxchg16bInOneLine) {
  EXPECT_EQ(atomic16_refusal({true, true}), "");
  EXPECT_EQ(atomic16_refusal({false, true}),
            "hash scheme atomic16 needs a CPU with AVX (atomic 16-byte moves) and CMPXCHG16B; "
            "this one lacks AVX");
  EXPECT_NE(atomic16_refusal({true, false}).find("lacks CMPXCHG16B"), std::string::npos);
  EXPECT_NE(atomic16_refusal({false, false}).find("lacks AVX and CMPXCHG16B"), std::string::npos);
  // This machine: configuring the table either works or says why, in one line.
  const std::string why = atomic16_refusal(atomic16_cpu());
  Atomic16Table t;  // the constructor configures the default size
  EXPECT_TRUE(why.empty()) << why;
}

TEST(Atomic16, ExchangeWritesOnlyWhatItExpected) {
  atomic16::Word w;
  EXPECT_TRUE(atomic16::exchange(w, {0, 0}, {5, 6}));
  const atomic16::Pair now = atomic16::load(w);
  EXPECT_EQ(now.key, 5u);
  EXPECT_EQ(now.data, 6u);
  EXPECT_FALSE(atomic16::exchange(w, {5, 7}, {8, 9}));  // data differs
  EXPECT_FALSE(atomic16::exchange(w, {4, 6}, {8, 9}));  // key differs
  EXPECT_EQ(atomic16::load(w).key, 5u);
  EXPECT_EQ(atomic16::load(w).data, 6u);
  atomic16::store(w, {~0ull, 1ull << 63});
  EXPECT_EQ(atomic16::load(w).key, ~0ull);
  EXPECT_EQ(atomic16::load(w).data, 1ull << 63);
}

// Two writers store pairs (k, mix64(k)) with k drawn from all 64 bits, so
// that both halves change on every store; a third thread reads. A torn read
// would pair one store's key with another's data.
TEST(Atomic16Stress, OneSlotNeverTearsUnderTwoWriters) {
  atomic16::Word w;
  atomic16::store(w, {1, mix64(1)});
  std::atomic<bool> stop{false};
  std::atomic<int> ready{0};
  const auto writer = [&](std::uint64_t seed) {
    ready.fetch_add(1);
    while (ready.load() < 3) std::this_thread::yield();
    for (std::uint64_t i = 1; !stop.load(std::memory_order_relaxed); ++i) {
      const std::uint64_t k = mix64(seed + i) | 1;
      atomic16::store(w, {k, mix64(k)});
    }
  };
  std::thread a(writer, 1000), b(writer, 2000000000);
  ready.fetch_add(1);
  while (ready.load() < 3) std::this_thread::yield();
  // Reads until it has seen the slot change 100,000 times (the writers may
  // wait for a core on a loaded machine), or for 20 s.
  constexpr std::uint64_t kChanges = 100000;
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t torn = 0, changes = 0, reads = 0, last = 0;
  while (changes < kChanges && std::chrono::steady_clock::now() - start < std::chrono::seconds(20))
    for (int i = 0; i < 1024; ++i, ++reads) {
      const atomic16::Pair p = atomic16::load(w);
      torn += p.data != mix64(p.key);
      changes += p.key != last;
      last = p.key;
    }
  stop = true;
  a.join();
  b.join();
  EXPECT_EQ(torn, 0u) << "of " << reads << " reads";
  EXPECT_GE(changes, kChanges) << "the writers hardly ran during the reads: too little was tested";
}

}  // namespace
}  // namespace xq::testing
