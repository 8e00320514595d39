// Mate scores are stored relative to the node and read back relative to the
// probing node's ply, so a mate found through one path keeps its distance
// when the same position is reached at another ply.
#include <gtest/gtest.h>

#include "hashing/schemes.h"
#include "search/search.h"

namespace xq {
namespace {

static_assert(value_from_tt(value_to_tt(mate_in(10), 3), 3) == mate_in(10));
static_assert(value_to_tt(123, 9) == 123 && value_from_tt(-123, 9) == -123);

TEST(TtValue, MateDistanceIsRelativeToTheNode) {
  // Mate found 7 plies below a node at ply 3 (so at ply 10): "mate in 7 plies
  // from here" in the table.
  EXPECT_EQ(value_to_tt(mate_in(10), 3), mate_in(7));
  EXPECT_EQ(value_to_tt(mated_in(10), 3), mated_in(7));
  // The same node probed at ply 7: the mate is now 14 plies from the root.
  EXPECT_EQ(value_from_tt(value_to_tt(mate_in(10), 3), 7), mate_in(14));
  EXPECT_EQ(value_from_tt(value_to_tt(mated_in(10), 3), 7), mated_in(14));
  // ... and probed nearer the root, at ply 1.
  EXPECT_EQ(value_from_tt(value_to_tt(mate_in(10), 3), 1), mate_in(8));
  EXPECT_EQ(value_from_tt(value_to_tt(mated_in(10), 3), 1), mated_in(8));
}

TEST(TtValue, OrdinaryScoresAreUntouched) {
  for (Value v : {0, 1, -1, 500, -500, kMateInMaxPly - 1, -(kMateInMaxPly - 1), kRepetitionWin})
    for (int ply : {0, 1, 5, 40}) {
      EXPECT_EQ(value_to_tt(v, ply), v) << v << " at ply " << ply;
      EXPECT_EQ(value_from_tt(v, ply), v) << v << " at ply " << ply;
    }
}

TEST(TtValue, EveryMateDistanceRoundTripsAtEveryPly) {
  for (int mate_ply = 1; mate_ply < kMaxPly; ++mate_ply)
    for (int store_ply = 0; store_ply <= mate_ply; ++store_ply)
      for (int probe_ply = 0; probe_ply + (mate_ply - store_ply) < kMaxPly; ++probe_ply) {
        const int shift = probe_ply - store_ply;
        ASSERT_EQ(value_from_tt(value_to_tt(mate_in(mate_ply), store_ply), probe_ply),
                  mate_in(mate_ply + shift));
        ASSERT_EQ(value_from_tt(value_to_tt(mated_in(mate_ply), store_ply), probe_ply),
                  mated_in(mate_ply + shift));
      }
}

// Through a real concurrent scheme: the packed entry keeps the 16-bit value.
template <class Table>
void round_trip_through(Table& table) {
  table.configure(1, 1, Replacement::DepthPreferred);
  const Key key = 0x9E3779B97F4A7C15ull;
  struct Case {
    Value found;
    int store_ply, probe_ply;
  };
  for (const Case c : {Case{mate_in(9), 4, 2}, Case{mated_in(12), 6, 11}, Case{mate_in(1), 0, 0},
                       Case{mated_in(2), 1, 30}, Case{-731, 5, 8}}) {
    TTData d;
    d.value = std::int16_t(value_to_tt(c.found, c.store_ply));
    d.depth = 5;
    d.bound = Bound::Exact;
    table.store(key, d, 0);
    TTData out;
    ASSERT_TRUE(table.probe(key, out, 0));
    const Value expected = is_mate_score(c.found) ? (c.found > 0 ? c.found - (c.probe_ply - c.store_ply)
                                                                 : c.found + (c.probe_ply - c.store_ply))
                                                  : c.found;
    EXPECT_EQ(value_from_tt(out.value, c.probe_ply), expected)
        << "found " << c.found << " stored at ply " << c.store_ply << ", probed at ply "
        << c.probe_ply;
    EXPECT_EQ(out.bound, Bound::Exact);
    EXPECT_EQ(out.depth, 5);
  }
}

TEST(TtValue, MateScoresSurviveXorTable) {
  XorTable t;
  round_trip_through(t);
}

TEST(TtValue, MateScoresSurviveEveryScheme) {
  std::size_t visited = 0;
  for (std::string_view name : kSchemeNames)
    visit_scheme(name, [&](auto tag) {
      using Table = typename decltype(tag)::type;
      auto table = std::make_unique<Table>();
      SCOPED_TRACE(std::string(name));
      round_trip_through(*table);
      ++visited;
    });
  EXPECT_EQ(visited, kSchemeNames.size());
  EXPECT_GE(visited, 9u);  // perthread spinlock mutex tbbspin xor sandwich atomic16 packed
                          // unprotected
}

}  // namespace
}  // namespace xq
