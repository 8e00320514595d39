// The xqlab command as a user runs it: output format of `xqlab perft` and the
// contract for bad input (exactly one line on stderr, exit status 2, no crash
// and no hang).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_xqlab.h"

namespace {

using xq::test::count_lines;
using xq::test::XqlabRun;

XqlabRun run(const std::vector<std::string>& args) { return xq::test::run_xqlab(args); }

// The "move: count" lines of a divide listing, summed; their number in `moves`.
long long sum_divide_lines(const std::string& out, int& moves) {
  std::istringstream in(out);
  long long sum = 0;
  moves = 0;
  for (std::string line; std::getline(in, line);) {
    const std::size_t colon = line.find(": ");
    if (colon != 4) continue;  // "h2e2: 38"; the totals lines have no such colon
    ++moves;
    sum += std::stoll(line.substr(colon + 2));
  }
  return sum;
}

const std::string kStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

TEST(CliPerft, JsonFromStartpos) {
  const XqlabRun r = run({"perft", "--fen", "startpos", "--depth", "3", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(count_lines(r.out), 1) << r.out;
  const nlohmann::json j = r.json();
  EXPECT_EQ(j.at("fen"), kStart);
  EXPECT_EQ(j.at("depth"), 3);
  EXPECT_EQ(j.at("nodes"), 79666);
  EXPECT_EQ(j.at("root_moves"), 44);
  EXPECT_EQ(j.at("interrupted"), false);
  // 79666 paths take measurable time; nps is the ratio it claims to be.
  const double seconds = j.at("seconds"), nps = j.at("nps");
  ASSERT_GT(seconds, 0.0);
  EXPECT_LT(seconds, 60.0);
  EXPECT_NEAR(nps, 79666 / seconds, 1e-6 * nps);
  long long sum = 0;
  for (const auto& [move, n] : j.at("divide").items()) sum += n.get<long long>();
  EXPECT_EQ(j.at("divide").size(), 44u);
  EXPECT_EQ(sum, 79666);
}

TEST(CliPerft, JsonFromFen) {
  const XqlabRun r = run({"perft", "--fen",
                           "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
                           "--depth", "2", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json().at("nodes"), 1128);
}

TEST(CliPerft, PlainTextReportsNodes) {
  const XqlabRun r = run({"perft", "--fen", "startpos", "--depth", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1920"), std::string::npos) << r.out;
}

TEST(CliPerft, DivideSumsToTotal) {
  const XqlabRun r = run({"perft", "--fen", "startpos", "--depth", "2", "--divide"});
  ASSERT_EQ(r.status, 0) << r.err;
  int moves = 0;
  EXPECT_EQ(sum_divide_lines(r.out, moves), 1920) << r.out;
  EXPECT_EQ(moves, 44) << r.out;
}

// Beyond depth 7 every root move is printed as it finishes, --divide or not.
TEST(CliPerft, DeepCountsPrintRootMovesWithoutDivide) {
  const std::string fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";
  const XqlabRun r = run({"perft", "--fen", fen, "--depth", "8"});
  ASSERT_EQ(r.status, 0) << r.err;
  int moves = 0;
  const long long sum = sum_divide_lines(r.out, moves);
  EXPECT_EQ(moves, 19) << r.out;
  EXPECT_NE(r.out.find("nodes " + std::to_string(sum) + "\n"), std::string::npos) << r.out;
  const XqlabRun shallow = run({"perft", "--fen", fen, "--depth", "7"});
  EXPECT_EQ(sum_divide_lines(shallow.out, moves), 0) << shallow.out;
}

// Ctrl-C during a long count: a clean stop with a message and status 130,
// after the root moves finished so far were printed.
TEST(CliPerft, InterruptStopsCleanlyAfterProgress) {
  xq::test::RunLimits limits;
  limits.interrupt_after_first_line = true;
  // 27 root moves of seconds of work each even on the fastest build, while
  // the interrupt follows the first of them within about 50 ms.
  const XqlabRun r = xq::test::run_xqlab(
      {"perft", "--fen", "3k5/9/9/9/9/9/9/4N4/R8/4K4 w - - 0 1", "--depth", "11"}, limits);
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("xqlab perft: interrupted after "), std::string::npos) << r.err;
  int moves = 0;
  sum_divide_lines(r.out, moves);
  EXPECT_GE(moves, 1) << r.out;
  EXPECT_LT(moves, 27) << r.out;
  EXPECT_EQ(r.out.find("nodes "), std::string::npos) << r.out;
}

struct BadInvocation {
  const char* what;
  std::vector<std::string> args;
};

const BadInvocation kBad[] = {
    {"unknown subcommand", {"frobnicate"}},
    {"unknown option", {"perft", "--fen", "startpos", "--depth", "2", "--frob"}},
    {"unknown option with value", {"perft", "--fen", "startpos", "--depth", "2", "--threads", "4"}},
    {"stray argument", {"perft", "--fen", "startpos", "--depth", "2", "extra"}},
    {"missing depth", {"perft", "--fen", "startpos"}},
    {"missing fen", {"perft", "--depth", "2"}},
    {"option without value", {"perft", "--fen", "startpos", "--depth"}},
    {"depth 0", {"perft", "--fen", "startpos", "--depth", "0"}},
    {"depth -1", {"perft", "--fen", "startpos", "--depth", "-1"}},
    {"depth abc", {"perft", "--fen", "startpos", "--depth", "abc"}},
    {"depth 3x", {"perft", "--fen", "startpos", "--depth", "3x"}},
    {"depth empty", {"perft", "--fen", "startpos", "--depth", ""}},
    {"depth 1.5", {"perft", "--fen", "startpos", "--depth", "1.5"}},
    {"depth huge", {"perft", "--fen", "startpos", "--depth", "1000"}},
    {"depth overflow", {"perft", "--fen", "startpos", "--depth", "99999999999999999999999"}},
    {"option twice", {"perft", "--fen", "startpos", "--depth", "2", "--depth", "3"}},
    {"malformed fen: garbage", {"perft", "--fen", "hello", "--depth", "2"}},
    {"malformed fen: nine ranks",
     {"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: ten files",
     {"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: unknown letter",
     {"perft", "--fen", "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: no black king",
     {"perft", "--fen", "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: two red kings",
     {"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: advisor outside the palace",
     {"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w", "--depth", "2"}},
    {"malformed fen: kings facing", {"perft", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "--depth", "2"}},
    {"malformed fen: side not to move in check",
     {"perft", "--fen", "3k5/9/9/9/3R5/9/9/9/9/4K4 w - - 0 1", "--depth", "2"}},
    {"malformed fen: bad side", {"perft", "--fen", "3k5/9/9/9/9/9/9/9/9/4K4 x", "--depth", "2"}},
    {"empty fen", {"perft", "--fen", "", "--depth", "2"}},
};

TEST(CliBadInput, OneLineOnStderrAndStatus2) {
  int cases = 0;
  for (const BadInvocation& bad : kBad) {
    const XqlabRun r = run(bad.args);
    xq::test::expect_one_line_error(r, bad.what);
    EXPECT_GT(r.err.size(), 10u) << bad.what << ": error too short to name the problem: " << r.err;
    ++cases;
  }
  EXPECT_EQ(cases, int(std::size(kBad)));
}

// Input echoed in an error is cut to 200 characters and its control bytes
// escaped, whatever command and whatever check rejected it.
TEST(CliBadInput, EchoedInputIsCutAndEscaped) {
  const std::string esc = "\x1b[31m";
  const std::vector<std::vector<std::string>> cases = {
      {"perft", "--fen", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 " + std::string(60000, '9'), "--depth",
       "1"},
      {"perft", "--fen", esc + std::string(5000, 'x'), "--depth", "1"},
      {"search", "--fen", "startpos", "--backend", esc + "nope"},
      {"lab", "--suite", "/nonexistent/" + esc + std::string(3000, 'd') + ".csv"},
      {esc + "frobnicate"},
  };
  for (const auto& args : cases) {
    const XqlabRun r = run(args);
    xq::test::expect_one_line_error(r, args.front());
    EXPECT_LE(r.err.size(), 201u) << r.err.substr(0, 300);
    for (std::size_t i = 0; i + 1 < r.err.size(); ++i)
      EXPECT_GE(static_cast<unsigned char>(r.err[i]), 0x20) << "byte " << i << ": " << r.err;
  }
}

TEST(CliBadInput, FenErrorNamesTheProblem) {
  const XqlabRun r = run({"perft", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w", "--depth", "1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("check"), std::string::npos) << r.err;
  const XqlabRun d = run({"perft", "--fen", "startpos", "--depth", "abc"});
  EXPECT_NE(d.err.find("depth"), std::string::npos) << d.err;
  const XqlabRun u = run({"frobnicate"});
  EXPECT_NE(u.err.find("frobnicate"), std::string::npos) << u.err;
}

TEST(CliBadInput, NoCommandPrintsUsageAndStatus2) {
  const XqlabRun r = run({});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("usage"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CliHelp, HelpExitsZero) {
  const XqlabRun r = run({"help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("perft"), std::string::npos);
}

// Every command has its own --help on stdout, naming its options.
TEST(CliHelp, EveryCommandHasHelp) {
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"perft", "--depth"}, {"search", "--param"}, {"lab", "--backends"},
      {"ablation", "--depths"}, {"stress", "--entries"}, {"list", "--json"},
      {"evolve", "--population"}, {"spsa", "--iterations"}};
  for (const auto& [command, option] : commands) {
    const XqlabRun r = run({command, "--help"});
    EXPECT_EQ(r.status, 0) << command << ": " << r.err;
    EXPECT_NE(r.out.find("xqlab " + command), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(option), std::string::npos) << command << ": " << r.out;
    EXPECT_EQ(r.err, "") << command;
  }
}

}  // namespace
