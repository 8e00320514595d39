// The backends whose threads share only the table: simplified ABDADA's
// busy-move side table, its deferrals and its marks (none may outlive a
// search), and Lazy SMP's skip schedules, window shifts and vote.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "board/movegen.h"
#include "hashing/schemes.h"
#include "parallel/backend.h"
#include "parallel/shared/busy_moves.h"
#include "parallel/shared/lazysmp.h"
#include "parallel/params.h"
#include "search/driver.h"
#include "tests/board/csv.h"
#include "search/coordination.h"

namespace xq {
namespace {

std::vector<Position> shared_openings(std::size_t n) {
  std::vector<Position> out;
  for (const test::CsvRecord& rec : test::read_csv(test::openings_csv_path())) {
    Position p;
    if (out.size() < n && p.set_fen(rec.at("fen")).empty()) out.push_back(p);
  }
  return out;
}

// ---------------------------------------------------------------- side table

TEST(BusyMoves, MarkLookupUnmark) {
  BusyMoves busy(1024, 4);
  const Position pos;
  const MoveList moves(pos);
  ASSERT_GE(moves.size, 2);
  const std::uint64_t a = BusyMoves::move_hash(pos.key(), moves.moves[0]);
  const std::uint64_t b = BusyMoves::move_hash(pos.key(), moves.moves[1]);
  EXPECT_NE(a, b);
  EXPECT_NE(a, BusyMoves::move_hash(pos.key() ^ 1, moves.moves[0]));
  EXPECT_FALSE(busy.marked(a));
  const long slot = busy.mark(a);
  ASSERT_GE(slot, 0);
  EXPECT_TRUE(busy.marked(a));
  EXPECT_FALSE(busy.marked(b));
  EXPECT_EQ(busy.count_marked(), 1u);
  EXPECT_FALSE(busy.unmark(slot, b));  // the slot holds a, not b: refused
  EXPECT_TRUE(busy.unmark(slot, a));
  EXPECT_FALSE(busy.marked(a));
  EXPECT_FALSE(busy.unmark(slot, a));  // freed twice: an underflow, reported
  EXPECT_EQ(busy.count_marked(), 0u);
}

// One bucket: every hash lands in it. Two threads searching one move hold
// a slot each; a fifth mark finds the bucket full and marks nothing.
TEST(BusyMoves, FullBucketRefusesAndFreedSlotIsReused) {
  BusyMoves busy(1, 4);
  std::vector<long> slots;
  for (std::uint64_t h : {11u, 22u, 22u, 33u}) slots.push_back(busy.mark(h));
  for (long s : slots) EXPECT_GE(s, 0);
  EXPECT_EQ(busy.count_marked(), 4u);
  EXPECT_EQ(busy.mark(44), -1);
  EXPECT_FALSE(busy.marked(44));
  EXPECT_TRUE(busy.unmark(slots[1], 22));
  EXPECT_TRUE(busy.marked(22));  // the other thread's mark of 22 stays
  EXPECT_EQ(busy.mark(44), slots[1]);
  EXPECT_TRUE(busy.marked(44));
  busy.clear();
  EXPECT_EQ(busy.count_marked(), 0u);
  EXPECT_THROW(BusyMoves(0, 4), std::invalid_argument);
  EXPECT_THROW(BusyMoves(8, 0), std::invalid_argument);
  EXPECT_THROW(BusyMoves(8, BusyMoves::kMaxWays + 1), std::invalid_argument);
}

// Threads marking and unmarking in a tiny table: every unmark finds its own
// mark, and nothing is left.
TEST(StressBusyMoves, ConcurrentMarksNeverLostOrLeaked) {
  BusyMoves busy(4, 2);
  std::atomic<std::uint64_t> underflows{0}, marks{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::uint64_t mine = 0, bad = 0;
      for (std::uint64_t i = 1; i <= 50000; ++i) {
        const std::uint64_t h = (i % 7 + 1) * 0x9E3779B97F4A7C15ULL + std::uint64_t(t);
        const long slot = busy.mark(h);
        if (slot < 0) continue;
        ++mine;
        if (!busy.marked(h)) ++bad;
        if (!busy.unmark(slot, h)) ++bad;
      }
      marks += mine;
      underflows += bad;
    });
  for (std::thread& t : threads) t.join();
  EXPECT_GT(marks.load(), 0u);
  EXPECT_EQ(underflows.load(), 0u);
  EXPECT_EQ(busy.count_marked(), 0u);
}

// ---------------------------------------------------------------- abdada-simple

std::unique_ptr<Backend> simple(int threads, const std::string& hash = "xor") {
  BackendConfig c;
  c.hash = hash;
  c.threads = threads;
  c.hash_mib = 4;
  return make_backend("abdada-simple", c);
}

// Depth 7 at 2 threads on real shared_openings: the threads meet at nodes of depth
// >= 3, so moves get deferred; every mark is gone after each search.
void expect_deferrals(int threads, Depth depth, std::size_t positions) {
  auto b = simple(threads);
  Observer quiet;
  SearchOptions o;
  o.limits.depth = depth;
  std::uint64_t deferrals = 0, deferred_searches = 0;
  std::size_t ran = 0;
  for (const Position& p : shared_openings(positions)) {
    const SearchResult r = b->search(p, o, quiet);
    EXPECT_EQ(r.depth, depth);
    EXPECT_EQ(r.stats[coordination::mark_leaks], 0u) << p.fen();
    EXPECT_EQ(r.stats[coordination::mark_underflows], 0u) << p.fen();
    EXPECT_GE(r.stats[coordination::busy_answers], r.stats[coordination::deferrals]);
    deferrals += r.stats[coordination::deferrals];
    deferred_searches += r.stats[coordination::deferred_searches];
    ++ran;
  }
  EXPECT_EQ(ran, positions);
  EXPECT_GT(deferrals, 0u) << threads << " threads";
  EXPECT_GT(deferred_searches, 0u) << threads << " threads";
}

TEST(AbdadaSimple, DefersAtTwoThreadsAndLeavesNoMark) { expect_deferrals(2, 7, 3); }

TEST(AbdadaSimple, OneThreadNeverDefers) {
  auto b = simple(1);
  Observer quiet;
  SearchOptions o;
  o.limits.depth = 6;
  const SearchResult r = b->search(shared_openings(1)[0], o, quiet);
  EXPECT_EQ(r.stats[coordination::deferrals], 0u);
  EXPECT_EQ(r.stats[coordination::busy_answers], 0u);
  EXPECT_EQ(r.stats[coordination::mark_leaks], 0u);
}

// A stop unwinds every thread through every node on its stack: no mark stays.
TEST(AbdadaSimple, StopLeavesNoMark) {
  auto b = simple(2);
  for (int i = 0; i < 3; ++i) {
    SearchOptions o;
    o.limits.movetime_ms = 30 + 20 * i;
    Observer quiet;
    const SearchResult r = b->search(Position(), o, quiet);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.stats[coordination::mark_leaks], 0u);
    EXPECT_EQ(r.stats[coordination::mark_underflows], 0u);
  }
}

