// Engines that differ only in tunable parameters (search/tunables.h): an
// xqlab spec with evaluation weights plays in a child process (`xqlab
// engine`), one with search constants only in this process; bad parameters
// are the spec's one-line error; a match between the two plays whole games.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "board/position.h"
#include "lab/games/player.h"
#include "tests/support/files.h"
#include "tests/support/run_xqlab.h"

namespace xq::lab::games {
namespace {

using namespace std::chrono_literals;

MoveReply move_at_depth(Player& p, int depth) {
  MoveRequest req;
  req.fen = "startpos";
  req.depth = depth;
  return p.think(req, std::chrono::steady_clock::now() + 60s, 5s);
}

TEST(TunedPlayer, EvalWeightsPlayInAChildProcessSearchConstantsInThisOne) {
  set_engine_binary(XQLAB_BINARY);
  int checked = 0;
  for (const auto& [spec, child] : std::vector<std::pair<std::string, bool>>{
           {"xqlab:value_rook=700,name=rook700", true},
           {"xqlab:backend=ybwc,threads=2,psq_pawn=150", true},
           {"xqlab:lmr_base=60,profile=modern", false},
           {"xqlab", false}}) {
    const std::unique_ptr<Player> p = make_player(spec);
    ASSERT_EQ(p->new_game(), "") << spec;
    const MoveReply r = move_at_depth(*p, 3);
    ASSERT_EQ(r.status, MoveReply::Status::Move) << spec << ": " << r.detail;
    Position pos;
    EXPECT_TRUE(pos.parse_move(r.move)) << spec << " played " << r.move;
    EXPECT_EQ(p->cpu_seconds() >= 0, child) << spec;
    ++checked;
  }
  EXPECT_EQ(checked, 4);
  EXPECT_EQ(make_player("xqlab:value_rook=700,name=rook700")->name(), "rook700");
  EXPECT_EQ(make_player("xqlab:backend=ybwc,threads=2,psq_pawn=150")->name(),
            "xqlab-ybwc-2t-tuned");
}

// The tuners set each game's vector by options on engines they keep: a
// child-process engine takes evaluation weights, an in-process one refuses
// them (they are its whole process's) and takes search constants.
TEST(TunedPlayer, OptionsBetweenGamesReachTheEngine) {
  set_engine_binary(XQLAB_BINARY);
  const std::unique_ptr<Player> child = make_player("xqlab:value_rook=600,name=child");
  child->set_options({{"value_rook", "700"}, {"lmr_base", "60"}});
  ASSERT_EQ(child->new_game(), "");
  EXPECT_EQ(move_at_depth(*child, 3).status, MoveReply::Status::Move);
  const std::unique_ptr<Player> here = make_player("xqlab:name=here");
  EXPECT_THROW(here->set_options({{"value_rook", "700"}}), std::invalid_argument);
  EXPECT_THROW(here->set_options({{"lmr_base", "999"}}), std::invalid_argument);
  here->set_options({{"lmr_base", "60"}, {"profile", "modern"}});
  ASSERT_EQ(here->new_game(), "");
  EXPECT_EQ(move_at_depth(*here, 3).status, MoveReply::Status::Move);
}

TEST(TunedPlayer, AParametersFileSetsEveryValueItNames) {
  set_engine_binary(XQLAB_BINARY);
  const std::string path = xq::test::temp_path("tuned", "tuned.txt");
  std::ofstream(path) << "# tuned\nvalue_rook 650\nmobility_horse 5\n";
  const std::unique_ptr<Player> p = make_player("xqlab:tunables=" + path + ",name=file");
  ASSERT_EQ(p->new_game(), "");
  EXPECT_EQ(move_at_depth(*p, 2).status, MoveReply::Status::Move);
  EXPECT_GE(p->cpu_seconds(), 0);  // a child process
}

TEST(TunedPlayer, BadParametersAreTheSpecsOneLineError) {
  set_engine_binary(XQLAB_BINARY);
  const std::string bad_file = xq::test::temp_path("tuned", "bad.txt");
  std::ofstream(bad_file) << "value_rook 650\nvalue_rook 651\n";
  int checked = 0;
  for (const auto& [spec, says] : std::vector<std::pair<std::string, std::string>>{
           {"xqlab:value_rook=100", "value_rook"},
           {"xqlab:value_rook=x", "value_rook"},
           {"xqlab:lmr_base=999", "lmr_base"},
           {"xqlab:tunables=/nonexistent/t.txt", "cannot read"},
           {"xqlab:tunables=" + bad_file, "line 2"}}) {
    try {
      make_player(spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(says), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

TEST(TunedPlayer, AMatchBetweenDefaultsAndTunedWeightsPlaysWholeGames) {
  const auto r = test::run_xqlab({"match", "--engine", "xqlab", "--engine",
                                  "xqlab:value_pawn=45,name=pawn45", "--depth", "2", "--games",
                                  "2", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = r.json();
  const auto& p = j["match"]["pairings"][0];
  EXPECT_EQ(p["b"], "pawn45");
  EXPECT_EQ(p["wins"].get<int>() + p["draws"].get<int>() + p["losses"].get<int>(), 2);
  EXPECT_EQ(p["forfeits"], 0);
}

}  // namespace
}  // namespace xq::lab::games
