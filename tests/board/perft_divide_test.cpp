// Perft with progress (board/perft_divide.h): the divide sums, and a stop
// flag ends the count between root moves and inside a subtree.
#include "board/perft_divide.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace {

TEST(LabPerft, DivideSumsAndStopsWhenAsked) {
  std::atomic<bool> stop{false};
  int calls = 0;
  const xq::PerftResult r =
      xq::perft_divide(xq::Position(), 3, stop, [&](const xq::PerftResult&) { ++calls; });
  EXPECT_EQ(r.nodes, 79666u);
  EXPECT_EQ(calls, 44);
  EXPECT_FALSE(r.interrupted);
  // Stopped from the callback after the second root move.
  const xq::PerftResult s = xq::perft_divide(
      xq::Position(), 5, stop, [&](const xq::PerftResult& p) {
        if (p.divide.size() == 2) stop = true;
      });
  EXPECT_TRUE(s.interrupted);
  EXPECT_EQ(s.divide.size(), 2u);
}

// A stop inside a root move's subtree (minutes of work at depth 9) ends the
// count without finishing that move.
TEST(LabPerft, StopReachesInsideASubtree) {
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
  const xq::PerftResult r = xq::perft_divide(xq::Position(), 9, stop, nullptr);
  stopper.join();
  EXPECT_TRUE(r.interrupted);
  EXPECT_TRUE(r.divide.empty());
  EXPECT_EQ(r.root_moves, 44);
}

}  // namespace