TEST(AbdadaSimple, GeometryAndDepthsAreParameters) {
  BackendConfig c;
  set_param(c, "busy_entries=1");
  set_param(c, "busy_ways=2");
  set_param(c, "simple_mark_depth=5");
  set_param(c, "simple_reprobe_depth=6");
  EXPECT_EQ(c.param("busy_entries"), 1);
  EXPECT_EQ(c.param("busy_ways"), 2);
  EXPECT_EQ(c.param("simple_mark_depth"), 5);
  EXPECT_EQ(c.param("simple_reprobe_depth"), 6);
  EXPECT_THROW(set_param(c, "busy_ways=17"), std::invalid_argument);
  // A one-bucket table fills at once: searches stay exact and leave no mark.
  c.threads = 2;
  c.hash_mib = 4;
  c.set("simple_mark_depth", 3);
  auto b = make_backend("abdada-simple", c);
  Observer quiet;
  SearchOptions o;
  o.limits.depth = 5;
  EXPECT_EQ(b->search(Position(), o, quiet).stats[coordination::mark_leaks], 0u);
}

// Bounded for ThreadSanitizer: the deferral lane must not be vacuous.
TEST(StressAbdadaSimple, DefersAtTwoAndThreeThreadsAndLeavesNoMark) {
  expect_deferrals(2, 6, 2);
  expect_deferrals(3, 6, 2);
}

