// Perft against the reference table tests/data/perft.csv: one test per row.
// Rows above 50 M nodes belong to PerftSlowTest (label `slow`); the rest to
// PerftTest (label `unit`). The slow suite skips rows above
// XQLAB_PERFT_MAX_NODES (default 1e9) so that the 5.4e9-node row only runs on
// request: XQLAB_PERFT_MAX_NODES=1e10 ctest -L slow.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"
#include "board_util.h"
#include "csv.h"

namespace xq::test {
namespace {

constexpr std::uint64_t kSlowThreshold = 50'000'000;
constexpr double kDefaultSlowCap = 1e9;

std::vector<PerftRow> rows_where(bool slow) {
  std::vector<PerftRow> out;
  for (const PerftRow& row : perft_rows())
    if ((row.nodes > kSlowThreshold) == slow) out.push_back(row);
  return out;
}

std::string row_name(const ::testing::TestParamInfo<PerftRow>& info) {
  const PerftRow& row = info.param;
  std::string name = "row" + std::to_string(row.index) + "_d" + std::to_string(row.depth) + "_";
  for (char ch : row.source) name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

// Per-root-move counts, printed when a row fails so the culprit can be found
// by comparing with another engine's divide (fairy-stockfish: go perft N).
std::string divide(Position& pos, int depth) {
  std::ostringstream out;
  for (Move m : MoveList(pos)) {
    pos.do_move(m);
    out << "  " << move_name(m) << ": " << (depth > 1 ? perft(pos, depth - 1) : 1) << "\n";
    pos.undo_move(m);
  }
  return out.str();
}

void check_row(const PerftRow& row) {
  Position pos;
  const std::string err = pos.set_fen(row.fen);
  ASSERT_EQ(err, "") << row.fen;
  const std::string fen_before = pos.fen();
  const Key key_before = pos.key();
  const std::uint64_t nodes = perft(pos, row.depth);
  EXPECT_EQ(pos.fen(), fen_before) << "perft did not restore the position";
  EXPECT_EQ(pos.key(), key_before) << "perft did not restore the key";
  if (nodes != row.nodes) {
    ADD_FAILURE() << "perft(" << row.depth << ") of " << row.fen << " = " << nodes
                  << ", expected " << row.nodes << " (" << row.source << ")\ndivide:\n"
                  << divide(pos, row.depth);
  }
}

double slow_cap() {
  const char* env = std::getenv("XQLAB_PERFT_MAX_NODES");
  if (!env || !*env) return kDefaultSlowCap;
  char* end = nullptr;
  const double v = std::strtod(env, &end);
  return (end && *end == '\0' && v >= 0) ? v : kDefaultSlowCap;
}

class PerftTest : public ::testing::TestWithParam<PerftRow> {};
class PerftSlowTest : public ::testing::TestWithParam<PerftRow> {};

TEST_P(PerftTest, MatchesReference) { check_row(GetParam()); }

TEST_P(PerftSlowTest, MatchesReference) {
  const PerftRow& row = GetParam();
  const double cap = slow_cap();
  if (double(row.nodes) > cap)
    GTEST_SKIP() << row.nodes << " nodes is above XQLAB_PERFT_MAX_NODES=" << cap
                 << "; raise it (e.g. XQLAB_PERFT_MAX_NODES=1e10) to run this row";
  check_row(row);
}

INSTANTIATE_TEST_SUITE_P(Csv, PerftTest, ::testing::ValuesIn(rows_where(false)), row_name);
INSTANTIATE_TEST_SUITE_P(Csv, PerftSlowTest, ::testing::ValuesIn(rows_where(true)), row_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PerftTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PerftSlowTest);

// The table must be whole and well formed, and the two suites above must
// between them run every row; otherwise they could silently shrink.
TEST(PerftTable, IsWholeAndWellFormed) {
  EXPECT_GE(perft_rows().size(), kPerftRows) << perft_csv_path() << " lost rows";
  EXPECT_GE(perft_fens().size(), kPerftFens) << perft_csv_path() << " lost positions";
  EXPECT_EQ(rows_where(false).size() + rows_where(true).size(), perft_rows().size());
  EXPECT_GE(rows_where(false).size(), 120u) << "PerftTest rows";
  EXPECT_GE(rows_where(true).size(), 10u) << "PerftSlowTest rows";
  for (const PerftRow& row : perft_rows()) {
    EXPECT_GE(row.depth, 1) << row.fen;
    EXPECT_FALSE(row.source.empty()) << row.fen;
  }
}

// gtest registered one test per row, so no row was dropped between the file
// and the suites (a filter or a name clash would lose some).
TEST(PerftTable, EveryRowIsARegisteredTest) {
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  std::size_t registered = 0;
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const std::string name = unit.GetTestSuite(i)->name();
    if (name == "Csv/PerftTest" || name == "Csv/PerftSlowTest")
      registered += std::size_t(unit.GetTestSuite(i)->total_test_count());
  }
  EXPECT_EQ(registered, perft_rows().size());
}

// For each distinct FEN: the deepest row under this many nodes is replayed
// with the reference perft (separate capture/quiet generators, every move made,
// legality checked from first principles) and under the two board symmetries.
constexpr std::uint64_t kCrossCheckNodes = 300'000;
constexpr std::uint64_t kSymmetryNodes = 2'000'000;

PerftRow deepest_row_under(const std::string& fen, std::uint64_t limit) {
  PerftRow best;
  for (const PerftRow& row : perft_rows())
    if (row.fen == fen && row.nodes <= limit && row.depth > best.depth) best = row;
  return best;
}

TEST(PerftCrossCheck, ReferencePerftAgreesWithTable) {
  std::size_t checked = 0;
  for (const std::string& fen : perft_fens()) {
    const PerftRow row = deepest_row_under(fen, kCrossCheckNodes);
    if (row.depth == 0) continue;
    ++checked;
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    std::string error;
    const std::uint64_t nodes = reference_perft(pos, row.depth, &error);
    EXPECT_EQ(error, "") << fen;
    EXPECT_EQ(nodes, row.nodes) << fen << " depth " << row.depth;
  }
  EXPECT_GE(checked, kPerftFens - 1);  // one FEN has only rows above the bound
}

TEST(PerftCrossCheck, SymmetricPositionsHaveEqualCounts) {
  std::size_t checked = 0;
  for (const std::string& fen : perft_fens()) {
    const PerftRow row = deepest_row_under(fen, kSymmetryNodes);
    if (row.depth == 0) continue;
    ++checked;
    for (const auto& [flip, mirror] : {std::pair{true, false}, {false, true}, {true, true}}) {
      const std::string image = transform_fen(fen, flip, mirror);
      Position pos;
      ASSERT_EQ(pos.set_fen(image), "") << image << " (image of " << fen << ")";
      EXPECT_EQ(perft(pos, row.depth), row.nodes)
          << image << " (flip " << flip << ", mirror " << mirror << ", image of " << fen << ")";
    }
  }
  EXPECT_GE(checked, kPerftFens - 1);
}

}  // namespace
}  // namespace xq::test
