// What the distributed backends' tests share (tests/parallel/dist_test.cpp
// over the loop wire, tests/mpi/mpi_test.cpp over MPI).
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "parallel/backend.h"
#include "parallel/params.h"
#include "tests/parallel/exact_grid.h"
#include "parallel/distributed/wire_counters.h"

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

// A distributed backend over the loop wire: `ranks` ranks of `threads`
// threads, a 4 MiB table of `scheme`, and the given NAME=VALUE parameters.
inline std::unique_ptr<Backend> loop_cluster(const std::string& backend, int ranks, int threads,
                                             const std::string& scheme,
                                             const std::vector<std::string>& params) {
  BackendConfig c;
  c.hash = scheme;
  c.threads = threads;
  c.hash_mib = 4;
  set_param(c, "ranks=" + std::to_string(ranks));
  for (const std::string& p : params) set_param(c, p);
  return make_backend(backend, c);
}

// A search of the start position to `depth`, unobserved.
inline SearchResult search_start_to(Backend& b, Depth depth) {
  SearchOptions o;
  o.limits.depth = depth;
  Observer quiet;
  return b.search(Position(), o, quiet);
}

// Every message of the search was received (sums over the ranks).
inline void expect_balanced(const SearchStats& s, const std::string& what) {
  EXPECT_EQ(s[dist::msgs_sent], s[dist::msgs_received]) << what;
  EXPECT_EQ(s[dist::bytes_sent], s[dist::bytes_received]) << what;
}

// Exact mode at 1-4 ranks x 1-2 threads (`make(ranks, threads)`) on the
// contract positions: the serial value at depth 4, every search drained;
// `also` sees each result. Returns the searches made.
inline int expect_exact_at_one_to_four_ranks(
    const std::function<std::unique_ptr<Backend>(int, int)>& make,
    const std::function<void(int, int, const SearchResult&)>& also = {}) {
  const std::vector<Position> ps = contract_positions(2);
  const std::vector<Value>& expected = serial_values(ps, 4);
  int searched = 0;
  for (int ranks = 1; ranks <= 4; ++ranks)
    for (int threads = 1; threads <= 2; ++threads) {
      auto b = make(ranks, threads);
      Observer quiet;
      for (std::size_t i = 0; i < ps.size(); ++i) {
        const SearchResult r = b->search(ps[i], exact_options(4), quiet);
        const std::string what =
            std::to_string(ranks) + "x" + std::to_string(threads) + " " + ps[i].fen();
        EXPECT_EQ(r.score, expected[i]) << what;
        EXPECT_EQ(r.depth, 4) << what;
        expect_balanced(r.stats, what);
        if (also) also(ranks, threads, r);
        ++searched;
      }
    }
  EXPECT_EQ(searched, 8 * int(ps.size()));
  return searched;
}

// A node limit of 600,000 on a backend of 3 ranks: rank 0 stops on the
// cluster's count (the others report once per tick), before its own count
// reaches the limit.
inline void expect_node_limit_binds_every_rank(Backend& three_ranks) {
  SearchOptions o;
  o.limits.nodes = 600000;
  Observer quiet;
  const SearchResult r = three_ranks.search(Position(), o, quiet);
  EXPECT_TRUE(r.stopped);
  EXPECT_GE(r.stats.nodes, o.limits.nodes);
  ASSERT_EQ(r.ranks.size(), 3u);
  EXPECT_LT(r.ranks[0].nodes, o.limits.nodes);
  expect_balanced(r.stats, "node limit");
}

// 200 searches stopped after 0-800 us at 2, 3 and 4 ranks (`make(ranks)`),
// each ending drained. Returns the cycles run.
inline int expect_cycles_end_drained(const std::function<std::unique_ptr<Backend>(int)>& make) {
  int cycles = 0;
  for (int ranks : {2, 3, 4}) {
    auto b = make(ranks);
    for (int i = 0; i < 200; ++i) {
      const SearchResult r =
          stopped_search(*b, Position(), std::chrono::microseconds(200 * (i % 5)));
      expect_balanced(r.stats, std::to_string(ranks) + " ranks, cycle " + std::to_string(i));
      ++cycles;
    }
  }
  return cycles;
}

}  // namespace xq::test
