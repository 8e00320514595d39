// `xqlab stress` and `xqlab list`, run as a user would (exit status, output).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hashing/schemes.h"
#include "tests/support/run_xqlab.h"

namespace {

using nlohmann::json;
using xq::test::run_xqlab;
using xq::test::XqlabRun;

TEST(HashCli, ListJsonNamesEverySchemeUnderHash) {
  const XqlabRun r = run_xqlab({"list", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json hash = r.json().at("hash");
  ASSERT_EQ(hash.size(), xq::kSchemeNames.size()) << r.out;
  for (std::size_t i = 0; i < xq::kSchemeNames.size(); ++i)
    EXPECT_EQ(hash[i], std::string(xq::kSchemeNames[i]));
}

TEST(HashCli, ListTextNamesEveryScheme) {
  const XqlabRun r = run_xqlab({"list"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (std::string_view n : xq::kSchemeNames)
    EXPECT_NE(r.out.find("\n  " + std::string(n) + " "), std::string::npos) << n;
}

TEST(HashCli, StressJsonReportsTheRequiredKeys) {
  const XqlabRun r = run_xqlab(
      {"stress", "--hash", "xor", "--threads", "2", "--seconds", "0.05", "--entries", "64", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  for (const char* key : {"ops", "ops_per_sec", "hits", "torn_detected", "probes", "stores"})
    EXPECT_TRUE(j.contains(key)) << key << " in " << r.out;
  EXPECT_EQ(j.at("hash"), "xor");
  EXPECT_EQ(j.at("corrupt_accepted"), 0) << r.out;
  EXPECT_GT(j.at("ops").get<long long>(), 0) << r.out;
  EXPECT_EQ(j.at("probes").get<long long>() + j.at("stores").get<long long>(),
            j.at("ops").get<long long>())
      << r.out;
}

// Several schemes and rounds run interleaved (every scheme's round 1, then
// every scheme's round 2), one JSON line per run; "all" names every scheme,
// and in busy-mark mode every scheme that counts searchers.
TEST(HashCli, RoundsInterleaveTheSchemes) {
  const XqlabRun r = run_xqlab({"stress", "--hash", "xor,spinlock", "--rounds", "2", "--ops",
                                "1000", "--entries", "64", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::pair<std::string, int>> runs;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const json j = json::parse(line);
    EXPECT_EQ(j.at("rounds"), 2) << line;
    runs.emplace_back(j.at("hash").get<std::string>(), j.at("round").get<int>());
  }
  EXPECT_EQ(runs, (std::vector<std::pair<std::string, int>>{
                      {"xor", 1}, {"spinlock", 1}, {"xor", 2}, {"spinlock", 2}}));
  const XqlabRun all = run_xqlab({"stress", "--hash", "all", "--ops", "100", "--json"});
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(std::size_t(std::count(all.out.begin(), all.out.end(), '\n')), xq::kSchemeNames.size());
  const XqlabRun marks =
      run_xqlab({"stress", "--mode", "marks", "--hash", "all", "--ops", "100", "--json"});
  ASSERT_EQ(marks.status, 0) << marks.err;
  EXPECT_EQ(marks.out.find("\"hash\":\"perthread\""), std::string::npos) << marks.out;
  EXPECT_NE(marks.out.find("\"spinlock\""), std::string::npos) << marks.out;
  const XqlabRun text = run_xqlab({"stress", "--hash", "xor,sandwich", "--rounds", "3", "--ops", "100"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("median ops/s"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("round             3 of 3"), std::string::npos) << text.out;
}

// The busy-mark mode writes exactly the keys other tools read; a locked
// scheme loses nothing; the torn-entry mode says which mode it ran.
TEST(HashCli, StressMarksJsonReportsTheRequiredKeys) {
  const XqlabRun r = run_xqlab({"stress", "--mode", "marks", "--hash", "spinlock", "--threads",
                                "2", "--ops", "20000", "--entries", "64", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  int keys = 0;
  for (const char* key : {"meta", "mode", "hash", "threads", "ops", "seconds", "lost_updates",
                          "lost_per_1e8", "underflows", "leaks"}) {
    EXPECT_TRUE(j.contains(key)) << key << " in " << r.out;
    ++keys;
  }
  EXPECT_EQ(keys, 10);
  EXPECT_EQ(j.at("mode"), "marks");
  EXPECT_EQ(j.at("hash"), "spinlock");
  EXPECT_EQ(j.at("threads"), 2);
  EXPECT_GE(j.at("ops").get<long long>(), 20000) << r.out;
  EXPECT_EQ(j.at("lost_updates"), 0) << r.out;
  EXPECT_EQ(j.at("lost_per_1e8"), 0.0) << r.out;
  EXPECT_EQ(j.at("underflows"), 0) << r.out;
  EXPECT_EQ(j.at("leaks"), 0) << r.out;
  EXPECT_TRUE(j.at("meta").contains("command")) << r.out;

  const XqlabRun e = run_xqlab({"stress", "--hash", "xor", "--ops", "100", "--json"});
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_EQ(e.json().at("mode"), "entries") << e.out;
  EXPECT_TRUE(e.json().contains("meta")) << e.out;
}

TEST(HashCli, StressMarksRefusesPerthreadAndBadModesWithOneLine) {
  const XqlabRun r = run_xqlab({"stress", "--mode", "marks", "--hash", "perthread", "--ops", "10"});
  xq::test::expect_one_line_error(r, "perthread marks");
  EXPECT_NE(r.err.find("no searcher counts"), std::string::npos) << r.err;
  xq::test::expect_one_line_error(run_xqlab({"stress", "--mode", "both", "--hash", "xor"}),
                                  "--mode both");
}

// --ops N runs exactly N operations, however they divide over the threads
// (the harness works in batches, which must not round the count up).
TEST(HashCli, StressStopsAfterExactlyOps) {
  for (const auto& [ops, threads] : std::vector<std::pair<long long, int>>{
           {1, 1}, {1, 2}, {1280, 2}, {1001, 3}, {63, 4}}) {
    const XqlabRun r = run_xqlab({"stress", "--hash", "spinlock", "--threads",
                                  std::to_string(threads), "--ops", std::to_string(ops),
                                  "--seconds", "30", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.json().at("ops"), ops) << ops << " ops, " << threads << " threads: " << r.out;
  }
}

// --seconds S ends the run within 1 % (plus the time to join the threads,
// which is far below that).
TEST(HashCli, StressStopsAfterSeconds) {
  const XqlabRun r =
      run_xqlab({"stress", "--hash", "xor", "--threads", "2", "--seconds", "0.5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const double seconds = r.json().at("seconds");
  EXPECT_GE(seconds, 0.5);
  // 1 % of the limit, plus room for a loaded machine to wake the timer late.
  EXPECT_LE(seconds, 0.505 + 0.045);
}

// Each bad input on its own, beside otherwise valid arguments, so each case
// fails only because of the input it names.
TEST(HashCli, StressRejectsBadInputWithOneLineAndStatus2) {
  const std::vector<std::vector<std::string>> cases = {
      {"stress", "--hash", "nope"},
      {"stress", "--hash", "xor", "--threads", "0"},
      {"stress", "--hash", "xor", "--threads", "257"},
      {"stress", "--hash", "xor", "--entries", "0"},
      {"stress", "--hash", "xor", "--seconds", "0"},
      {"stress", "--hash", "xor", "--rounds", "0"},
      {"stress", "--hash", "xor,nope"},
      {"stress", "--hash", "xor", "--seconds", "-1"},
      {"stress", "--hash", "xor", "--seconds", "x"},
      {"stress", "--threads", "2"},
      {"stress", "--hash", "xor", "--replace", "best"},
      {"stress", "--hash", "xor", "--ops", "-5"},
      {"stress", "--hash", "xor", "--bogus"},
      {"list", "--hash"},
  };
  int checked = 0;
  for (const auto& args : cases) {
    xq::test::expect_one_line_error(run_xqlab(args), args.back());
    ++checked;
  }
  EXPECT_EQ(checked, int(cases.size()));
  const XqlabRun r = run_xqlab({"stress", "--hash", "nope"});
  EXPECT_NE(r.err.find("unknown hash scheme 'nope'"), std::string::npos) << r.err;
  // The smallest table with more threads than entries is valid input.
  const XqlabRun ok = run_xqlab(
      {"stress", "--hash", "perthread", "--threads", "8", "--entries", "1", "--ops", "64"});
  EXPECT_EQ(ok.status, 0) << ok.err;
}

}  // namespace
