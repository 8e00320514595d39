// data/stratified.csv (scripts/make_stratified_suite.py): real middlegames for
// the 2-thread figures, classed by serial time and by quiescence share, in a
// tuning half and a verdict half.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "lab/common/suite.h"

namespace xq::lab::common {
namespace {

const std::string kStratified = std::string(XQLAB_DATA_DIR) + "/stratified.csv";

// The placement and the side to move: the same position whatever its move counters.
std::string key(const Position& pos) {
  const std::string fen = pos.fen();
  const auto board_end = fen.find(' ');
  return fen.substr(0, fen.find(' ', board_end + 1));
}

std::map<std::string, int> count(const std::vector<std::string>& labels) {
  std::map<std::string, int> n;
  for (const auto& l : labels) ++n[l];
  return n;
}

TEST(StratifiedSuite, SixtyFourMiddlegamesInStrataAndTwoHalves) {
  const auto all = load_suite(kStratified);  // legal, with a legal move each
  ASSERT_GE(all.size(), 64u);
  const auto sizes = count(suite_column(kStratified, "size"));
  const auto quiescence = count(suite_column(kStratified, "quiescence"));
  const auto halves = count(suite_column(kStratified, "half"));
  for (const auto& [label, n] : sizes)
    EXPECT_TRUE(label == "small" || label == "medium" || label == "large") << label << " x" << n;
  EXPECT_GE(sizes.size(), 2u) << "one size class only";
  ASSERT_EQ(quiescence.size(), 2u);
  EXPECT_GE(quiescence.at("q-heavy"), 16);
  EXPECT_GE(quiescence.at("q-light"), 16);
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_GE(halves.at("tune"), 16);
  EXPECT_GE(halves.at("verdict"), 16);
  EXPECT_EQ(load_book(kStratified, "verdict", true).size(), std::size_t(halves.at("verdict")));
  EXPECT_EQ(load_book(kStratified, "tune", true).size(), std::size_t(halves.at("tune")));
  // Not decided when chosen: Fairy-Stockfish's score within 300 centipawns.
  int scored = 0;
  for (const auto& cp : suite_column(kStratified, "cp")) {
    EXPECT_LE(std::abs(std::stoi(cp)), 300) << cp;
    ++scored;
  }
  EXPECT_EQ(scored, int(all.size()));
}

TEST(StratifiedSuite, DisjointFromEveryOtherSuite) {
  const auto all = load_suite(kStratified);
  std::set<std::string> fens;
  for (const auto& e : all) fens.insert(key(e.pos));
  EXPECT_EQ(fens.size(), all.size()) << "the suite repeats a position";
  int suites = 0;
  for (const auto& f : std::filesystem::directory_iterator(XQLAB_DATA_DIR)) {
    if (f.path().extension() != ".csv" || f.path().filename() == "stratified.csv") continue;
    for (const auto& e : load_suite(f.path().string()))
      EXPECT_EQ(fens.count(key(e.pos)), 0u) << f.path() << ": " << e.name;
    ++suites;
  }
  EXPECT_GE(suites, 7);
}

}  // namespace
}  // namespace xq::lab::common
