// `xqlab evolve` and `xqlab spsa` end to end: an interrupted run resumed
// from its checkpoint ends where an uninterrupted run of the same seed ends
// (fixed-depth games); the games in parallel change nothing but the time;
// the tuned vector is a parameters file the engine reads; bad input is one
// line and status 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "search/tunables.h"
#include "tests/support/files.h"
#include "tests/support/run_xqlab.h"

namespace xq::test {
namespace {

std::string temp(const std::string& name) { return temp_path("tuning", name); }

// The run's document without what a clock measures.
nlohmann::json without_times(nlohmann::json j) {
  for (const char* k : {"seconds", "cpu_seconds"}) j.erase(k);
  if (j.contains("history"))
    for (auto& h : j["history"])
      for (const char* k : {"seconds", "cpu_seconds"}) h.erase(k);
  return j;
}

struct Tuner {
  std::string command;
  std::vector<std::string> args;
  std::string key;  // of the JSON document
};

std::vector<Tuner> tuners() {
  // Evaluation weights: every engine in a child process.
  return {{"evolve",
           {"--params", "value_rook,value_horse,value_pawn,mobility_horse", "--population", "4",
            "--rounds", "1", "--depth", "2", "--seed", "5"},
           "evolve"},
          {"spsa",
           {"--params", "value_rook,value_cannon,psq_pawn", "--pairs", "2", "--depth", "2",
            "--seed", "5", "--c-end", "0.1", "--r-end", "0.05"},
           "spsa"}};
}

TEST(TuningCliSlow, AnInterruptedRunResumesToTheUninterruptedResult) {
  int checked = 0;
  for (const Tuner& t : tuners()) {
    const std::string steps = t.command == "evolve" ? "--generations" : "--iterations";
    const std::string whole = temp(t.command + "_whole.json"), cut = temp(t.command + "_cut.json");
    const std::string saved = temp(t.command + "_tuned.txt");
    std::remove(whole.c_str());
    std::remove(cut.c_str());
    std::vector<std::string> base = {t.command};
    base.insert(base.end(), t.args.begin(), t.args.end());
    base = with(base, {steps, "12", "--json"});
    const XqlabRun a =
        run_xqlab(with(base, {"--checkpoint", whole, "--threads", "2", "--save", saved}));
    ASSERT_EQ(a.status, 0) << a.err;
    // SIGINT once the checkpoint exists: the run stops after the games
    // under way, keeps its last whole step, and says so.
    RunLimits limits;
    limits.interrupt_after_first_line = true;
    limits.interrupt_file = cut;
    const XqlabRun b = run_xqlab(with(base, {"--checkpoint", cut, "--threads", "1"}), limits);
    EXPECT_EQ(b.status, 130) << t.command << " finished before the interrupt: " << b.err;
    EXPECT_NE(b.err.find("--resume"), std::string::npos) << b.err;
    const XqlabRun c =
        run_xqlab(with(base, {"--checkpoint", cut, "--threads", "2", "--resume"}));
    ASSERT_EQ(c.status, 0) << c.err;
    const auto ja = a.json()[t.key], jc = c.json()[t.key];
    EXPECT_EQ(without_times(ja), without_times(jc)) << t.command;
    // The saved vector is a parameters file that the engine takes.
    const Tunables tuned = load_tunables(saved);
    RunLimits engine;
    engine.input = "uci\nisready\ngo depth 2\n";
    const XqlabRun e = run_xqlab({"engine", "--tunables", saved}, engine);
    EXPECT_EQ(e.status, 0) << e.err;
    EXPECT_NE(e.out.find("bestmove"), std::string::npos);
    EXPECT_NE(tunables_diff(tuned), "") << t.command << " saved the defaults";
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

TEST(TuningCli, BadInputIsOneLineAndStatus2) {
  const std::string existing = temp("existing.json");
  { std::ofstream(existing) << "{\"kind\":\"evolve\"}\n"; }
  int checked = 0;
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"evolve", "--population", "5", "--checkpoint", temp("p5.json")}, "even"},
           {{"evolve", "--params", "value_queen", "--checkpoint", temp("q.json")}, "value_queen"},
           {{"evolve", "--resume", "--checkpoint", temp("none.json")}, "no checkpoint"},
           {{"evolve", "--checkpoint", existing}, "exists"},
           {{"evolve", "--resume", "--checkpoint", existing}, "checkpoint"},
           {{"spsa", "--depth", "2", "--tc", "1+0.1", "--checkpoint", temp("t.json")}, "one of"},
           {{"spsa", "--openings", temp("nosuch.csv"), "--checkpoint", temp("o.json")}, "nosuch"}}) {
    expect_one_line_error(run_xqlab(args), says);
    ++checked;
  }
  EXPECT_EQ(checked, 7);
}

}  // namespace
}  // namespace xq::test
