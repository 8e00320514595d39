// `xqlab engine` (alias `xqlab uci`) end to end: the real binary with a
// piped protocol session on its standard input.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "board/movegen.h"
#include "tests/support/run_xqlab.h"

namespace xq::test {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream s(text);
  for (std::string l; std::getline(s, l);) v.push_back(l);
  return v;
}

int count_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
  int n = 0;
  for (const std::string& l : lines) n += l.rfind(prefix, 0) == 0;
  return n;
}

TEST(EngineCli, APipedUciSessionEndsAtEndOfInputWithOneLegalBestMove) {
  RunLimits limits;
  limits.input = "uci\nisready\nsetoption name Threads value 2\nsetoption name Backend value ybwc\n"
                 "position startpos moves h2e2\nhello\ngo depth 3\n";
  const XqlabRun r = run_xqlab({"engine"}, limits);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(count_prefix(lines, "uciok"), 1);
  EXPECT_EQ(count_prefix(lines, "readyok"), 1);
  EXPECT_EQ(count_prefix(lines, "info string unknown command 'hello'"), 1);
  ASSERT_EQ(count_prefix(lines, "bestmove "), 1) << r.out;
  EXPECT_EQ(lines.back().rfind("bestmove ", 0), 0u);
  Position pos;
  pos.do_move(pos.parse_move("h2e2"));
  EXPECT_TRUE(MoveList(pos).contains(pos.parse_move(lines.back().substr(9, 4)))) << lines.back();
}

TEST(EngineCli, TheUciAliasAndTheBackendOptionsWork) {
  RunLimits limits;
  limits.input = "uci\nquit\n";
  const XqlabRun r = run_xqlab({"uci", "--backend", "pvsplit", "--threads", "2"}, limits);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("option name Backend type combo default pvsplit"), std::string::npos);
  EXPECT_NE(r.out.find("uciok"), std::string::npos);
}

TEST(EngineCli, ABadStartingOptionIsOneLineAndStatusTwo) {
  RunLimits limits;
  limits.input = "uci\n";
  expect_one_line_error(run_xqlab({"engine", "--backend", "nope"}, limits), "unknown backend");
  expect_one_line_error(run_xqlab({"engine", "--param", "min_split_depth=0"}, limits),
                        "parameter out of range");
}

// --tunables FILE sets the tunable parameters it names before the first
// command; the protocol's options show them; a bad file is one line.
TEST(EngineCli, AParametersFileSetsTheTunableOptions) {
  const std::string path = ::testing::TempDir() + "xqlab_tunables_" + std::to_string(::getpid());
  {
    std::ofstream(path) << "value_rook 650\nlmr_base 60\n";
  }
  RunLimits limits;
  limits.input = "uci\nisready\nposition startpos\ngo depth 3\n";
  const XqlabRun r = run_xqlab({"engine", "--tunables", path}, limits);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("option name value_rook type spin default 650 min 200 max 1500"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("option name lmr_base type spin default 60 min 0 max 200"),
            std::string::npos);
  EXPECT_EQ(count_prefix(lines_of(r.out), "bestmove "), 1) << r.out;
  {
    std::ofstream(path) << "value_rook 650\nvalue_rook 100\n";
  }
  expect_one_line_error(run_xqlab({"engine", "--tunables", path}, limits), "line 2");
  expect_one_line_error(run_xqlab({"engine", "--tunables", path + ".none"}, limits),
                        "cannot read");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace xq::test
