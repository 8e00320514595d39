// `xqlab lab --engine uci:COMMAND`: an external engine measured beside the
// backends on the same suite (lab/games/external_backend.h). The engines:
// xqlab's own `engine` command over UCI (it reports depth and nodes, so its
// figures can be checked against the in-process backend), script engines
// that report less or die, and Fairy-Stockfish when it is installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/run_xqlab.h"
#include "tests/support/script_engine.h"

namespace {

using xq::test::XqlabRun;

// Three positions: the start, a middlegame and an endgame.
std::string small_suite() {
  const std::string path = xq::test::temp_path("labengine", "suite.csv");
  std::ofstream(path)
      << "name,fen\n"
         "start,rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"
         "middle,r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4\n"
         "end,3k5/4a4/9/9/9/9/9/9/4A4/R3K4 w - - 0 1\n";
  return path;
}

// The start position alone.
std::string start_suite() {
  const std::string path = xq::test::temp_path("labengine", "start.csv");
  std::ofstream(path)
      << "name,fen\nstart,rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n";
  return path;
}

const nlohmann::json* row(const nlohmann::json& doc, const std::string& backend, int threads) {
  for (const nlohmann::json& r : doc.at("results"))
    if (r.at("backend") == backend && r.at("threads") == threads) return &r;
  return nullptr;
}

TEST(CliLabEngine, XqlabOverUciBesideItsOwnBackend) {
  // The engine's own backend option: ybwc, like the in-process configuration.
  const std::string engine = std::string("uci:") + XQLAB_BINARY + " engine,Backend=ybwc";
  const XqlabRun r = xq::test::run_xqlab({"lab", "--suite", small_suite(), "--backends", "ybwc",
                                          "--engine", engine, "--threads", "1,2", "--depth", "4",
                                          "--runs", "1", "--json", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json doc = r.json();
  const nlohmann::json* ybwc = row(doc, "ybwc", 1);
  const nlohmann::json* one = row(doc, engine, 1);
  const nlohmann::json* two = row(doc, engine, 2);
  ASSERT_TRUE(ybwc && one && two) << doc.dump().substr(0, 600);
  EXPECT_EQ(one->at("hash"), "own");
  // The engine at one thread searches what ybwc at one thread searches in
  // process (the same engine in its own process, a fresh table of the same
  // size): the same nodes to the same depth, position by position.
  EXPECT_EQ(one->at("nodes"), ybwc->at("nodes"));
  ASSERT_EQ(one->at("positions").size(), 3u);
  for (std::size_t p = 0; p < 3; ++p)
    EXPECT_EQ(one->at("positions")[p].at("nodes"), ybwc->at("positions")[p].at("nodes")) << p;
  // Its reference is itself at one thread: a speedup and an overhead exist.
  EXPECT_GT(two->at("speedup").get<double>(), 0);
  EXPECT_GT(two->at("search_overhead").get<double>(), 0);
  EXPECT_DOUBLE_EQ(one->at("speedup").get<double>(), 1.0);
  EXPECT_NE(r.err.find("reports depth up to 4; reports nodes"), std::string::npos) << r.err;
}

// It also burns CPU for a while before it answers: its CPU time (read from
// /proc in clock ticks, so a search of a few milliseconds would show none)
// is the lab's, though it is another process's.
TEST(CliLabEngine, AnEngineThatReportsNoNodesIsMeasuredByItsTime) {
  const std::string script = xq::test::script_engine(
      xq::test::temp_path("labengine", "quiet.sh"), "quiet",
      "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; "
      "echo 'info depth 3 score cp 12'; echo 'bestmove h2e2'");
  const XqlabRun r = xq::test::run_xqlab({"lab", "--suite", start_suite(), "--backends", "serial",
                                          "--engine", "uci:" + script, "--threads", "1",
                                          "--depth", "3", "--runs", "2", "--json", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json doc = r.json();
  const nlohmann::json* e = row(doc, "uci:" + script, 1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->at("nodes").get<double>(), 0);
  EXPECT_GT(e->at("seconds").get<double>(), 0.05);
  // Our own process's CPU alone would be a share near 0 (tried: 0.02).
  EXPECT_GT(e->at("cpu_share").get<double>(), 0.2) << e->dump();
  EXPECT_NE(r.err.find("reports NO nodes"), std::string::npos) << r.err;
}

TEST(CliLabEngine, BadEnginesAreOneLineAndStatus2) {
  const std::string suite = start_suite();
  int checked = 0;
  for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
           {"--engine", "uci:/nonexistent/engine"},
           {"--engine", "stockfish"},
           {"--engine", std::string("uci:") + XQLAB_BINARY + " engine,Threads=4"},
           {"--engine", std::string("uci:") + XQLAB_BINARY + " engine,hash=64"},
           {"--engine", std::string("uci:") + XQLAB_BINARY + " engine,depth=0"},
           {"--engine", std::string("uci:") + XQLAB_BINARY + " engine", "--simulate"}}) {
    std::vector<std::string> args{"lab", "--suite", suite, "--backends", "serial", "--depth", "2",
                                  "--runs", "1", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    const XqlabRun r = xq::test::run_xqlab(args);
    EXPECT_EQ(r.status, 2) << extra[1] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

// An engine that answers the handshake and dies at its first "go": the lab
// ends with one line naming it, and the journal keeps the searches that
// finished before (the serial reference searched the position first).
TEST(CliLabEngine, AnEngineThatDiesEndsTheLabInOneLineAndTheJournalKeepsTheRest) {
  const std::string script = xq::test::script_engine(
      xq::test::temp_path("labengine", "dies.sh"), "dies", "exit 3");
  const std::string journal = xq::test::temp_path("labengine", "dies.journal");
  std::remove(journal.c_str());
  const XqlabRun r = xq::test::run_xqlab({"lab", "--suite", start_suite(), "--backends", "serial",
                                          "--engine", "uci:" + script, "--threads", "1",
                                          "--depth", "3", "--runs", "1", "--quiet", "--journal",
                                          journal});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("crashed (exit status 3)"), std::string::npos) << r.err;
  const std::string kept = xq::test::read_file(journal);
  EXPECT_NE(kept.find("serial/xor/1t"), std::string::npos) << kept;
}

TEST(CliLabEngine, SlowFairyStockfishBesideTheBackends) {
  const std::string fairy = "/usr/games/fairy-stockfish";
  if (::access(fairy.c_str(), X_OK) != 0) GTEST_SKIP() << fairy << " is not installed";
  // Its own depth (depth=10), not xqlab's --depth.
  const std::string engine = "uci:" + fairy + ",depth=10";
  const XqlabRun r = xq::test::run_xqlab({"lab", "--suite", small_suite(), "--backends", "ybwc",
                                          "--engine", engine, "--threads", "1,2",
                                          "--depth", "4", "--runs", "1", "--json", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("reports depth up to 10; reports nodes"), std::string::npos) << r.err;
  const nlohmann::json doc = r.json();
  int rows = 0;
  for (int t : {1, 2}) {
    const nlohmann::json* e = row(doc, engine, t);
    ASSERT_TRUE(e) << t;
    EXPECT_GT(e->at("nodes").get<double>(), 0) << t;
    EXPECT_GT(e->at("speedup").get<double>(), 0) << t;
    for (const nlohmann::json& p : e->at("positions")) EXPECT_GT(p.at("nodes").get<double>(), 0);
    ++rows;
  }
  EXPECT_EQ(rows, 2);
}

}  // namespace
