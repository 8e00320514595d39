// `xqlab lab` interrupted and resumed as a user would: SIGINT once the
// journal holds a few searches, then the same command with --resume, against
// an uninterrupted run. Serial and ybwc at one thread with a fresh table per
// search give the same node counts and moves every time, so the resumed
// run's table must equal the uninterrupted one's in every such figure.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/support/run_xqlab.h"
#include "tests/support/files.h"

namespace {

using xq::test::XqlabRun;

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<std::string> lab_args(const std::string& json_file) {
  return {"lab",   "--backends", "serial,ybwc", "--threads", "1", "--hash", "xor",
          "--depth", "5",        "--runs",      "1",         "--json-file", json_file};
}

nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(xq::test::read_file(path));
}

// The figures of a lab document that do not depend on time.
void expect_same_searches(const nlohmann::json& a, const nlohmann::json& b) {
  ASSERT_EQ(a.at("results").size(), b.at("results").size());
  for (std::size_t i = 0; i < a["results"].size(); ++i) {
    const auto& x = a["results"][i];
    const auto& y = b["results"][i];
    EXPECT_EQ(x.at("backend"), y.at("backend"));
    EXPECT_EQ(x.at("nodes"), y.at("nodes")) << x.at("backend");
    EXPECT_EQ(x.at("search_overhead"), y.at("search_overhead")) << x.at("backend");
    EXPECT_EQ(x.at("tt_hits"), y.at("tt_hits")) << x.at("backend");
    EXPECT_EQ(x.at("bestmove_agreement"), y.at("bestmove_agreement")) << x.at("backend");
    ASSERT_EQ(x.at("positions").size(), y.at("positions").size());
    for (std::size_t p = 0; p < x["positions"].size(); ++p)
      EXPECT_EQ(x["positions"][p].at("nodes"), y["positions"][p].at("nodes"))
          << x.at("backend") << " position " << p + 1;
  }
}

TEST(CliLabResume, InterruptedRunKeepsItsSearchesAndResumesToTheSameTable) {
  const std::string part = xq::test::temp_path("resume", "part.json"), whole = xq::test::temp_path("resume", "whole.json");
  const std::string journal = part + ".journal";
  xq::test::RunLimits limits;
  limits.interrupt_after_first_line = true;
  limits.interrupt_file = journal;
  limits.interrupt_lines = 4;  // the settings line and three searches
  const XqlabRun cut = xq::test::run_xqlab(lab_args(part), limits);
  ASSERT_EQ(cut.status, 130) << "stdout: " << cut.out << "\nstderr: " << cut.err;
  EXPECT_NE(cut.out.find("xqlab lab: interrupted: "), std::string::npos) << cut.out;
  EXPECT_NE(cut.out.find("  missing ybwc/xor/1t: "), std::string::npos) << cut.out;
  EXPECT_NE(cut.err.find("the same command with --resume continues"), std::string::npos)
      << cut.err;
  EXPECT_FALSE(exists(part)) << "an interrupted run wrote a --json-file";
  EXPECT_FALSE(exists(part + ".tmp"));
  const int kept = xq::test::count_lines(xq::test::read_file(journal)) - 1;
  EXPECT_GE(kept, 3);
  EXPECT_LT(kept, 32);

  std::vector<std::string> again = lab_args(part);
  again.push_back("--resume");
  const XqlabRun resumed = xq::test::run_xqlab(again);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("lab: resuming from " + journal + ": "), std::string::npos)
      << resumed.err;
  EXPECT_EQ(xq::test::count_lines(xq::test::read_file(journal)), 1 + 32);

  const XqlabRun straight = xq::test::run_xqlab(lab_args(whole));
  ASSERT_EQ(straight.status, 0) << straight.err;
  expect_same_searches(read_json(part), read_json(whole));

  for (const std::string& f : {part, whole, journal, whole + ".journal"}) std::remove(f.c_str());
}

TEST(CliLabResume, ResumeRefusesAJournalOfOtherSettings) {
  const std::string json = xq::test::temp_path("resume", "other.json");
  const XqlabRun first = xq::test::run_xqlab(
      {"lab", "--backends", "serial", "--threads", "1", "--depth", "2", "--runs", "1",
       "--json-file", json});
  ASSERT_EQ(first.status, 0) << first.err;
  const XqlabRun other = xq::test::run_xqlab(
      {"lab", "--backends", "serial", "--threads", "1", "--depth", "3", "--runs", "1",
       "--json-file", json, "--resume"});
  xq::test::expect_one_line_error(other, "a journal of depth 2 resumed at depth 3");
  EXPECT_NE(other.err.find("depth differs"), std::string::npos) << other.err;
  const XqlabRun none = xq::test::run_xqlab({"lab", "--depth", "2", "--resume"});
  xq::test::expect_one_line_error(none, "--resume without a journal");
  for (const std::string& f : {json, json + ".journal"}) std::remove(f.c_str());
}

}  // namespace
