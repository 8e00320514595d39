// Time to solution (lab/timing/solve.h): the moment from which the best move
// stayed the solution; a suite's solution and mate columns checked; the
// summary's solved counts, medians, penalised sums and paired ratios.
#include "lab/timing/solve.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace xq::lab::timing {
namespace {

const char* const kFen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

Move m(const char* text) { return Position().parse_move(text); }

TEST(TimeToSolution, FromTheFirstReportOfTheLastRunNamingTheSolution) {
  const Move a = m("h2e2"), b = m("b0c2");
  ASSERT_NE(a, Move::none());
  ASSERT_NE(b, Move::none());
  // Found, lost, found again: from the second finding.
  EXPECT_EQ(time_to_solution({{0.1, b}, {0.2, a}, {0.3, b}, {0.4, a}, {0.5, a}}, a, 0.9, a), 0.4);
  // Named from the first report on.
  EXPECT_EQ(time_to_solution({{0.1, a}, {0.2, a}}, a, 0.5, a), 0.1);
  // Only the final move (a stopped iteration's): at the end.
  EXPECT_EQ(time_to_solution({{0.1, b}}, a, 0.5, a), 0.5);
  EXPECT_EQ(time_to_solution({}, a, 0.5, a), 0.5);
  // The search ended on another move: not solved, whatever it reported.
  EXPECT_FALSE(time_to_solution({{0.1, a}, {0.2, a}}, b, 0.5, a).has_value());
}

std::string write_suite(const std::string& tag, const std::string& text) {
  const std::string path =
      ::testing::TempDir() + "xqlab_solve_" + tag + "_" + std::to_string(::getpid()) + ".csv";
  std::ofstream(path) << text;
  return path;
}

TEST(SolveSuite, ReadsSolutionsAndMateLengths) {
  const std::string path = write_suite(
      "good", std::string("name,fen,solution,mate\none,") + kFen + ",h2e2,3\ntwo," + kFen +
                  ",b0c2,\n");
  const std::vector<SolveEntry> suite = load_solve_suite(path);
  ASSERT_EQ(suite.size(), 2u);
  EXPECT_EQ(suite[0].name, "one");
  EXPECT_EQ(suite[0].solution, m("h2e2"));
  EXPECT_EQ(suite[0].mate, 3);
  EXPECT_EQ(suite[1].solution, m("b0c2"));
  EXPECT_EQ(suite[1].mate, 0);
  std::remove(path.c_str());
}

TEST(SolveSuite, RefusesWhatItCannotUseInOneLine) {
  int refused = 0;
  for (const auto& [tag, text, says] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"nocol", std::string("name,fen\none,") + kFen + "\n", "no 'solution' column"},
           {"illegal", std::string("name,fen,solution\none,") + kFen + ",a0a5\n",
            "'a0a5' is not a legal move"},
           {"garbage", std::string("name,fen,solution\none,") + kFen + ",xyz\n",
            "'xyz' is not a legal move"},
           {"mate", std::string("name,fen,solution,mate\none,") + kFen + ",h2e2,3x\n",
            "mate '3x' is not a length"},
           {"mate0", std::string("name,fen,solution,mate\none,") + kFen + ",h2e2,0\n",
            "mate '0' is not a length"}}) {
    const std::string path = write_suite(tag, text);
    try {
      load_solve_suite(path);
      ADD_FAILURE() << tag << ": accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(says), std::string::npos) << tag << ": " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << tag;
      ++refused;
    }
    std::remove(path.c_str());
  }
  EXPECT_EQ(refused, 5);
}

TEST(SolveSummary, CountsMediansPenaltiesAndPairedRatios) {
  SolveSettings s;
  s.movetime_ms = 1000;
  s.runs = 2;
  s.configs = build_configs({"serial", "uidpabs"}, {"xor"}, {1, 2}, [](const std::string&) {});
  int serial = -1, two = -1;
  for (std::size_t i = 0; i < s.configs.size(); ++i) {
    if (s.configs[i].backend == "serial") serial = int(i);
    if (s.configs[i].backend == "uidpabs" && s.configs[i].threads == 2) two = int(i);
  }
  ASSERT_GE(serial, 0);
  ASSERT_GE(two, 0);
  const auto run = [](int config, int r, int position, bool solved, double seconds) {
    SolveRun x;
    x.config = config;
    x.run = r;
    x.position = position;
    x.solved = solved;
    x.seconds = solved ? seconds : 1.0;
    return x;
  };
  // Position 0: both solve in both runs (serial 0.4 / 0.6, uidpabs 0.2 / 0.2);
  // position 1: serial solves once (0.8), uidpabs twice (0.5, 0.3).
  const std::vector<SolveRun> runs = {
      run(serial, 0, 0, true, 0.4), run(two, 0, 0, true, 0.2), run(serial, 0, 1, true, 0.8),
      run(two, 0, 1, true, 0.5),    run(serial, 1, 0, true, 0.6), run(two, 1, 0, true, 0.2),
      run(serial, 1, 1, false, 0),  run(two, 1, 1, true, 0.3)};
  const std::vector<SolveSummary> rows = summarize_solve(s, runs);
  const SolveSummary& a = rows[std::size_t(serial)];
  const SolveSummary& b = rows[std::size_t(two)];
  EXPECT_EQ(a.searches, 4);
  EXPECT_EQ(a.solved, 3);
  EXPECT_DOUBLE_EQ(a.median_seconds, 0.6);
  EXPECT_DOUBLE_EQ(a.mean_seconds, 0.6);
  EXPECT_DOUBLE_EQ(a.penalised_seconds, 0.4 + 0.8 + 0.6 + 1.0);
  EXPECT_DOUBLE_EQ(a.speedup, 1.0);
  EXPECT_EQ(b.solved, 4);
  EXPECT_DOUBLE_EQ(b.median_seconds, 0.25);
  EXPECT_DOUBLE_EQ(b.penalised_seconds, 1.2);
  EXPECT_DOUBLE_EQ(b.speedup, 2.8 / 1.2);
  // Paired only where both solved every run: position 0, 0.5 / 0.2.
  EXPECT_EQ(b.paired_positions, 1);
  EXPECT_DOUBLE_EQ(b.paired, 2.5);
}

}  // namespace
}  // namespace xq::lab::timing
