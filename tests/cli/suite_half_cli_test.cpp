// --suite-half: lab and tune search one half of a suite with a `half`
// column (data/stratified.csv: tune on one half, figures of record from the
// other), and --by groups that half's positions alone.
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/positions.h"
#include "tests/support/run_xqlab.h"

namespace {

using nlohmann::json;
using xq::test::XqlabRun;
using xq::test::xqlab;

// Four positions, halves tune, verdict, verdict, tune; sizes even, odd, even, odd.
std::string halved_suite(const std::string& tag) {
  const std::string suite = ::testing::TempDir() + "xqlab_half_" + tag + std::to_string(::getpid()) + ".csv";
  std::ofstream out(suite);
  out << "name,fen,size,half\n";
  const std::vector<std::string>& fens = xq::test::four_short_fens();
  const char* halves[] = {"tune", "verdict", "verdict", "tune"};
  for (std::size_t i = 0; i < fens.size(); ++i)
    out << "p" << i << "," << fens[i] << "," << (i % 2 ? "odd" : "even") << "," << halves[i] << "\n";
  return suite;
}

TEST(CliSuiteHalf, TheLabSearchesTheHalfAndGroupsItAlone) {
  const std::string suite = halved_suite("lab");
  const XqlabRun r = xqlab({"lab", "--suite", suite, "--suite-half", "verdict", "--by", "size",
                            "--backends", "serial", "--threads", "1", "--depth", "2", "--runs", "1",
                            "--json", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j.at("positions"), 2);
  EXPECT_EQ(j.at("suite_half"), "verdict");
  // p1 (odd) and p2 (even): one position in each group.
  std::set<std::string> labels;
  for (const json& g : j.at("by").at("groups")) {
    EXPECT_EQ(g.at("positions").size(), 1u) << g.dump();
    labels.insert(g.at("label").get<std::string>());
  }
  EXPECT_EQ(labels, (std::set<std::string>{"even", "odd"}));
  // Without --suite-half: every position, and no suite_half key.
  const XqlabRun whole = xqlab({"lab", "--suite", suite, "--backends", "serial", "--threads", "1",
                                "--depth", "2", "--runs", "1", "--json", "--quiet"});
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(whole.json().at("positions"), 4);
  EXPECT_FALSE(whole.json().contains("suite_half"));
  // The text names the half.
  const XqlabRun text = xqlab({"lab", "--suite", suite, "--suite-half", "tune", "--backends", "serial",
                               "--threads", "1", "--depth", "2", "--runs", "1", "--quiet"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("2 positions from " + suite + " (tune half)"), std::string::npos) << text.out;
  std::remove(suite.c_str());
}

TEST(CliSuiteHalf, TuneSearchesTheHalf) {
  const std::string suite = halved_suite("tune");
  const XqlabRun r = xqlab({"tune", "--backend", "ybwc", "--threads", "2", "--depth", "2", "--runs",
                            "1", "--space", "min_split_depth=2,3", "--suite", suite, "--suite-half",
                            "tune", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json t = r.json().at("tune");
  EXPECT_EQ(t.at("positions"), 2);
  EXPECT_EQ(t.at("suite_half"), "tune");
  std::remove(suite.c_str());
}

TEST(CliSuiteHalf, AHalfOfASuiteWithoutHalvesOrAnUnknownHalfIsRefused) {
  const std::string plain = ::testing::TempDir() + "xqlab_nohalf_" + std::to_string(::getpid()) + ".csv";
  std::ofstream(plain) << "name,fen\nstart,rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n";
  const XqlabRun no_column =
      xqlab({"lab", "--suite", plain, "--suite-half", "verdict", "--depth", "2", "--quiet"});
  xq::test::expect_one_line_error(no_column, "a half of a suite without halves");
  EXPECT_NE(no_column.err.find("no 'half' column"), std::string::npos) << no_column.err;
  const XqlabRun unknown = xqlab({"lab", "--suite", plain, "--suite-half", "both", "--depth", "2"});
  xq::test::expect_one_line_error(unknown, "an unknown half");
  EXPECT_NE(unknown.err.find("--suite-half"), std::string::npos) << unknown.err;
  std::remove(plain.c_str());
}

}  // namespace
