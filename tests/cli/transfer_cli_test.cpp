// xqlab transfer end to end on a tiny budget: both profiles (a game depth
// each), one backend, two games per match: the JSON has every measure per
// profile and counts the games it played; bad input ends with one line and
// exit status 2.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/files.h"
#include "tests/support/run_xqlab.h"

namespace {

using xq::test::run_xqlab;
using xq::test::XqlabRun;

TEST(CliTransferSlow, TinyRunHasEveryMeasurePerProfile) {
  // Openings with no capture possible and 110 plies already without one:
  // every game ends after 10 plies (the no-capture limit), so the five
  // matches per profile take seconds.
  const std::string suite = xq::test::temp_path("transfer", "short.csv");
  std::ofstream(suite) << "name,fen\n"
                          "advisors,4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 110 60\n"
                          "advisors black,3k5/4a4/9/9/9/9/9/9/4A4/4K4 b - - 110 60\n";
  const XqlabRun r = run_xqlab({"transfer", "--backends", "lazysmp", "--games", "2", "--tc",
                                "0.3+0.03", "--game-depth", "thesis=2,modern=3", "--lab-depth", "3",
                                "--lab-runs", "2", "--suite", suite, "--book", suite, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = r.json();
  const nlohmann::json& t = j["transfer"];
  EXPECT_EQ(t["time_control"], "0.3+0.03");
  ASSERT_EQ(t["profiles"].size(), 2u);
  int rows = 0;
  for (const nlohmann::json& p : t["profiles"]) {
    // The serial search against itself with twice the clock: its games
    // counted (one pair: no factor can rest on it).
    const nlohmann::json& d = p["doubling"]["wdl"];
    EXPECT_EQ(d["wins"].get<int>() + d["draws"].get<int>() + d["losses"].get<int>(), 2);
    EXPECT_TRUE(p["rows"][0]["time_factor"].is_null());
    // A depth per profile, and one depth for both.
    EXPECT_EQ(p["game_depth"], p["profile"] == "thesis" ? 2 : 3) << p["profile"];
    EXPECT_EQ(p["lab_depth"], 3);
    ASSERT_EQ(p["rows"].size(), 1u);
    const nlohmann::json& row = p["rows"][0];
    EXPECT_EQ(row["backend"], "lazysmp");
    EXPECT_GT(row["speedup"].get<double>(), 0);
    for (const char* kind : {"time", "depth"}) {
      const nlohmann::json& w = row[kind]["wdl"];
      EXPECT_EQ(w["wins"].get<int>() + w["draws"].get<int>() + w["losses"].get<int>(), 2) << kind;
    }
    ++rows;
  }
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(t["profiles"][0]["profile"], "thesis");
  EXPECT_EQ(t["profiles"][1]["profile"], "modern");
  // Two games are no evidence: nothing may be called decided.
  EXPECT_NE(t["verdict"].get<std::string>().find("not decided"), std::string::npos)
      << t["verdict"];
}

TEST(CliTransfer, BadInputIsOneLineAndStatus2) {
  int checked = 0;
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"transfer", "--profiles", "thesis,fast"},
           {"transfer", "--backends", "bogus"},
           {"transfer", "--tc", "soon"},
           {"transfer", "--games", "0"},
           {"transfer", "--game-depth", "0"},
           {"transfer", "--game-depth", "thesis=6,fast=9"},
           {"transfer", "--lab-depth", "modern=x"},
           {"transfer", "--lab-depth", "thesis=7,"}}) {
    const XqlabRun r = run_xqlab(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    ++checked;
  }
  EXPECT_EQ(checked, 8);
}

}  // namespace