// ---------------------------------------------------------------- lazysmp

std::vector<Depth> searched_depths(lazysmp::Skip s, int thread) {
  std::vector<Depth> out;
  for (Depth d = 1; d <= 12; ++d)
    if (!lazysmp::skips(s, thread, d)) out.push_back(d);
  return out;
}

using Depths = std::vector<Depth>;

TEST(LazySmpSkips, Stockfish9Schedule) {
  using lazysmp::Skip;
  EXPECT_EQ(searched_depths(Skip::Sf9, 0), (Depths{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(searched_depths(Skip::Sf9, 1), (Depths{2, 4, 6, 8, 10, 12}));     // size 1, phase 0
  EXPECT_EQ(searched_depths(Skip::Sf9, 2), (Depths{1, 3, 5, 7, 9, 11}));      // size 1, phase 1
  EXPECT_EQ(searched_depths(Skip::Sf9, 3), (Depths{1, 4, 5, 8, 9, 12}));      // size 2, phase 0
  EXPECT_EQ(searched_depths(Skip::Sf9, 4), (Depths{3, 4, 7, 8, 11, 12}));     // size 2, phase 1
  EXPECT_EQ(searched_depths(Skip::Sf9, 7), (Depths{1, 2, 6, 7, 8, 12}));      // size 3, phase 0
  EXPECT_EQ(searched_depths(Skip::Sf9, 21), searched_depths(Skip::Sf9, 1));  // 20 rows, cyclic
}

TEST(LazySmpSkips, Stockfish7HalfDensityAndNone) {
  using lazysmp::Skip;
  EXPECT_EQ(searched_depths(Skip::Sf7, 0), (Depths{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(searched_depths(Skip::Sf7, 1), (Depths{2, 4, 6, 8, 10, 12}));  // {0, 1}
  EXPECT_EQ(searched_depths(Skip::Sf7, 2), (Depths{1, 3, 5, 7, 9, 11}));   // {1, 0}
  EXPECT_EQ(searched_depths(Skip::Sf7, 3), (Depths{1, 4, 5, 8, 9, 12}));   // {0, 0, 1, 1}
  EXPECT_EQ(searched_depths(Skip::Sf7, 7), (Depths{1, 2, 6, 7, 8, 12}));   // {0, 0, 0, 1, 1, 1}
  EXPECT_EQ(searched_depths(Skip::Sf7, 21), searched_depths(Skip::Sf7, 1));
  for (int t = 0; t < 5; ++t) EXPECT_EQ(searched_depths(Skip::None, t).size(), 12u);
}

TEST(LazySmpSkips, WindowShiftsAlternate) {
  EXPECT_EQ(lazysmp::window_shift(10, 0), 0);
  EXPECT_EQ(lazysmp::window_shift(10, 1), 10);
  EXPECT_EQ(lazysmp::window_shift(10, 2), -10);
  EXPECT_EQ(lazysmp::window_shift(10, 3), 20);
  EXPECT_EQ(lazysmp::window_shift(10, 4), -20);
  EXPECT_EQ(lazysmp::window_shift(0, 3), 0);
}

// The driver honours the schedule: a thread with id 3 under sf9 reports the
// iterations of depths 1, 4 and 5 only.
struct SkipHooks : SerialHooks {
  static constexpr bool kSkipsDepths = true;
  bool skip_depth(const Worker& w, Depth d) const {
    return lazysmp::skips(lazysmp::Skip::Sf9, w.id, d);
  }
};
struct DepthLog final : Observer {
  void on_iteration(const SearchResult& r) override { depths.push_back(r.depth); }
  Depths depths;
};

TEST(LazySmpSkips, DriverSearchesOnlyTheScheduledDepths) {
  XorTable tt;
  tt.configure(4, 4, Replacement::DepthPreferred);
  SkipHooks hooks;
  SearchShared shared;
  shared.options.limits.depth = 5;
  Search<XorTable, SkipHooks> search(tt, hooks, shared);
  auto w = std::make_unique<Worker>(3);
  w->pos = Position();
  DepthLog log;
  const SearchResult r = iterative_deepening(search, *w, shared, &log);
  EXPECT_EQ(log.depths, (Depths{1, 4, 5}));
  EXPECT_EQ(r.depth, 5);
}

// Lazy SMP's helpers are not bound by the depth limit (the main thread and
// the summed node count are): a helper deepens past it until stopped, here
// by a node limit, instead of idling while the main thread finishes.
struct HelperPastLimitHooks : SerialHooks {
  static constexpr bool kSkipsDepths = true;
  bool bound_by_depth_limit(const Worker& w) const { return w.id == 0; }
};

TEST(LazySmpSkips, OnlyTheMainThreadStopsAtTheDepthLimit) {
  int ran = 0;
  for (const int id : {0, 1}) {
    XorTable tt;
    tt.configure(4, 4, Replacement::DepthPreferred);
    HelperPastLimitHooks hooks;
    SearchShared shared;
    shared.options.limits.depth = 3;
    shared.options.limits.nodes = 200000;
    Search<XorTable, HelperPastLimitHooks> search(tt, hooks, shared);
    auto w = std::make_unique<Worker>(id);
    w->pos = Position();
    DepthLog log;
    iterative_deepening(search, *w, shared, &log);
    ASSERT_FALSE(log.depths.empty());
    if (id == 0) {
      EXPECT_EQ(log.depths.back(), 3);
    } else {
      EXPECT_GT(log.depths.back(), 3);
    }
    ++ran;
  }
  EXPECT_EQ(ran, 2);
}

TEST(LazySmpVote, WeightedByScoreMarginAndDepth) {
  const Position pos;
  const MoveList moves(pos);
  const Move a = moves.moves[0], b = moves.moves[1];
  // min 10: a gets 14 x 8 = 112, b gets 54 x 8 + 44 x 7 = 740.
  EXPECT_EQ(lazysmp::vote({{a, 10, 8}, {b, 50, 8}, {b, 40, 7}}), 1u);
  // The same scores, but b's threads shallow: a 14 x 12 = 168 > b 54 + 44 = 98.
  EXPECT_EQ(lazysmp::vote({{a, 10, 12}, {b, 50, 1}, {b, 40, 1}}), 0u);
  // A tie keeps the main thread.
  EXPECT_EQ(lazysmp::vote({{a, 10, 5}, {b, 10, 5}}), 0u);
  // A proven mate wins outright; a thread that sees itself mated never wins.
  EXPECT_EQ(lazysmp::vote({{a, 100, 10}, {b, mate_in(5), 3}}), 1u);
  EXPECT_EQ(lazysmp::vote({{a, mate_in(7), 9}, {b, mate_in(5), 3}, {a, mate_in(9), 9}}), 1u);
  EXPECT_EQ(lazysmp::vote({{a, 0, 1}, {b, mated_in(4), 30}, {b, mated_in(4), 30}}), 0u);
  // Threads without a completed iteration do not vote.
  EXPECT_EQ(lazysmp::vote({{a, 0, 0}, {b, 5, 3}}), 1u);
  EXPECT_EQ(lazysmp::vote({{a, 0, 0}, {b, 5, 0}}), 0u);
}

TEST(LazySmp, ParametersAndVotingSearch) {
  BackendConfig c;
  set_param(c, "skip_schedule=sf7");
  set_param(c, "window_offset=15");
  set_param(c, "best_thread=vote");
  EXPECT_EQ(c.param("skip_schedule"), 1);
  EXPECT_EQ(c.param("window_offset"), 15);
  EXPECT_TRUE(c.param("best_thread"));
  EXPECT_THROW(set_param(c, "skip_schedule=sf8"), std::invalid_argument);
  c.threads = 2;
  c.hash_mib = 4;
  auto b = make_backend("lazysmp", c);
  SearchOptions o;
  o.limits.movetime_ms = 100;
  Observer quiet;
  const Position root = shared_openings(1)[0];
  const SearchResult r = b->search(root, o, quiet);
  EXPECT_TRUE(r.completed);
  Position p = root;
  ASSERT_TRUE(p.is_pseudo_legal(r.best_move) && p.is_legal(r.best_move));
}

}  // namespace
}  // namespace xq
