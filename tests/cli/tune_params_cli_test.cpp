// `--params FILE` on the commands that build a backend, `xqlab tune` as a
// user runs it (a small space, saved and read back), and the lab's time
// accounting and CPU keys.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/run_xqlab.h"

namespace {

using nlohmann::json;
using xq::test::count_lines;
using xq::test::XqlabRun;

using xq::test::xqlab;

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "xqlab_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CliParamsFile, GoodFileIsAppliedAndParamOverridesIt) {
  const std::string f = temp_file("good.params",
                                  "# a comment\n\nmin_split_depth=3\r\n  max_splits_per_thread=5\n");
  const XqlabRun r = xqlab({"search", "--fen", "startpos", "--depth", "2", "--backend", "ybwc",
                            "--threads", "2", "--params", f, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json().at("params").at("min_split_depth"), 3);
  EXPECT_EQ(r.json().at("params").at("max_splits_per_thread"), 5);
  const XqlabRun o = xqlab({"search", "--fen", "startpos", "--depth", "2", "--backend", "ybwc",
                            "--param", "min_split_depth=6", "--params", f, "--json"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.json().at("params").at("min_split_depth"), 6);
  EXPECT_EQ(o.json().at("params").at("max_splits_per_thread"), 5);
  std::remove(f.c_str());
}

TEST(CliParamsFile, BadFileIsOneLineAndStatus2) {
  const std::string bad_value = temp_file("bad1.params", "min_split_depth=2\nmin_split_depth=0\n");
  const std::string bad_name = temp_file("bad2.params", "no_such_param=1\n");
  const std::string no_eq = temp_file("bad3.params", "min_split_depth\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {bad_value, ":2:"}, {bad_name, ":1:"}, {no_eq, ":1:"},
      {::testing::TempDir() + "no_such_dir/x.params", "cannot read"}};
  int ran = 0;
  for (const auto& [path, expect] : cases)
    for (const char* cmd : {"search", "lab"}) {
      std::vector<std::string> args{cmd, "--params", path};
      if (std::string(cmd) == "search") args.insert(args.end(), {"--fen", "startpos"});
      const XqlabRun r = xqlab(args);
      EXPECT_EQ(r.status, 2) << cmd << " " << path;
      EXPECT_EQ(count_lines(r.err), 1) << r.err;
      EXPECT_NE(r.err.find(expect), std::string::npos) << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
      ++ran;
    }
  EXPECT_EQ(ran, 8);
  for (const std::string& f : {bad_value, bad_name, no_eq}) std::remove(f.c_str());
}

TEST(CliTune, SmallSpaceSavesAFileThatReadsBack) {
  const std::string save = ::testing::TempDir() + "xqlab_tune_" + std::to_string(::getpid());
  const XqlabRun r = xqlab({"tune", "--backend", "ybwc", "--threads", "2", "--depth", "3",
                            "--runs", "2", "--space", "min_split_depth=2,4", "--save", save,
                            "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json t = r.json().at("tune");
  ASSERT_EQ(t.at("candidates").size(), 2u);
  EXPECT_EQ(t.at("candidates")[0].at("default"), true);
  for (const char* key : {"time_ratio", "ci", "faster", "slower", "sign_p", "better"})
    EXPECT_TRUE(t.at("candidates")[1].contains(key)) << key;
  EXPECT_TRUE(r.json().contains("meta"));
  const std::string text = xq::test::read_file(save);
  EXPECT_NE(text.find("min_split_depth="), std::string::npos) << text;
  const XqlabRun back = xqlab({"search", "--fen", "startpos", "--depth", "2", "--backend", "ybwc",
                               "--params", save, "--json"});
  EXPECT_EQ(back.status, 0) << back.err;
  std::remove(save.c_str());
}

// On the simulated machine: labelled SIMULATED, every search journalled,
// and a resumed tune gives the same figures (a simulation's figures do not
// depend on the host). The default made poor on purpose (no split point at
// depth 4 with min_split_depth=8), so that the winner is clear and is
// confirmed deeper.
TEST(CliTune, SimulatedTuneIsLabelledJournalledResumedAndConfirmed) {
  const std::string journal =
      ::testing::TempDir() + "xqlab_simtune_" + std::to_string(::getpid()) + ".journal";
  const std::vector<std::string> args{"tune", "--simulate", "--backend", "ybwc", "--threads", "8",
                                      "--depth", "4", "--runs", "2", "--param",
                                      "min_split_depth=8", "--space", "min_split_depth=8,2",
                                      "--confirm-depth", "5", "--journal", journal, "--json"};
  const XqlabRun r = xqlab(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j.at("mode"), "simulated");
  EXPECT_TRUE(j.at("simulation").is_object());
  const json t = j.at("tune");
  ASSERT_EQ(t.at("candidates").size(), 2u);
  EXPECT_EQ(t.at("decided"), true) << r.out;
  ASSERT_TRUE(j.at("confirm").is_object()) << r.out;
  EXPECT_EQ(j.at("confirm").at("depth"), 5);
  EXPECT_EQ(j.at("confirm").at("params"), t.at("best"));
  EXPECT_EQ(j.at("confirm").at("better"), true) << r.out;
  // The journal: a settings line, then one line per search (2 candidates x
  // 2 runs x the suite's positions).
  const std::size_t lines = std::size_t(count_lines(xq::test::read_file(journal)));
  EXPECT_GT(lines, 4u);
  EXPECT_EQ((lines - 1) % 4, 0u) << lines;
  std::vector<std::string> again = args;
  again.push_back("--resume");
  const XqlabRun back = xqlab(again);
  ASSERT_EQ(back.status, 0) << back.err;
  EXPECT_NE(back.err.find("already done"), std::string::npos) << back.err;
  const json bt = back.json().at("tune");
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_EQ(bt.at("candidates")[i].at("seconds"), t.at("candidates")[i].at("seconds")) << i;
  EXPECT_EQ(back.json().at("confirm").at("time_ratio"), j.at("confirm").at("time_ratio"));
  std::remove(journal.c_str());
  std::remove((journal + ".confirm").c_str());
}

// A simulated tune tries one axis and at most 12 candidates; the confirming
// depth is deeper than the tune's. Each refusal is one line and status 2.
TEST(CliTune, SimulatedTuneRefusesTwoAxesTooManyCandidatesAndAShallowConfirmation) {
  const std::vector<std::vector<std::string>> cases = {
      {"--space", "min_split_depth=2,4", "--space", "max_splits_per_thread=4,8"},
      {"--space", "min_split_depth=1,2,3,4,5,6,7,8,9,10,11,12,13"},
      {},
      {"--space", "min_split_depth=2,4", "--confirm-depth", "3"}};
  const char* expect[] = {"one axis", "at most 12", "one axis", "deeper"};
  int ran = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<std::string> args{"tune", "--simulate", "--backend", "ybwc", "--threads", "16",
                                  "--depth", "3", "--runs", "1"};
    args.insert(args.end(), cases[i].begin(), cases[i].end());
    const XqlabRun r = xqlab(args);
    EXPECT_EQ(r.status, 2) << i;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(expect[i]), std::string::npos) << r.err;
    ++ran;
  }
  EXPECT_EQ(ran, 4);
}

TEST(CliTune, BadSpaceIsOneLineAndStatus2) {
  int ran = 0;
  for (const char* space : {"min_split_depth=0", "omp_schedule=static", "nope=1", "min_split_depth"}) {
    const XqlabRun r = xqlab({"tune", "--backend", "ybwc", "--depth", "1", "--runs", "1",
                              "--space", space});
    EXPECT_EQ(r.status, 2) << space;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    ++ran;
  }
  EXPECT_EQ(ran, 4);
}

TEST(CliLabTime, SplitBackendsReportTimeLossAndCpu) {
  const XqlabRun r = xqlab({"lab", "--depth", "3", "--runs", "1", "--threads", "2", "--backends",
                            "serial,ybwc,pvsplit", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  int split_rows = 0;
  const json j = r.json();
  for (const json& row : j.at("results")) {
    for (const char* key : {"runs", "cpu_share", "contested"}) EXPECT_TRUE(row.contains(key)) << key;
    for (const json& run : row.at("runs"))
      for (const char* key : {"cpu_seconds", "cpu_share", "load_average", "contested"})
        EXPECT_TRUE(run.contains(key)) << key;
    if (row.at("backend") == "serial") {
      EXPECT_FALSE(row.contains("loss"));  // not measured: absent, not zero
      continue;
    }
    ++split_rows;
    ASSERT_TRUE(row.contains("time")) << row.dump();
    const json& t = row.at("time");
    const double all = t.at("search").get<double>() + t.at("idle").get<double>() +
                       t.at("lock").get<double>() + t.at("copy").get<double>();
    EXPECT_GT(t.at("search").get<double>(), 0.0);
    // The parts cover the thread time: 2 threads x the summed wall time.
    EXPECT_NEAR(all, 2 * row.at("seconds").get<double>(), 0.25 * all + 0.01);
    const json& l = row.at("loss");
    const double lost = l.at("idle").get<double>() + l.at("sync").get<double>() +
                        l.at("overhead").get<double>();
    // S = p (1 - loss) with summed times; one run: the median is the sum.
    EXPECT_NEAR(row.at("speedup").get<double>(), 2 * (1 - lost), 1e-6);
  }
  EXPECT_EQ(split_rows, 2);
}

}  // namespace
