// Go/stop/wait cycles through the Engine for every registered backend at 2
// threads (ctest label `stress`, also run under ThreadSanitizer in CI):
//  * 200 mixed cycles: infinite searches stopped after a random short delay
//    or at once, short move times, small depths, positions changing between
//    searches; each ends with exactly one legal best move;
//  * 500 go-then-stop-at-once cycles: the stop races the search thread's
//    start and must never be lost (a lost stop leaves an infinite search
//    running, caught by the hang bound).
// Sizes are multiplied by the environment variable XQLAB_STRESS_SCALE.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/engine/engine_util.h"

namespace xq {
namespace {

using test::Collector;

int stress_scale() {
  const char* s = std::getenv("XQLAB_STRESS_SCALE");
  return std::max(1, s ? std::atoi(s) : 1);
}

class StressEngine : public ::testing::TestWithParam<std::string> {
 protected:
  Engine engine_{test::options_for(GetParam(), 2)};
};

// One cycle of kind k; returns whether it ended with one legal best move.
bool cycle(Engine& e, int kind, std::mt19937& rng) {
  Collector c;
  GoLimits g;
  switch (kind) {
    case 0: g.infinite = true; break;
    case 1: g.movetime_ms = 1 + std::int64_t(rng() % 5); break;
    case 2: g.depth = 1 + Depth(rng() % 3); break;
    default: g.infinite = true; break;
  }
  e.go(g, c.callbacks());
  if (kind == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 2000));
  if (kind == 0 || kind == 3) e.stop();
  const std::optional<SearchResult> r = c.result();
  e.wait();
  if (!r) return false;
  return c.bestmoves() == 1 && test::is_legal_in(e.position(), r->best_move);
}

TEST_P(StressEngine, GoStopWaitCycles) {
  std::mt19937 rng(12345);
  const std::vector<std::vector<std::string>> lines = {
      {}, {"h2e2"}, {"h2e2", "h9g7"}, {"b0c2", "h7e7", "h0g2"}};
  const int cycles = 200 * stress_scale();
  int ok = 0;
  for (int i = 0; i < cycles; ++i) {
    if (i % 10 == 0) engine_.set_position("startpos", lines[rng() % lines.size()]);
    if (cycle(engine_, int(rng() % 4), rng)) ++ok;
    else ADD_FAILURE() << "cycle " << i << " had no single legal best move";
  }
  EXPECT_EQ(ok, cycles);
}

TEST_P(StressEngine, StopRightAfterGoIsNeverLost) {
  engine_.set_position("startpos", {"h2e2"});
  const Position pos = engine_.position();
  const int iterations = 500 * stress_scale();
  int ok = 0, fallbacks = 0;
  for (int i = 0; i < iterations; ++i) {
    Collector c;
    engine_.go(test::infinite(), c.callbacks());
    engine_.stop();
    const std::optional<SearchResult> r = c.result();
    ASSERT_TRUE(r.has_value()) << "iteration " << i << ": the stop was lost";
    engine_.wait();
    EXPECT_TRUE(r->stopped) << i;
    if (test::is_legal_in(pos, r->best_move)) ++ok;
    if (r->depth == 0) {
      ++fallbacks;
      EXPECT_EQ(c.infos().size(), 1u) << i;  // the fallback is announced
    }
  }
  EXPECT_EQ(ok, iterations);
  std::printf("[ info ] %s: %d of %d searches stopped before depth 1\n", GetParam().c_str(),
              fallbacks, iterations);
}

INSTANTIATE_TEST_SUITE_P(Backends, StressEngine, ::testing::ValuesIn(backend_names()),
                         [](const auto& p) {
                           std::string name = p.param;  // letters, digits and '_' only
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace xq
