// Each replacement policy keeps what it promises, for every scheme (a table of
// one bucket makes every key collide), plus the pure slot-choice rules.
#include <gtest/gtest.h>

#include <stdexcept>

#include "hashing/replacement.h"
#include "tests/hashing/scheme_types.h"

namespace xq::testing {
namespace {

template <class Table>
class HashReplacement : public ::testing::Test {
 protected:
  static constexpr int kSlots = Table::kBucketSlots;
  bool found(Table& t, std::uint64_t i) {
    TTData out;
    return t.probe(test_key(i), out, 0);
  }
  int depth_of(Table& t, std::uint64_t i) {
    TTData out;
    return t.probe(test_key(i), out, 0) ? out.depth : -100;
  }
};
TYPED_TEST_SUITE(HashReplacement, AllSchemes, SchemeName);

TYPED_TEST(HashReplacement, DepthPreferredKeepsDeeperEntries) {
  TypeParam t;
  one_bucket(t, Replacement::DepthPreferred);
  for (int i = 0; i < this->kSlots; ++i) t.store(test_key(std::uint64_t(i)), make_data(10), 0);
  for (std::uint64_t i = 100; i < 150; ++i) t.store(test_key(i), make_data(5), 0);
  for (int i = 0; i < this->kSlots; ++i) EXPECT_TRUE(this->found(t, std::uint64_t(i))) << i;
  EXPECT_FALSE(this->found(t, 149));
  t.store(test_key(200), make_data(12), 0);  // at least as deep: replaces one
  EXPECT_TRUE(this->found(t, 200));
}

TYPED_TEST(HashReplacement, DepthPreferredDoesNotLetAShallowerStoreOverwriteTheSameKey) {
  TypeParam t;
  one_bucket(t, Replacement::DepthPreferred);
  t.store(test_key(1), make_data(9, Bound::Lower), 0);
  t.store(test_key(1), make_data(4, Bound::Upper), 0);
  EXPECT_EQ(this->depth_of(t, 1), 9);
  t.store(test_key(1), make_data(4, Bound::Exact), 0);  // an exact bound may
  EXPECT_EQ(this->depth_of(t, 1), 4);
}

TYPED_TEST(HashReplacement, DepthPreferredAgesOutEntriesOfOlderSearches) {
  TypeParam t;
  one_bucket(t, Replacement::DepthPreferred);
  for (int i = 0; i < this->kSlots; ++i) t.store(test_key(std::uint64_t(i)), make_data(40), 0);
  t.new_search();
  for (std::uint64_t i = 100; i < 100 + std::uint64_t(this->kSlots); ++i) {
    t.store(test_key(i), make_data(1), 0);
    EXPECT_TRUE(this->found(t, i)) << i;
  }
  for (int i = 0; i < this->kSlots; ++i) EXPECT_FALSE(this->found(t, std::uint64_t(i))) << i;
}

TYPED_TEST(HashReplacement, AlwaysReplaceKeepsTheNewestEntry) {
  TypeParam t;
  one_bucket(t, Replacement::AlwaysReplace);
  for (std::uint64_t i = 0; i < 200; ++i) {
    t.store(test_key(i), make_data(int(mix64(i) % 60)), 0);
    ASSERT_TRUE(this->found(t, i)) << i;
  }
}

TYPED_TEST(HashReplacement, AlwaysReplaceEvictsTheLeastWorthSlot) {
  TypeParam t;
  one_bucket(t, Replacement::AlwaysReplace);
  for (int i = 0; i < this->kSlots; ++i)
    t.store(test_key(std::uint64_t(i)), make_data(i == 0 ? 1 : 20), 0);
  t.store(test_key(100), make_data(2), 0);
  EXPECT_FALSE(this->found(t, 0));
  for (int i = 1; i < this->kSlots; ++i) EXPECT_TRUE(this->found(t, std::uint64_t(i)));
}

TYPED_TEST(HashReplacement, TwoTierKeepsTheDeepEntryAndTheNewest) {
  TypeParam t;
  one_bucket(t, Replacement::TwoTier);
  t.store(test_key(1), make_data(30), 0);
  for (std::uint64_t i = 100; i < 200; ++i) {
    t.store(test_key(i), make_data(1), 0);
    ASSERT_TRUE(this->found(t, i)) << i;
    ASSERT_EQ(this->depth_of(t, 1), 30) << i;
  }
  // A new search: the depth tier takes shallow stores again (its entries are
  // stale), and the deep entry, now worth less than fresh ones, is evicted first.
  t.new_search();
  for (std::uint64_t i = 500; i < 510; ++i) {
    t.store(test_key(i), make_data(31), 0);
    ASSERT_TRUE(this->found(t, i)) << i;
  }
  EXPECT_FALSE(this->found(t, 1));
}

// ---------------------------------------------------------------- pure rules

using replacement::choose_slot;
using replacement::SlotState;

TEST(ReplacementRules, PrefersTheSameKeyThenEmptyThenLeastWorth) {
  SlotState s[4] = {{false, false, 5, 0}, {true, false, 0, 0}, {false, true, 9, 0},
                    {false, false, 1, 0}};
  EXPECT_EQ(choose_slot(s, 4, 10, Bound::Lower, Replacement::AlwaysReplace), 2);
  s[2].same_key = false;
  EXPECT_EQ(choose_slot(s, 4, 10, Bound::Lower, Replacement::AlwaysReplace), 1);
  s[1] = {false, false, 3, 0};
  EXPECT_EQ(choose_slot(s, 4, 10, Bound::Lower, Replacement::AlwaysReplace), 3);
}

TEST(ReplacementRules, OlderSearchesAreEvictedFirst) {
  SlotState s[2] = {{false, false, 1, 0}, {false, false, 60, 1}};
  EXPECT_EQ(choose_slot(s, 2, 0, Bound::Upper, Replacement::AlwaysReplace), 1);
  EXPECT_EQ(choose_slot(s, 2, 0, Bound::Upper, Replacement::DepthPreferred), 1);
  // Among older slots, depth minus kAgeWeight per search of age: 20 - 24 < 10 - 8.
  SlotState old[2] = {{false, false, 10, 1}, {false, false, 20, 3}};
  EXPECT_EQ(choose_slot(old, 2, 0, Bound::Upper, Replacement::AlwaysReplace), 1);
  old[1].depth = 40;
  EXPECT_EQ(choose_slot(old, 2, 0, Bound::Upper, Replacement::AlwaysReplace), 0);
}

TEST(ReplacementRules, DepthPreferredDropsShallowStores) {
  SlotState s[2] = {{false, false, 10, 0}, {false, false, 12, 0}};
  EXPECT_EQ(choose_slot(s, 2, 9, Bound::Exact, Replacement::DepthPreferred), -1);
  EXPECT_EQ(choose_slot(s, 2, 10, Bound::Upper, Replacement::DepthPreferred), 0);
}

TEST(ReplacementRules, TwoTierSendsRefusedStoresToTheAlwaysTier) {
  SlotState s[4] = {{false, false, 10, 0}, {false, false, 12, 0}, {false, false, 3, 0},
                    {false, false, 2, 0}};
  EXPECT_EQ(choose_slot(s, 4, 5, Bound::Upper, Replacement::TwoTier), 3);
  EXPECT_EQ(choose_slot(s, 4, 11, Bound::Upper, Replacement::TwoTier), 0);
  SlotState three[3] = {{false, false, 10, 0}, {false, false, 3, 0}, {false, false, 2, 0}};
  EXPECT_EQ(choose_slot(three, 3, 5, Bound::Upper, Replacement::TwoTier), 2);
}

TEST(ReplacementRules, ParsesNames) {
  EXPECT_EQ(parse_replacement("depth"), Replacement::DepthPreferred);
  EXPECT_EQ(parse_replacement("always"), Replacement::AlwaysReplace);
  EXPECT_EQ(parse_replacement("twotier"), Replacement::TwoTier);
  for (std::string_view n : kReplacementNames) EXPECT_EQ(replacement_name(parse_replacement(n)), n);
  EXPECT_THROW(parse_replacement("deepest"), std::invalid_argument);
  EXPECT_THROW(parse_replacement(""), std::invalid_argument);
}

}  // namespace
}  // namespace xq::testing
