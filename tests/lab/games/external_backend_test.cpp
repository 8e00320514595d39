// An external engine behind the Backend interface (lab/games/external_backend.h):
// a stop ends its search (here `xqlab engine` over UCI searching without a
// depth limit that it would reach), and the result is the engine's best move
// so far, marked stopped; the backend can search again afterwards.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "board/position.h"
#include "lab/games/external_backend.h"

namespace xq::lab::games {
namespace {

using namespace std::chrono_literals;

const std::string kEngine = std::string("uci:") + XQLAB_BINARY + " engine";

TEST(ExternalBackend, StopEndsADeepSearchWithALegalMove) {
  BackendConfig c;
  c.threads = 1;
  c.hash_mib = 4;
  auto b = make_external_backend(kEngine, c);
  Position start;
  SearchOptions o;
  o.limits.depth = 60;  // far beyond what it reaches in seconds
  Observer quiet;
  auto searching = std::async(std::launch::async, [&] { return b->search(start, o, quiet); });
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(searching.wait_for(0ms), std::future_status::timeout) << "it ended by itself";
  b->stop();
  // Bounded, not timed: a stop that never arrived would wait for depth 60.
  ASSERT_EQ(searching.wait_for(30s), std::future_status::ready) << "the stop did not end it";
  const SearchResult r = searching.get();
  EXPECT_TRUE(r.stopped);
  EXPECT_TRUE(start.is_legal(r.best_move)) << move_name(r.best_move);
  EXPECT_GT(r.stats.nodes, 0u);
  // The next search runs to its depth.
  o.limits.depth = 3;
  const SearchResult again = b->search(start, o, quiet);
  EXPECT_FALSE(again.stopped);
  EXPECT_EQ(again.depth, 3);
}

TEST(ExternalBackend, TheSearchOptionsStopSignalEndsItToo) {
  BackendConfig c;
  auto b = make_external_backend(kEngine, c);
  Position start;
  std::atomic<bool> stop{false};
  SearchOptions o;
  o.limits.depth = 60;
  o.stop_signal = &stop;
  Observer quiet;
  auto searching = std::async(std::launch::async, [&] { return b->search(start, o, quiet); });
  std::this_thread::sleep_for(300ms);
  stop.store(true);
  ASSERT_EQ(searching.wait_for(30s), std::future_status::ready) << "the stop signal did not end it";
  EXPECT_TRUE(searching.get().stopped);
}

}  // namespace
}  // namespace xq::lab::games
