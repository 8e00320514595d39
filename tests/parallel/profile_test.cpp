// Every backend under the modern search profile: in exact mode the profile's
// pruning is off and every backend at 2 and 3 threads finds the stored serial
// value (tests/data/exact_values.csv, searched with the thesis profile); in
// a normal search every backend completes with a legal move, and its helpers
// prune and reduce as the main thread does (split points plan each move
// with the node's own state, Search::plan_move).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "board/movegen.h"
#include "lab/common/suite.h"
#include "tests/parallel/exact_grid.h"

namespace xq {
namespace {

std::string name_of(const ::testing::TestParamInfo<std::string>& i) {
  std::string s = i.param;
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

std::unique_ptr<Backend> profile_backend(const std::string& name, int threads) {
  BackendConfig c;
  c.threads = threads;
  c.hash_mib = 4;
  c.hash = std::string(find_backend(name).default_hash);
  c.set("task_depth", 3);  // jamboree: reach its tasks at these depths
  return make_backend(name, c);
}

class ModernExact : public ::testing::TestWithParam<std::string> {};

// The 16 openings and 8 random positions; under AddressSanitizer every
// fourth (74 of the lane's 923 summed seconds on 2026-12-03 with all 24).
TEST_P(ModernExact, EqualsTheStoredSerialValueAtDepth4) {
  static const std::vector<Position> ps = test::fewer_under_asan(test::contract_positions(8), 4);
  ASSERT_EQ(ps.size(), test::kAddressSanitized ? 6u : 24u);
  const std::vector<Value>& expected = test::serial_values(ps, 4);
  Observer quiet;
  int searched = 0;
  for (int threads : {2, 3}) {
    auto b = profile_backend(GetParam(), threads);
    for (std::size_t i = 0; i < ps.size(); ++i) {
      SearchOptions o = test::exact_options(4);
      o.features = Features::modern();
      const SearchResult r = b->search(ps[i], o, quiet);
      EXPECT_EQ(r.score, expected[i]) << GetParam() << " threads " << threads << " " << ps[i].fen();
      EXPECT_EQ(r.stats.reductions + r.stats.pruned_moves + r.stats.static_cutoffs, 0u);
      ++searched;
    }
  }
  EXPECT_EQ(searched, 2 * int(ps.size()));
}

INSTANTIATE_TEST_SUITE_P(All, ModernExact, ::testing::ValuesIn(backend_names()), name_of);

// Bounded for the ThreadSanitizer pass: two middlegames at depth 10 (a few
// ten thousand nodes with the modern profile), 3 threads. The split
// backends must have split: their helpers plan moves from the split node's
// state (Search::plan_move), which only a split exercises.
class StressModern : public ::testing::TestWithParam<std::string> {};

TEST_P(StressModern, CompletesWithALegalMoveAndPrunes) {
  const auto suite = lab::common::load_suite(lab::common::data_dir() + "/middlegames.csv");
  ASSERT_GE(suite.size(), 2u);
  auto b = profile_backend(GetParam(), 3);
  Observer quiet;
  SearchStats sum;
  int searched = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    SearchOptions o;
    o.features = Features::modern();
    o.limits.depth = 10;
    b->clear();
    const SearchResult r = b->search(suite[i].pos, o, quiet);
    EXPECT_TRUE(r.completed) << GetParam();
    EXPECT_EQ(r.depth, 10);
    EXPECT_TRUE(MoveList(suite[i].pos).contains(r.best_move)) << GetParam();
    EXPECT_LT(std::abs(r.score), kInfinite);
    sum += r.stats;
    ++searched;
  }
  EXPECT_EQ(searched, 2);
  EXPECT_GT(sum.reductions, 0u) << GetParam();
  EXPECT_GT(sum.pruned_moves, 0u) << GetParam();
  const std::string& n = GetParam();
  if (find_backend(n).sharing == Sharing::Splits) EXPECT_GT(sum.splits, 0u) << n;
}

INSTANTIATE_TEST_SUITE_P(All, StressModern, ::testing::ValuesIn(backend_names()), name_of);

}  // namespace
}  // namespace xq
