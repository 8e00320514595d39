// A real GUI plays the engine: XBoard, headless under Xvfb, runs two games
// of `xqlab engine` against Fairy-Stockfish at 6 s + 0.1 s and writes the
// PGN. Skipped, with the reason, when xboard, xvfb-run or fairy-stockfish is
// absent (scripts/deps.sh installs them).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <regex>
#include <string>

#include "tests/support/run_xqlab.h"

namespace xq::test {
namespace {

std::string find_program(const std::string& name) {
  for (const char* dir : {"/usr/games", "/usr/bin", "/usr/local/bin", "/usr/local/games"}) {
    const std::string path = std::string(dir) + "/" + name;
    if (::access(path.c_str(), X_OK) == 0) return path;
  }
  return "";
}

TEST(XboardMatchSlow, TwoGamesAgainstFairyStockfishEndWithoutForfeitOrIllegalMove) {
  const std::string xboard = find_program("xboard"), xvfb = find_program("xvfb-run"),
                    fairy = find_program("fairy-stockfish");
  if (xboard.empty()) GTEST_SKIP() << "xboard is not installed (scripts/deps.sh)";
  if (xvfb.empty()) GTEST_SKIP() << "xvfb-run is not installed (package xvfb, scripts/deps.sh)";
  if (fairy.empty()) GTEST_SKIP() << "fairy-stockfish is not installed (scripts/deps.sh)";
  const std::string dir = ::testing::TempDir() + "xqlab_xboard_" + std::to_string(::getpid());
  ASSERT_EQ(std::system(("mkdir -p " + shell_quote(dir + "/home")).c_str()), 0);
  const std::string pgn = dir + "/games.pgn", debug = dir + "/xboard.debug";
  // XBoard hangs on some fatal errors: always under timeout -k.
  const std::string cmd =
      "cd " + shell_quote(dir) + " && HOME=" + shell_quote(dir + "/home") +
      " timeout -k 10 400 " + shell_quote(xvfb) + " -a -s '-screen 0 1024x768x24' " +
      shell_quote(xboard) + " -noGUI -variant xiangqi -fcp " +
      shell_quote(shell_quote(XQLAB_BINARY) + " engine") + " -fd " + shell_quote(dir) +
      " -fn xqlab -scp " + shell_quote(fairy) + " -sd " + shell_quote(dir) +
      " -sn Fairy-Stockfish -mg 2 -tc 0:06 -inc 0.1 -xponder -autoflag -matchPause 1000 -sgf " +
      shell_quote(pgn) + " -debug -debugfile " + shell_quote(debug) +
      " -xexit -saveSettingsOnExit false -soundProgram '' >" + shell_quote(dir + "/xboard.log") +
      " 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string games = read_file(pgn);
  const std::string log = read_file(dir + "/xboard.log");
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "xboard failed or timed out; log: " << log.substr(0, 2000);
  const std::regex result_tag(R"re(\[Result "(1-0|0-1|1/2-1/2)"\])re");
  const auto results = std::distance(std::sregex_iterator(games.begin(), games.end(), result_tag),
                                     std::sregex_iterator());
  EXPECT_EQ(results, 2) << games;
  EXPECT_EQ(games.find("[Result \"*\"]"), std::string::npos) << games;
  for (const char* bad : {"Forfeit", "nvalid move", "llegal move", "on time", "time forfeit"})
    EXPECT_EQ(games.find(bad), std::string::npos) << bad << " in\n" << games;
  EXPECT_EQ(log.find("Illegal move"), std::string::npos) << log;
  EXPECT_EQ(std::system(("rm -rf " + shell_quote(dir)).c_str()), 0);
}

}  // namespace
}  // namespace xq::test
