// What threads share besides the table (parallel/heuristics_share.h): which
// worker reads which history and killer table in each mode, who clears a
// shared one, which backends read the two parameters, and exact mode (the
// tables order moves only, so every mode returns the serial value).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "parallel/heuristics_share.h"
#include "parallel/params.h"
#include "tests/parallel/exact_grid.h"

namespace xq {
namespace {

const Move kA(Square(3), Square(12));
const Move kB(Square(40), Square(49));

std::vector<std::unique_ptr<Worker>> attached(const HeuristicsShare& share, int n) {
  std::vector<std::unique_ptr<Worker>> v;
  for (int i = 0; i < n; ++i) {
    v.push_back(std::make_unique<Worker>(i));
    share.attach(*v.back());
    v.back()->clear_heuristics();
  }
  return v;
}

// Which workers see worker `from`'s history update and killer.
std::vector<int> seen_by(std::vector<std::unique_ptr<Worker>>& ws, int from) {
  for (auto& w : ws) w->clear_heuristics();
  ws[std::size_t(from)]->add_history(kA, 3);
  ws[std::size_t(from)]->add_killer(5, kB);
  std::vector<int> out;
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const bool h = ws[i]->history_of(kA) == 8;
    const bool k = ws[i]->is_killer(5, kB);
    EXPECT_EQ(h, k) << "worker " << i << ": both tables share alike here";
    if (h) out.push_back(int(i));
  }
  return out;
}

TEST(HeuristicsShare, EachModeGroupsTheThreadsItNames) {
  struct Case {
    ShareMode mode;
    int threads, from;
    std::vector<int> seen;
    int tables;
  };
  const std::vector<Case> cases = {
      {ShareMode::Thread, 4, 2, {2}, 0},
      {ShareMode::Group2, 5, 2, {2, 3}, 3},
      {ShareMode::Group2, 5, 4, {4}, 3},
      {ShareMode::Group8, 16, 9, {8, 9, 10, 11, 12, 13, 14, 15}, 2},
      {ShareMode::Group8, 3, 1, {0, 1, 2}, 1},
      {ShareMode::All, 6, 5, {0, 1, 2, 3, 4, 5}, 1},
      {ShareMode::All, 1, 0, {0}, 0},
  };
  int ran = 0;
  for (const Case& c : cases) {
    const HeuristicsShare share(c.mode, c.mode, c.threads);
    EXPECT_EQ(share.history_tables(), c.tables);
    EXPECT_EQ(share.killer_tables(), c.tables);
    auto ws = attached(share, c.threads);
    EXPECT_EQ(seen_by(ws, c.from), c.seen)
        << kShareModeNames[std::size_t(c.mode)] << " at " << c.threads << " threads";
    ++ran;
  }
  EXPECT_EQ(ran, 7);
}

TEST(HeuristicsShare, HistoryAndKillersAreSharedIndependently) {
  const HeuristicsShare share(ShareMode::All, ShareMode::Thread, 3);
  auto ws = attached(share, 3);
  ws[0]->add_history(kA, 2);
  ws[0]->add_killer(1, kB);
  EXPECT_EQ(ws[2]->history_of(kA), 4);
  EXPECT_FALSE(ws[2]->is_killer(1, kB));
  EXPECT_TRUE(ws[0]->is_killer(1, kB));
  EXPECT_TRUE(ws[2]->history_shared());
  EXPECT_FALSE(ws[2]->killers_shared());
}

TEST(HeuristicsShare, OnlyAGroupsFirstThreadClearsItsTable) {
  const HeuristicsShare share(ShareMode::Group2, ShareMode::Group2, 4);
  auto ws = attached(share, 4);
  ws[2]->add_history(kA, 4);
  ws[3]->clear_heuristics();  // not the group's first: leaves the table
  EXPECT_EQ(ws[2]->history_of(kA), 16);
  ws[2]->clear_heuristics();
  EXPECT_EQ(ws[3]->history_of(kA), 0);
  // A worker made during a search (may_lead false) never clears; clear() does.
  Worker late(2);
  share.attach(late, false);
  ws[3]->add_history(kA, 1);
  late.clear_heuristics();
  EXPECT_EQ(ws[2]->history_of(kA), 2);
  share.clear();
  EXPECT_EQ(late.history_of(kA), 0);
}

TEST(HeuristicsShare, SnapshotCopiesLeaveASharedTableAlone) {
  const HeuristicsShare share(ShareMode::All, ShareMode::All, 2);
  auto ws = attached(share, 2);
  Worker own(0);
  own.add_history(kA, 5);
  ws[0]->add_history(kA, 1);
  ws[1]->copy_history_from(own);  // shared: not overwritten
  EXPECT_EQ(ws[0]->history_of(kA), 2);
  History h{};
  h[0][0] = 7;
  ws[1]->load_history(h);
  EXPECT_EQ(ws[1]->history_of(Move(Square(0), Square(0))), 0);
  own.load_history(h);  // its own: overwritten
  EXPECT_EQ(own.history_of(Move(Square(0), Square(0))), 7);
}

// The backends whose threads honour the two parameters: the split family
// (but ybwc-proc, whose helpers are processes), jamboree, and every backend
// on root threads or on ABDADA's workers.
TEST(HeuristicsShare, ReadByEveryThreadedBackendOnOneProcess) {
  const std::set<std::string> expected = {"pvsplit", "ybwc",       "dts",     "abdada",
                                          "abdada-simple", "lazysmp", "jamboree", "aspiration",
                                          "uidpabs", "aphid"};
  for (std::string_view name : {"history_share", "killer_share"}) {
    const BackendParam& p = find_param(name);
    const std::set<std::string> readers(p.backends.begin(), p.backends.end());
    EXPECT_EQ(readers, expected) << name;
    EXPECT_EQ(p.range_text(), "thread|group2|group8|all");
    EXPECT_EQ(p.default_value, 0);
  }
}

TEST(HeuristicsShare, ABadModeIsOneLine) {
  BackendConfig c;
  try {
    set_param(c, "history_share=group4");
    FAIL() << "group4 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "parameter history_share must be one of thread|group2|group8|all, got 'group4'");
  }
}

// Exact mode: every reader, history and killers shared by all threads and
// by pairs, at 3 threads (pairs: a group of two and one of one), returns the
// serial alpha-beta value on the opening suite and 4 random positions.
class HeuristicsShareExact : public ::testing::TestWithParam<std::string> {};

TEST_P(HeuristicsShareExact, EveryModeEqualsSerialAlphaBetaAtDepth4) {
  static const std::vector<Position> ps =
      test::fewer_under_asan(test::contract_positions(4), 4);
  const std::vector<Value>& expected = test::serial_values(ps, 4);
  Observer quiet;
  int searches = 0;
  for (std::string_view mode : {"all", "group2"}) {
    BackendConfig c;
    c.hash = std::string(find_backend(GetParam()).default_hash);
    c.threads = 3;
    c.hash_mib = 1;
    set_param(c, "history_share=" + std::string(mode));
    set_param(c, "killer_share=" + std::string(mode));
    auto b = make_backend(GetParam(), c);
    for (std::size_t i = 0; i < ps.size(); ++i) {
      const SearchResult r = b->search(ps[i], test::exact_options(4), quiet);
      EXPECT_EQ(r.score, expected[i]) << GetParam() << " " << mode << " " << ps[i].fen();
      ++searches;
    }
  }
  EXPECT_EQ(searches, 2 * int(ps.size()));
  EXPECT_GE(ps.size(), test::kAddressSanitized ? 5u : 20u);
}

std::vector<std::string> readers() {
  std::vector<std::string> v;
  for (std::string_view b : find_param("history_share").backends) v.emplace_back(b);
  return v;
}

INSTANTIATE_TEST_SUITE_P(All, HeuristicsShareExact, ::testing::ValuesIn(readers()),
                         [](const auto& info) {
                           std::string s = info.param;
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

}  // namespace
}  // namespace xq
