// xqlab ablation end to end: a tiny run writes its table and CSV; bad input is
// one line on stderr and exit status 2.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "lab/common/csv.h"
#include "tests/support/run_xqlab.h"

namespace {

using nlohmann::json;
using xq::test::XqlabRun;

XqlabRun ablation(std::vector<std::string> args) {
  args.insert(args.begin(), "ablation");
  return xq::test::run_xqlab(args);
}

TEST(AblationCli, SmallRunWritesTableAndCsv) {
  const std::string csv = ::testing::TempDir() + "abl.csv";
  const XqlabRun r = ablation(
      {"--depths", "1..2", "--positions", "2", "--configs", "ab,pvs+tt+ord+null", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("average nodes per position"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PVS+TT+ordering+null"), std::string::npos) << r.out;
  const xq::lab::common::CsvTable t = xq::lab::common::read_csv(csv);
  ASSERT_EQ(t.rows.size(), 2u * 2u);  // configs x depths
  const std::vector<std::string> head = {"config", "label", "algorithm", "features", "depth"};
  EXPECT_TRUE(std::equal(head.begin(), head.end(), t.header.begin()));
  EXPECT_EQ(t.rows[0][std::size_t(t.column("config"))], "ab");
  EXPECT_EQ(t.rows[0][std::size_t(t.column("positions"))], "2");
  EXPECT_EQ(t.rows[3][std::size_t(t.column("label"))], "PVS+TT+ordering+null");
}

TEST(AblationCli, JsonHasOneRowPerConfig) {
  const XqlabRun r = ablation({"--depths", "2", "--positions", "1", "--configs", "pvs,ab+ord",
                               "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  ASSERT_EQ(j.at("rows").size(), 2u) << r.out;
  EXPECT_EQ(j.at("rows")[0].at("config"), "pvs");
  EXPECT_EQ(j.at("rows")[1].at("config"), "ab+ord");
  EXPECT_EQ(j.at("positions"), 1);
  EXPECT_EQ(j.at("hash_mb"), 32);
  for (const json& row : j.at("rows")) {
    ASSERT_EQ(row.at("depths").size(), 1u);
    const json& cell = row.at("depths")[0];
    EXPECT_EQ(cell.at("depth"), 2);
    EXPECT_EQ(cell.at("complete"), true);
    EXPECT_GT(cell.at("avg_nodes").get<double>(), 0.0);
  }
  EXPECT_EQ(j.at("rows")[0].at("depths")[0].at("node_reduction"), 1.0);  // against itself
}

TEST(AblationCli, QuotedCsvFieldsAndCustomSuite) {
  const std::string suite = ::testing::TempDir() + "abl_suite.csv";
  {
    std::ofstream f(suite);
    f << "fen,name\n"
      << "\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\","
         "\"start, quoted \"\"name\"\"\"\n";
  }
  const XqlabRun r = ablation({"--suite", suite, "--depths", "2", "--configs", "pvs",
                               "--progress"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 positions"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("start, quoted \"name\""), std::string::npos) << r.err;
}

TEST(AblationCli, BadInputIsOneLineAndStatus2) {
  const std::string bad_suite = ::testing::TempDir() + "abl_bad.csv";
  {
    std::ofstream f(bad_suite);
    f << "name,fen\nx,not a fen\n";
  }
  const std::vector<std::vector<std::string>> cases = {
      {"--depths", "0..3"}, {"--depths", "5..3"}, {"--depths", "x"},
      {"--configs", "nosuch"}, {"--suite", "/nonexistent.csv"}, {"--suite", bad_suite},
      {"--hash", "nosuch", "--depths", "1"}, {"--bogus"}, {"--repeat", "0"},
      {"--hash-mb", "0"}, {"--threads", "257"}, {"--param", "min_split_depth=0"}};
  int checked = 0;
  for (const auto& args : cases) {
    xq::test::expect_one_line_error(ablation(args), args.front() + " " + args.back());
    ++checked;
  }
  EXPECT_EQ(checked, int(cases.size()));
}

}  // namespace
