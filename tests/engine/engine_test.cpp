// The Engine facade: positions and move history, go/stop/wait semantics, the
// always-a-best-move rule, is_ready during a search, and thread misuse.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/engine/engine_util.h"

namespace xq {
namespace {

using test::Collector;

// Runs one search to its best move; fails the test on a hang.
SearchResult run(Engine& e, const GoLimits& limits, Collector& c) {
  e.go(limits, c.callbacks());
  const std::optional<SearchResult> r = c.result();
  EXPECT_TRUE(r.has_value()) << "no best move within the hang bound";
  e.wait();
  return r.value_or(SearchResult{});
}

std::string error_of(Engine& e, std::string_view fen, const std::vector<std::string>& moves) {
  try {
    e.set_position(fen, moves);
  } catch (const std::invalid_argument& ex) {
    return ex.what();
  }
  return "";
}

TEST(EnginePosition, MovesAreAppliedInOrder) {
  Engine e;
  e.set_position("startpos", {"h2e2", "h9g7", "h0g2"});
  Position expected;
  for (const char* m : {"h2e2", "h9g7", "h0g2"}) expected.do_move(expected.parse_move(m));
  EXPECT_EQ(e.position().fen(), expected.fen());
  EXPECT_EQ(e.moves().size(), 3u);
  EXPECT_EQ(e.position().game_ply(), 3);
}

TEST(EnginePosition, BadInputIsRefusedAndNothingIsHalfApplied) {
  Engine e;
  e.set_position("startpos", {"h2e2"});
  const std::string before = e.position().fen();
  struct Case {
    std::vector<std::string> moves;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {{"h9g7"}, "move 1 'h9g7' is illegal"},              // Black's move, Red to play
      {{"h2e2", "h2h9"}, "move 2 'h2h9' is illegal"},      // from an empty square
      {{"h0g2", "a9a5"}, "move 2 'a9a5' is illegal"},      // rook through a pawn
      {{"h2e2", "h9g7", "e0e9"}, "move 3 'e0e9' is illegal"},
      {{"h2e"}, "move 1 'h2e' is not a move in ICCS notation"},
      {{"z9z8"}, "move 1 'z9z8' is not a move in ICCS notation"},
      {{"h0g2", "h9g7x"}, "move 2 'h9g7x' is not a move in ICCS notation"},
      {{"h0g2", ""}, "move 2 '' is not a move in ICCS notation"},
      {{"\x1b[2J"}, "'\\x1b[2J'"},  // control bytes are escaped
  };
  int ran = 0;
  for (const Case& c : cases) {
    const std::string err = error_of(e, "startpos", c.moves);
    EXPECT_NE(err.find(c.expect), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
    EXPECT_EQ(e.position().fen(), before);
    EXPECT_EQ(e.moves().size(), 1u);
    ++ran;
  }
  EXPECT_EQ(ran, 9);
  EXPECT_NE(error_of(e, "rnbakabnr/9/9 w - - 0 1", {}).find("bad FEN"), std::string::npos);
  const std::string hostile = std::string(kStartFen) + std::string(60000, '7') + "\x1b[2J";
  const std::string fen_error = error_of(e, hostile, {});
  EXPECT_EQ(fen_error.rfind("bad FEN", 0), 0u) << fen_error;
  EXPECT_LE(fen_error.size(), 200u);
  EXPECT_EQ(fen_error.find('\x1b'), std::string::npos);
  EXPECT_NE(error_of(e, "startpos", std::vector<std::string>(2000, "h2e2")).find("too many moves"),
            std::string::npos);
  EXPECT_EQ(e.position().fen(), before);
}

TEST(EnginePosition, NewGameResetsToTheStart) {
  Engine e;
  e.set_position("startpos", {"h2e2", "h9g7"});
  e.new_game();
  EXPECT_EQ(e.position().fen(), Position().fen());
  EXPECT_TRUE(e.moves().empty());
}

TEST(EngineSearch, DepthLimitedSearchReportsEveryIteration) {
  Engine e;
  e.set_position("startpos", {"h2e2"});
  Collector c;
  const SearchResult r = run(e, test::to_depth(4), c);
  EXPECT_EQ(r.depth, 4);
  EXPECT_FALSE(r.stopped);
  EXPECT_TRUE(test::is_legal_in(e.position(), r.best_move));
  EXPECT_EQ(c.iterations(), (std::vector<Depth>{1, 2, 3, 4}));
  EXPECT_EQ(c.bestmoves(), 1);
}

TEST(EngineSearch, AStopAfterAFinishedSearchDoesNotReachTheNext) {
  Engine e;
  Collector first;
  run(e, test::to_depth(2), first);
  e.stop();  // nothing runs: must be a no-op
  e.stop();
  Collector second;
  const SearchResult r = run(e, test::to_depth(4), second);
  EXPECT_EQ(r.depth, 4);
  EXPECT_FALSE(r.stopped);
}

TEST(EngineSearch, MoveTimeSearchReturnsALegalMove) {
  Engine e;
  GoLimits g;
  g.movetime_ms = 100;
  Collector c;
  const SearchResult r = run(e, g, c);
  EXPECT_TRUE(test::is_legal_in(e.position(), r.best_move));
}

TEST(EngineSearch, ClockSearchReturnsALegalMove) {
  Engine e;
  e.set_position("startpos", {"h2e2"});  // black to move: black's clock applies
  GoLimits g;
  g.red = GameClock{0, 0, 0};  // would give the 1 ms floor if it were used
  g.black = GameClock{3000, 0, 0};
  Collector c;
  const SearchResult r = run(e, g, c);
  EXPECT_TRUE(test::is_legal_in(e.position(), r.best_move));
}

// A protocol sends "go" only after "bestmove"; a go that comes early waits
// for the running search instead of disturbing it.
TEST(EngineSearch, GoDuringASearchWaitsForItsBestMove) {
  Engine e;
  Collector first, second;
  e.go(test::infinite(), first.callbacks());
  std::atomic<bool> second_started{false};
  std::thread protocol([&] {
    e.go(test::to_depth(2), second.callbacks());
    second_started.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(second.bestmoves(), 0);
  e.stop();  // ends the first search only
  const std::optional<SearchResult> r1 = first.result();
  const std::optional<SearchResult> r2 = second.result();
  protocol.join();
  e.wait();
  ASSERT_TRUE(r1.has_value() && r2.has_value());
  EXPECT_TRUE(second_started.load());
  EXPECT_TRUE(r1->stopped);
  EXPECT_FALSE(r2->stopped);
  EXPECT_EQ(r2->depth, 2);
  EXPECT_EQ(first.bestmoves() + second.bestmoves(), 2);
}

TEST(EngineSearch, IsReadyAnswersDuringAnInfiniteSearch) {
  Engine e;
  Collector c;
  e.go(test::infinite(), c.callbacks());
  for (int i = 0; i < 100; ++i) e.is_ready();
  EXPECT_TRUE(e.searching());  // only stop() ends an infinite search
  EXPECT_EQ(c.bestmoves(), 0);
  e.stop();
  const std::optional<SearchResult> r = c.result();
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->stopped);
  EXPECT_TRUE(test::is_legal_in(e.position(), r->best_move));
  e.wait();
  EXPECT_FALSE(e.searching());
}

// Stalemating move: Black is left with no legal move (a loss in Xiangqi).
TEST(EngineSearch, NoLegalMoveGivesNoneAndSaysSo) {
  Engine e;
  e.set_position("2R2aH2/4ak2C/9/9/9/9/9/9/3K5/9 w - - 0 1", {"c9c8"});
  Collector c;
  const SearchResult r = run(e, test::to_depth(3), c);
  EXPECT_FALSE(r.best_move);
  ASSERT_EQ(c.infos().size(), 1u);
  EXPECT_NE(c.infos()[0].find("no legal move"), std::string::npos);
}

TEST(EngineSearch, NoIterationCompletedFallsBackToALegalMove) {
  Engine e;
  e.set_position("startpos", {"h2e2"});
  GoLimits g;
  g.nodes = 1;  // ends inside the first iteration
  Collector c;
  const SearchResult r = run(e, g, c);
  EXPECT_TRUE(test::is_legal_in(e.position(), r.best_move));
  if (r.depth == 0) {
    ASSERT_EQ(c.infos().size(), 1u);
    EXPECT_NE(c.infos()[0].find("no iteration completed"), std::string::npos);
  } else {
    EXPECT_TRUE(c.infos().empty());
  }
}

TEST(EngineSearch, BadLimitsAreRefused) {
  Engine e;
  GoLimits g;
  g.depth = -1;
  Collector c;
  EXPECT_THROW(e.go(g, c.callbacks()), std::invalid_argument);
  g.depth = kMaxDepth + 1;
  EXPECT_THROW(e.go(g, c.callbacks()), std::invalid_argument);
  g.depth = 0;
  g.movetime_ms = -5;
  EXPECT_THROW(e.go(g, c.callbacks()), std::invalid_argument);
  EXPECT_FALSE(e.searching());
}

TEST(EngineSearch, GoAndWaitFromACallbackAreRefused) {
  Engine e;
  std::atomic<int> refused{0};
  Collector c;
  SearchCallbacks cb = c.callbacks();
  auto deliver = cb.on_bestmove;
  cb.on_bestmove = [&](const SearchResult& r) {
    try {
      e.go(test::to_depth(1), {});
    } catch (const std::logic_error&) {
      ++refused;
    }
    try {
      e.wait();
    } catch (const std::logic_error&) {
      ++refused;
    }
    deliver(r);
  };
  e.go(test::to_depth(2), cb);
  ASSERT_TRUE(c.result().has_value());
  e.wait();
  EXPECT_EQ(refused.load(), 2);
}

TEST(EngineSearch, DestructorStopsAnInfiniteSearchAndDeliversItsBestMove) {
  Collector c;
  {
    Engine e(test::options_for("ybwc", 2));
    e.go(test::infinite(), c.callbacks());
  }
  const std::optional<SearchResult> r = c.result();
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(test::is_legal_in(Position(), r->best_move));
  EXPECT_EQ(c.bestmoves(), 1);
}

}  // namespace
}  // namespace xq
