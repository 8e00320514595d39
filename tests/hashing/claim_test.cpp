// The searcher-count seam of the tables (TTClaim / release, hashing/entry.h):
// every scheme that holds counts raises, reports and lowers them exactly when
// used by one thread, keeps them across a store of the same key, and answers
// an exclusive claim of a busy node with `busy`; perthread says it holds none.
#include <gtest/gtest.h>

#include "tests/hashing/scheme_types.h"

namespace xq {
namespace {

using testing::test_key;

template <class Table>
class Claims : public ::testing::Test {
 protected:
  Table table;
};
TYPED_TEST_SUITE(Claims, testing::AllSchemes, testing::SchemeName);

TYPED_TEST(Claims, RaiseReportAndLowerTheSearcherCount) {
  auto& t = this->table;
  t.configure(1, 2, Replacement::DepthPreferred);
  const Key k = test_key(1);
  const TTClaim first = t.claim(k, false, 0);
  EXPECT_FALSE(first.found);
  EXPECT_FALSE(first.busy);
  EXPECT_EQ(first.searchers, 0);
  if constexpr (!TypeParam::kCountsSearchers) {
    EXPECT_LT(first.slot.slot, 0);
    EXPECT_EQ(t.searchers(k), 0);
    EXPECT_FALSE(t.claim(k, true, 1).busy);  // never busy: it holds no count
    return;
  } else {
    ASSERT_GE(first.slot.slot, 0);
    EXPECT_EQ(t.searchers(k), 1);
    // The placeholder is found, but carries no bound, so it cuts nothing.
    TTData d;
    ASSERT_TRUE(t.probe(k, d, 1));
    EXPECT_EQ(d.bound, Bound::None);
    // An exclusive claim of a busy node claims nothing.
    const TTClaim busy = t.claim(k, true, 1);
    EXPECT_TRUE(busy.busy);
    EXPECT_EQ(busy.searchers, 1);
    EXPECT_EQ(t.searchers(k), 1);
    // A shared one joins.
    const TTClaim second = t.claim(k, false, 1);
    EXPECT_FALSE(second.busy);
    EXPECT_EQ(second.searchers, 1);
    EXPECT_EQ(t.searchers(k), 2);
    // A store of the node's result keeps the count.
    t.store(k, testing::make_data(5, Bound::Exact, 42), 0);
    ASSERT_TRUE(t.probe(k, d, 0));
    EXPECT_EQ(d.value, 42);
    EXPECT_EQ(t.searchers(k), 2);
    t.release(k, second.slot, 1);
    EXPECT_EQ(t.searchers(k), 1);
    t.release(k, first.slot, 0);
    EXPECT_EQ(t.searchers(k), 0);
    EXPECT_EQ(t.total_searchers(), 0u);
    // Released, the node is free for an exclusive claim, which finds the stored entry.
    const TTClaim again = t.claim(k, true, 1);
    EXPECT_FALSE(again.busy);
    EXPECT_TRUE(again.found);
    EXPECT_EQ(again.data.value, 42);
    t.release(k, again.slot, 1);
    EXPECT_EQ(t.total_searchers(), 0u);
  }
}

TYPED_TEST(Claims, CountSaturatesAndStillReturnsToZero) {
  if constexpr (TypeParam::kCountsSearchers) {
    auto& t = this->table;
    t.configure(1, 1, Replacement::DepthPreferred);
    const Key k = test_key(2);
    constexpr int kClaims = packed::kMaxSearchers + 2;
    TTSlot slots[kClaims];
    for (TTSlot& s : slots) s = t.claim(k, false, 0).slot;
    EXPECT_EQ(t.searchers(k), packed::kMaxSearchers);
    for (const TTSlot& s : slots) t.release(k, s, 0);
    EXPECT_EQ(t.searchers(k), 0);
  } else {
    EXPECT_EQ(this->table.total_searchers(), 0u);
  }
}

TYPED_TEST(Claims, ReleaseAfterTheSlotWentToAnotherKeyChangesNothing) {
  if constexpr (TypeParam::kCountsSearchers) {
    auto& t = this->table;
    testing::one_bucket(t, Replacement::AlwaysReplace);
    const Key k = test_key(3);
    const TTClaim c = t.claim(k, false, 0);
    ASSERT_GE(c.slot.slot, 0);
    // Always-replace overwrites the least worth slot; fill every slot with
    // other keys so the claimed one is gone.
    for (int i = 0; i < 4 * TypeParam::kBucketSlots; ++i)
      t.store(test_key(100 + std::uint64_t(i)), testing::make_data(10), 0);
    EXPECT_EQ(t.searchers(k), 0);
    t.release(k, c.slot, 0);
    EXPECT_EQ(t.total_searchers(), 0u);
  } else {
    EXPECT_FALSE(this->table.claim(test_key(3), true, 0).busy);
  }
}

// A mark nobody released is what a search reports as a leak: busy_marks()
// counts it, clear_busy_marks() counts and resets it. A release that finds
// the count at 0 reports the underflow.
TYPED_TEST(Claims, UnreleasedMarksAreCountedAndCleared) {
  auto& t = this->table;
  t.configure(1, 2, Replacement::DepthPreferred);
  const TTClaim a = t.claim(test_key(4), false, 0);
  t.claim(test_key(5), false, 0);
  t.claim(test_key(5), false, 1);
  if constexpr (TypeParam::kCountsSearchers) {
    EXPECT_EQ(t.busy_marks(), 2u);
    EXPECT_EQ(t.total_searchers(), 3u);
    EXPECT_EQ(t.clear_busy_marks(), 2u);
    EXPECT_EQ(t.busy_marks(), 0u);
    EXPECT_EQ(t.total_searchers(), 0u);
    EXPECT_TRUE(t.release(test_key(4), a.slot, 0));  // its count was reset: an underflow
    const TTClaim b = t.claim(test_key(4), false, 0);
    EXPECT_FALSE(t.release(test_key(4), b.slot, 0));
  } else {
    EXPECT_EQ(t.busy_marks(), 0u);
    EXPECT_EQ(t.clear_busy_marks(), 0u);
    EXPECT_FALSE(t.release(test_key(4), a.slot, 0));
  }
}

}  // namespace
}  // namespace xq
