// tests/data/exact_values.csv holds the serial exact values the exact-mode
// grids compare against (tests/parallel/exact_grid.h), so that every grid
// case need not search them again. This test searches every one of them
// serially and checks the file: the same rows, the same values. Run with
// XQLAB_WRITE_EXACT_VALUES=1 it writes the file instead (after a change to
// the grids' positions):
//   XQLAB_WRITE_EXACT_VALUES=1 build/tests/test_parallel --gtest_filter='ExactValuesSlow.*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/parallel/exact_grid.h"

namespace xq {
namespace {

struct Row {
  std::string fen;
  int depth;
  Value value;
};

// The grids' positions and depths: BackendExact, ParallelExact (unit and slow).
std::vector<Row> grid_rows() {
  std::vector<Row> rows;
  std::set<std::pair<std::string, int>> seen;
  const auto add = [&](const std::vector<Position>& ps, int depth) {
    for (const Position& p : ps)
      if (seen.insert({p.fen(), depth}).second)
        rows.push_back({p.fen(), depth, test::search_serial_value(p, Depth(depth))});
  };
  add(test::contract_positions(8), 4);
  add(test::split_grid_positions(8), 4);
  add(test::split_grid_positions(24), 5);
  return rows;
}

TEST(ExactValuesSlow, StoredValuesAreTheSerialValues) {
  const std::vector<Row> rows = grid_rows();
  ASSERT_GE(rows.size(), 60u);
  const char* write = std::getenv("XQLAB_WRITE_EXACT_VALUES");
  if (write && std::string(write) == "1") {
    std::ofstream out(test::exact_values_path());
    out << "fen,depth,value\n";
    for (const Row& r : rows) out << r.fen << "," << r.depth << "," << r.value << "\n";
    ASSERT_TRUE(out.good()) << "could not write " << test::exact_values_path();
    return;
  }
  const test::StoredValues& stored = test::stored_values();
  EXPECT_EQ(stored.size(), rows.size()) << "the file and the grids differ in rows";
  int checked = 0;
  for (const Row& r : rows) {
    const auto it = stored.find({r.fen, r.depth});
    ASSERT_NE(it, stored.end()) << "not stored: " << r.fen << " depth " << r.depth;
    EXPECT_EQ(it->second, r.value) << r.fen << " depth " << r.depth;
    ++checked;
  }
  EXPECT_EQ(checked, int(rows.size()));
}

}  // namespace
}  // namespace xq
