// What the distributed backends' tests share (tests/parallel/dist_test.cpp
// over the loop wire, tests/mpi/mpi_test.cpp over MPI).
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "parallel/backend.h"
#include "tests/parallel/exact_grid.h"

namespace xq::test {

// One unlimited search of `pos` on `b`, stopped after `delay`: the stop is
// repeated until the search returns (a stop before the search has begun is
// a no-op). For the start/stop cycle tests.
inline SearchResult stopped_search(Backend& b, const Position& pos,
                                   std::chrono::microseconds delay) {
  SearchOptions o;  // no limit: only the stop ends it
  Observer quiet;
  SearchResult r;
  std::atomic<bool> done{false};
  std::thread t([&] {
    r = b.search(pos, o, quiet);
    done.store(true);
  });
  std::this_thread::sleep_for(delay);
  while (!done.load()) {
    b.stop();
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  t.join();
  return r;
}

// Searches the contract positions (and one random one) to depth 6 with the
// serial backend and with `one` (a backend of one rank of one thread),
// expects the same nodes, score and move, calls `also` on each of `one`'s
// results, and returns how many positions it compared.
inline int expect_serial_node_for_node(Backend& one,
                                       const std::function<void(const SearchResult&)>& also = {}) {
  BackendConfig c;
  c.hash_mib = 4;
  auto serial = make_backend("serial", c);
  SearchOptions o;
  o.limits.depth = 6;
  Observer quiet;
  int compared = 0;
  for (const Position& p : contract_positions(1)) {
    const SearchResult a = serial->search(p, o, quiet);
    const SearchResult b = one.search(p, o, quiet);
    EXPECT_EQ(a.stats.nodes, b.stats.nodes) << p.fen();
    EXPECT_EQ(a.score, b.score) << p.fen();
    EXPECT_EQ(a.best_move, b.best_move) << p.fen();
    if (also) also(b);
    ++compared;
  }
  return compared;
}

}  // namespace xq::test
