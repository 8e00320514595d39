// Every scheme, single-threaded: stores and probes correctly, packs every
// field, clears, counts, ages, and validates its configuration.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "tests/hashing/scheme_types.h"

namespace xq::testing {
namespace {

template <class Table>
class HashTable : public ::testing::Test {};
TYPED_TEST_SUITE(HashTable, AllSchemes, SchemeName);

TYPED_TEST(HashTable, ProbeMissesOnEmptyTable) {
  TypeParam t;
  TTData out;
  for (std::uint64_t i = 0; i < 100; ++i) EXPECT_FALSE(t.probe(test_key(i), out, 0));
}

TYPED_TEST(HashTable, StoresAndProbesManyKeys) {
  TypeParam t;
  t.configure(4, 1, Replacement::AlwaysReplace);
  constexpr std::uint64_t kKeys = 2000;  // in >= 65536 buckets
  std::map<std::size_t, int> per_bucket;
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    t.store(test_key(i), stress_payload(test_key(i)), 0);
    ++per_bucket[t.bucket_of(test_key(i))];
  }
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    TTData out;
    const bool crowded = per_bucket[t.bucket_of(test_key(i))] > TypeParam::kBucketSlots;
    if (!t.probe(test_key(i), out, 0)) {
      EXPECT_TRUE(crowded) << "lost key " << i << " from a bucket with room";
      continue;
    }
    EXPECT_TRUE(stress_payload_matches(test_key(i), out)) << i;
  }
  TTData out;
  EXPECT_FALSE(t.probe(test_key(999999), out, 0));
}

TYPED_TEST(HashTable, RoundTripsEveryField) {
  TypeParam t;
  const TTData cases[] = {
      {Move::none(), 0, 0, 0, Bound::None, 0},
      {Move(make_square(0, 0), make_square(8, 9)), -32768, 32767, -8, Bound::Upper, 0},
      {Move(make_square(8, 9), make_square(0, 0)), 32767, -32768, 127, Bound::Exact, 0},
      {Move(make_square(4, 2), make_square(4, 6)), -29990, 29990, 1, Bound::Lower, 0},
  };
  for (std::uint64_t i = 0; i < std::size(cases); ++i) {
    t.store(test_key(i), cases[i], 0);
    TTData out;
    ASSERT_TRUE(t.probe(test_key(i), out, 0)) << i;
    EXPECT_EQ(out, cases[i]) << i;
  }
}

TYPED_TEST(HashTable, SameKeyIsUpdatedInPlace) {
  TypeParam t;
  one_bucket(t, Replacement::DepthPreferred);
  t.store(test_key(1), make_data(3, Bound::Upper, 10), 0);
  t.store(test_key(1), make_data(5, Bound::Lower, 20), 0);
  TTData out;
  ASSERT_TRUE(t.probe(test_key(1), out, 0));
  EXPECT_EQ(out.depth, 5);
  EXPECT_EQ(out.value, 20);
  // Only one slot used: the bucket still takes kBucketSlots - 1 other keys.
  for (int i = 2; i <= TypeParam::kBucketSlots; ++i) t.store(test_key(std::uint64_t(i)), make_data(9), 0);
  EXPECT_TRUE(t.probe(test_key(1), out, 0));
}

TYPED_TEST(HashTable, ClearEmptiesTheTable) {
  TypeParam t;
  for (std::uint64_t i = 0; i < 100; ++i) t.store(test_key(i), make_data(4), 0);
  t.clear();
  TTData out;
  for (std::uint64_t i = 0; i < 100; ++i) EXPECT_FALSE(t.probe(test_key(i), out, 0));
  EXPECT_EQ(t.hashfull(), 0);
}

