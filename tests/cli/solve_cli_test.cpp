// xqlab solve end to end: every configuration searches every position of a
// suite with solution moves for the time given, and the document says which
// searches found the solution (solved exactly when the final move is the
// solution) and when; on the simulated machine the same seed gives the same
// document; a suite without solutions, a bad solution or an external engine
// ends with one line and exit status 2.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "tests/support/run_xqlab.h"

namespace {

using xq::test::run_xqlab;
using xq::test::XqlabRun;

// Two mates from scripts/make_mate_suite.py's run that built data/mates.csv
// (Fairy-Stockfish's verified mates in 6 and 5; the first falls to a search
// of a few plies, the second takes this engine tens of milliseconds).
const char* const kSuite =
    "name,moves,fen,solution,mate\n"
    "m6,,4R4/3k5/9/p8/4R4/9/6r2/4B4/9/4K1Bc1 w - - 5 56,g0i2,6\n"
    "m5,,3k5/9/9/4R4/9/9/7r1/2C6/4A4/2B1K1B2 w - - 39 108,c2d2,5\n";

std::string write_file(const std::string& tag, const std::string& text) {
  const std::string path =
      ::testing::TempDir() + "xqlab_solve_cli_" + tag + "_" + std::to_string(::getpid()) + ".csv";
  std::ofstream(path) << text;
  return path;
}

// Every search's record agrees with itself: solved exactly when the final
// move is the solution, the time to solution within the search.
int check_searches(const nlohmann::json& j, const std::vector<std::string>& solutions) {
  int checked = 0;
  for (const auto& r : j["searches"]) {
    const std::string& solution = solutions.at(r["position"].get<std::size_t>());
    EXPECT_EQ(r["solved"].get<bool>(), r["best_move"] == solution) << r.dump();
    if (r["solved"].get<bool>()) {
      EXPECT_LE(r["ms"].get<double>(), r["searched_ms"].get<double>() + 1e-9) << r.dump();
    } else {
      EXPECT_EQ(r["ms"].get<double>(), j["movetime_ms"].get<double>()) << r.dump();
    }
    ++checked;
  }
  return checked;
}

TEST(CliSolve, EveryConfigurationSearchesEveryPositionAndSaysWhatItSolved) {
  const std::string suite = write_file("suite", kSuite);
  const XqlabRun r = run_xqlab({"solve", "--suite", suite, "--backends", "serial,uidpabs",
                                "--threads", "1,2", "--movetime", "300", "--runs", "1", "--json",
                                "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = r.json();
  EXPECT_EQ(j["mode"], "measured");
  EXPECT_EQ(j["positions"], 2);
  ASSERT_EQ(j["configs"].size(), 3u);  // serial 1t, uidpabs 1t, uidpabs 2t
  EXPECT_EQ(check_searches(j, {"g0i2", "c2d2"}), 6);
  const auto& serial = j["configs"][0];
  EXPECT_EQ(serial["backend"], "serial");
  EXPECT_EQ(serial["searches"], 2);
  // The mate in 6 falls within a few plies, on any machine.
  EXPECT_GE(serial["solved"].get<int>(), 1);
  EXPECT_EQ(serial["speedup"], 1.0);
  std::remove(suite.c_str());
}

TEST(CliSolve, TheSimulatedMachineGivesTheSameDocumentForTheSameSeed) {
  const std::string suite = write_file("sim", kSuite);
  const std::vector<std::string> args = {"solve", "--suite", suite, "--backends", "serial,uidpabs",
                                         "--threads", "1,2", "--movetime", "120", "--runs", "2",
                                         "--simulate", "--json", "--quiet"};
  const XqlabRun a = run_xqlab(args), b = run_xqlab(args);
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  nlohmann::json ja = a.json(), jb = b.json();
  EXPECT_EQ(ja["mode"], "simulated");
  EXPECT_EQ(check_searches(ja, {"g0i2", "c2d2"}), 12);
  ja.erase("meta");
  jb.erase("meta");
  EXPECT_EQ(ja, jb);
  // In virtual time the serial search solves both mates within 120 ms.
  EXPECT_EQ(ja["configs"][0]["solved"], 4);
  std::remove(suite.c_str());
}

TEST(CliSolve, BadInputIsOneLineAndStatus2) {
  const std::string plain = write_file(
      "plain", "name,fen\nx,4R4/3k5/9/p8/4R4/9/6r2/4B4/9/4K1Bc1 w - - 5 56\n");
  const std::string illegal = write_file(
      "illegal", "name,fen,solution\nx,4R4/3k5/9/p8/4R4/9/6r2/4B4/9/4K1Bc1 w - - 5 56,a0a1\n");
  const std::string good = write_file("good", kSuite);
  int checked = 0;
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"solve", "--suite", plain}, "no 'solution' column"},
           {{"solve", "--suite", illegal}, "'a0a1' is not a legal move"},
           {{"solve", "--suite", good, "--backends", "uci:/bin/false"}, "unknown backend"},
           {{"solve", "--suite", good, "--movetime", "0"}, "--movetime"},
           {{"solve", "--suite", good, "--backends", "ybwc-proc", "--threads", "2", "--simulate"},
            "simulated"}}) {
    const XqlabRun r = run_xqlab(args);
    EXPECT_EQ(r.status, 2) << args.back() << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    ++checked;
  }
  EXPECT_EQ(checked, 5);
  for (const std::string& f : {plain, illegal, good}) std::remove(f.c_str());
}

}  // namespace
