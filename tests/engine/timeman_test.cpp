// The time manager's limits for sample clocks, worked out by hand from the
// formula documented in search/timeman.h (left = time - overhead, usable =
// left - min(left/2, 3 inc), horizon 30 or min(movestogo, 50), target =
// usable / horizon + inc, soft = min(target/2, usable/4), hard = min(2 target,
// usable/2), both at least 1 and hard >= soft).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "search/timeman.h"

namespace xq {
namespace {

struct ClockCase {
  GameClock clock;
  std::int64_t overhead;
  TimeBudget expected;
  const char* why;
};

const std::vector<ClockCase> kClockCases = {
    // left 59990, target 59990/30 = 1999 -> soft 999, hard 3998
    {{60000, 0, 0}, 10, {999, 3998}, "sudden death, one minute"},
    // left 299950, usable 299950 - 6000, target 293950/40 + 2000 = 9348
    // -> soft 4674, hard 18696
    {{300000, 2000, 40}, 50, {4674, 18696}, "40 moves in 5 minutes plus 2 s"},
    // left 120000, horizon capped at 50: target 2400 -> soft 1200, hard 4800
    {{120000, 0, 100}, 0, {1200, 4800}, "movestogo beyond the horizon cap"},
    // last move before the control: target 10000 -> soft left/4, hard left/2
    {{10000, 0, 1}, 0, {2500, 5000}, "movestogo 1 keeps half the clock"},
    // increment larger than the clock: half kept back, usable 500, target
    // 16 + 5000 -> capped by usable/4, usable/2
    {{1000, 5000, 0}, 0, {125, 250}, "increment larger than the time left"},
    // the overhead eats the clock: left 0 -> the 1 ms floor
    {{5, 0, 0}, 10, {1, 1}, "less time than the overhead"},
    // a negative clock (a GUI reporting a flag fall) counts as 0
    {{-500, 100, 0}, 0, {1, 1}, "negative time left"},
    // negative overhead and movestogo count as 0: left 3000, target 100 + 0
    {{3000, 0, -5}, -20, {50, 200}, "negative overhead and movestogo"},
    // clamped to 2^40: target 2^40/30 = 36650387592
    {{std::int64_t(1) << 62, 0, 0}, 0, {18325193796, 73300775184}, "absurd clock is clamped"},
};

TEST(TimeManager, ClockBudgetsFollowTheDocumentedFormula) {
  int ran = 0;
  for (const ClockCase& c : kClockCases) {
    EXPECT_EQ(budget_for_clock(c.clock, c.overhead), c.expected)
        << c.why << ": got soft " << budget_for_clock(c.clock, c.overhead).soft_ms << " hard "
        << budget_for_clock(c.clock, c.overhead).hard_ms;
    ++ran;
  }
  EXPECT_EQ(ran, 9);
}

TEST(TimeManager, FixedMoveTimeIsSpentWholeMinusOverhead) {
  EXPECT_EQ(budget_for_movetime(100, 10), (TimeBudget{90, 90}));
  EXPECT_EQ(budget_for_movetime(100, 0), (TimeBudget{100, 100}));
  EXPECT_EQ(budget_for_movetime(5, 10), (TimeBudget{1, 1}));
  EXPECT_EQ(budget_for_movetime(-3, 0), (TimeBudget{1, 1}));
}

// The guarantees the engine relies on, over a grid of clocks: both limits
// positive (0 would mean "no limit"), soft <= hard, and the hard limit never
// spends more than half of what the clock holds after the overhead.
TEST(TimeManager, LimitsArePositiveOrderedAndSafeOverAGrid) {
  const std::int64_t times[] = {0, 1, 7, 100, 999, 5000, 60000, 3600000};
  const std::int64_t incs[] = {0, 1, 500, 10000};
  const int mtgs[] = {0, 1, 2, 40, 1000};
  const std::int64_t overheads[] = {0, 10, 1000};
  int ran = 0;
  for (auto t : times)
    for (auto inc : incs)
      for (int mtg : mtgs)
        for (auto ovh : overheads) {
          const TimeBudget b = budget_for_clock({t, inc, mtg}, ovh);
          const std::int64_t left = std::max<std::int64_t>(0, t - ovh);
          EXPECT_GE(b.soft_ms, 1);
          EXPECT_LE(b.soft_ms, b.hard_ms);
          EXPECT_LE(b.hard_ms, std::max<std::int64_t>(1, left / 2))
              << t << " " << inc << " " << mtg << " " << ovh;
          ++ran;
        }
  EXPECT_EQ(ran, 8 * 4 * 5 * 3);
}

// The worst case of a game with an increment: every move spends its whole
// hard limit. The clock must settle at several increments, not at the one
// increment that a stall of a few hundred ms turns into a loss on time.
TEST(TimeManager, HardLimitMovesKeepSeveralIncrementsOnTheClock) {
  struct Tc {
    std::int64_t base, inc;
  };
  const Tc tcs[] = {{1000, 100}, {10000, 100}, {3000, 1000}, {60000, 500}};
  int ran = 0;
  for (const Tc tc : tcs) {
    std::int64_t clock = tc.base;
    for (int move = 0; move < 300; ++move) {
      const TimeBudget b = budget_for_clock({clock, tc.inc, 0}, 10);
      clock += tc.inc - b.hard_ms;
      ASSERT_GE(clock, 3 * tc.inc) << tc.base << "+" << tc.inc << " move " << move;
      ++ran;
    }
  }
  EXPECT_EQ(ran, 4 * 300);
}

TEST(TimeManager, ApplyBudgetSetsTheSoftAndHardLimits) {
  Limits limits;
  limits.depth = 7;
  apply_budget(TimeBudget{120, 480}, limits);
  EXPECT_EQ(limits.soft_ms, 120);
  EXPECT_EQ(limits.movetime_ms, 480);
  EXPECT_EQ(limits.depth, 7);
}

// Best-move stability's factor, worked out from the formula in
// search/timeman.h: changes = changes / 2 + (best move changed), drop = mean
// of the earlier scores - this score in [0, 240], factor = (0.9 + 0.9 x
// changes) x (1 + drop / 480).
TEST(TimeManager, StabilityStretchesTheSoftLimitForChangesAndFallingScores) {
  const Move a(Square(0), Square(9)), b(Square(1), Square(10));
  struct Step {
    Move best;
    Value score;
    double factor;
  };
  struct Case {
    std::vector<Step> steps;
    const char* why;
  };
  const std::vector<Case> cases = {
      {{{a, 10, 0.9}, {a, 12, 0.9}, {a, 14, 0.9}}, "a steady best move keeps 0.9"},
      {{{a, 10, 0.9}, {b, 10, 1.8}, {b, 10, 1.35}, {b, 10, 1.125}}, "one change decays by half"},
      {{{a, 0, 0.9}, {b, 0, 1.8}, {a, 0, 2.25}, {b, 0, 2.475}}, "changes that keep coming add up"},
      {{{a, 100, 0.9}, {a, 100, 0.9}, {a, -20, 0.9 * 1.25}}, "a score 120 below the mean"},
      {{{a, 100, 0.9}, {a, -400, 0.9 * 1.5}}, "a fall beyond two chess pawns is capped"},
      {{{a, -100, 0.9}, {a, 300, 0.9}}, "a rising score does not stretch"},
      {{{a, 100, 0.9}, {b, -140, 1.8 * 1.5}}, "both at once multiply"},
  };
  int ran = 0;
  for (const Case& c : cases) {
    SoftLimitScale scale;
    for (const Step& s : c.steps) {
      scale.update(s.best, s.score);
      EXPECT_NEAR(scale.factor(), s.factor, 1e-9) << c.why;
      ++ran;
    }
  }
  EXPECT_EQ(ran, 20);
  SoftLimitScale forced(true);
  forced.update(a, 0);
  EXPECT_EQ(forced.factor(), 0) << "a forced move is played after one iteration";
}

// The formula is constexpr, so a protocol can precompute it too.
static_assert(budget_for_clock({60000, 0, 0}, 10) == TimeBudget{999, 3998});

}  // namespace
}  // namespace xq