TYPED_TEST(HashTable, CountersArePerThreadAndSummed) {
  TypeParam t;
  t.configure(1, 2, Replacement::DepthPreferred);
  TTData out;
  t.store(test_key(1), make_data(4), 0);
  t.store(test_key(2), make_data(4), 1);
  EXPECT_TRUE(t.probe(test_key(1), out, 1));
  EXPECT_TRUE(t.probe(test_key(2), out, 0));  // per-thread: found in table 1 by thread 0
  EXPECT_FALSE(t.probe(test_key(3), out, 0));
  const TableCounters c = t.counters();
  EXPECT_EQ(c.probes, 3u);
  EXPECT_EQ(c.hits, 2u);
  EXPECT_EQ(c.stores, 2u);
  EXPECT_EQ(c.torn_detected, 0u);
  t.reset_counters();
  EXPECT_EQ(t.counters().probes, 0u);
}

TYPED_TEST(HashTable, GenerationIsFilledAndHashfullAges) {
  TypeParam t;
  t.configure(1, 1, Replacement::AlwaysReplace);
  EXPECT_EQ(t.hashfull(), 0);
  t.new_search();
  for (std::uint64_t i = 0; i < 200000; ++i) t.store(test_key(i), make_data(1), 0);
  EXPECT_GT(t.hashfull(), 900);
  TTData out;
  ASSERT_TRUE(t.probe(test_key(199999), out, 0));
  EXPECT_EQ(out.generation, 1);
  t.new_search();
  EXPECT_EQ(t.hashfull(), 0);  // everything belongs to the previous search
  EXPECT_TRUE(t.probe(test_key(199999), out, 0));  // but is still usable
}

TYPED_TEST(HashTable, GenerationWrapsAround) {
  TypeParam t;
  for (int i = 0; i < packed::kGenerations; ++i) t.new_search();
  EXPECT_EQ(t.generation(), 0);
}

TYPED_TEST(HashTable, ConfigureRejectsBadInputAndKeepsTheTable) {
  TypeParam t;
  t.store(test_key(1), make_data(4), 0);
  EXPECT_THROW(t.configure(0, 1, Replacement::DepthPreferred), std::invalid_argument);
  EXPECT_THROW(t.configure(1, 0, Replacement::DepthPreferred), std::invalid_argument);
  EXPECT_THROW(t.configure(1, -3, Replacement::DepthPreferred), std::invalid_argument);
  EXPECT_THROW(t.configure(kMaxTableMiB + 1, 1, Replacement::DepthPreferred),
               std::invalid_argument);
  EXPECT_THROW(t.configure(1, kMaxTableThreads + 1, Replacement::DepthPreferred),
               std::invalid_argument);
  EXPECT_THROW(t.configure_bytes(8, 1, Replacement::DepthPreferred), std::invalid_argument);
  TTData out;
  EXPECT_TRUE(t.probe(test_key(1), out, 0));
  try {
    t.configure(0, 1, Replacement::DepthPreferred);
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

TYPED_TEST(HashTable, ConfigureSizesTheTable) {
  TypeParam t;
  t.configure(2, 2, Replacement::TwoTier);
  EXPECT_EQ(t.bucket_count() * TypeParam::kBucketBytes, std::size_t{2} << 20);
  EXPECT_EQ(t.threads(), 2);
  EXPECT_EQ(t.replacement(), Replacement::TwoTier);
  t.resize(1);
  EXPECT_EQ(t.bucket_count() * TypeParam::kBucketBytes, std::size_t{1} << 20);
  EXPECT_EQ(t.threads(), 2);
}

TYPED_TEST(HashTable, EveryThreadSlotWorks) {
  TypeParam t;
  t.configure(1, 4, Replacement::DepthPreferred);
  for (int tid = 0; tid < 4; ++tid) t.store(test_key(std::uint64_t(tid)), make_data(tid), tid);
  for (int tid = 0; tid < 4; ++tid)
    for (std::uint64_t k = 0; k < 4; ++k) {
      TTData out;
      ASSERT_TRUE(t.probe(test_key(k), out, tid));
      EXPECT_EQ(out.depth, int(k));
    }
}

}  // namespace
}  // namespace xq::testing
