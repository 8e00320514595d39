// --profile thesis|modern end to end: search, lab and ablation report the
// profile they ran and the modern one's selectivity; a bad profile, or a
// profile with --features, ends with one line and exit status 2; a lab
// journal of one profile does not resume a run of the other.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

#include "tests/support/run_xqlab.h"

namespace {

using xq::test::run_xqlab;
using xq::test::XqlabRun;

const char* const kMiddlegame =
    "4kabr1/4a4/1cnr2n2/p1p1p1pcp/5NbR1/1CP2NP2/P3P3P/4C4/9/R1BAKAB2 w - - 22 12";

TEST(CliProfile, SearchReportsItsProfileAndTheModernSelectivity) {
  int checked = 0;
  for (const char* profile : {"thesis", "modern"}) {
    const XqlabRun r = run_xqlab({"search", "--fen", kMiddlegame, "--depth", "7", "--profile",
                                  profile, "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json j = r.json();
    EXPECT_EQ(j["profile"], profile);
    const bool modern = std::string(profile) == "modern";
    EXPECT_EQ(j["reductions"].get<std::uint64_t>() > 0, modern) << r.out;
    EXPECT_EQ(j["pruned_moves"].get<std::uint64_t>() > 0, modern);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

TEST(CliProfile, BadProfileOrProfileWithFeaturesIsOneLineAndStatus2) {
  int checked = 0;
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"search", "--fen", "startpos", "--profile", "stockfish"},
           {"search", "--fen", "startpos", "--profile", "modern", "--features", "tt"},
           {"search", "--fen", "startpos", "--features", "tt,lmr,bogus"},
           {"lab", "--profile", "Modern", "--depth", "1"},
           {"ablation", "--profile", "x", "--depths", "1"},
           {"engine", "--profile", ""}}) {
    const XqlabRun r = run_xqlab(args);
    EXPECT_EQ(r.status, 2) << args[0] << " " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

TEST(CliProfile, LabRecordsTheProfileAndAJournalDoesNotResumeTheOther) {
  const std::string base = ::testing::TempDir() + "xqlab_profile_" + std::to_string(::getpid());
  const std::string json = base + ".json";
  std::remove((json + ".journal").c_str());
  const std::vector<std::string> lab = {"lab",       "--backends", "serial",  "--threads", "1",
                                        "--depth",   "5",          "--runs",  "1",
                                        "--quiet",   "--json-file", json};
  std::vector<std::string> modern = lab;
  modern.insert(modern.end(), {"--profile", "modern"});
  const XqlabRun r = run_xqlab(modern);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("modern profile"), std::string::npos) << r.out;
  std::vector<std::string> resume = lab;  // the thesis profile
  resume.push_back("--resume");
  const XqlabRun again = run_xqlab(resume);
  EXPECT_NE(again.status, 0) << again.out;
  EXPECT_NE(again.err.find("journal"), std::string::npos) << again.err;
  std::remove(json.c_str());
  std::remove((json + ".journal").c_str());
}

TEST(CliProfile, AblationOfTheModernFeatures) {
  const XqlabRun r = run_xqlab({"ablation", "--profile", "modern", "--depths", "3", "--positions",
                                "1", "--json", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = r.json();
  ASSERT_EQ(j["rows"].size(), 15u);  // thesis, thesis + each of the thirteen, modern
  EXPECT_EQ(j["rows"][0]["config"], "thesis");
  EXPECT_EQ(j["rows"][1]["config"], "+lmr");
  EXPECT_EQ(j["rows"][13]["config"], "+knowledge");
  EXPECT_EQ(j["rows"][14]["config"], "modern");
  const XqlabRun one = run_xqlab({"ablation", "--configs", "modern-lmr,thesis", "--depths", "3",
                                  "--positions", "1", "--json", "--quiet"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.json()["rows"].size(), 2u);
}

}  // namespace
