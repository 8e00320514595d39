// pvsplit and ybwc against the serial backend: in exact mode (DESIGN.md §4)
// each with its default scheme (every scheme: the FullGrid suite, label
// `full`) at 1..4 threads must return the serial alpha-beta value. Low
// split depths make the split machinery (joins, nested split points, aborts)
// run thousands of times per search. Plus stop and many short searches.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <ostream>
#include <future>
#include <random>
#include <string>
#include <thread>

#include "board/movegen.h"
#include "hashing/schemes.h"
#include "parallel/backend.h"
#include "tests/parallel/exact_grid.h"
#include "parallel/split/split_counters.h"

namespace xq {
namespace {

std::vector<Position> suite(int randoms) { return test::split_grid_positions(randoms); }

SearchOptions exact(Depth depth, Algorithm a = Algorithm::Pvs) {
  SearchOptions o;
  o.exact = true;
  o.algorithm = a;
  o.limits.depth = depth;
  return o;
}

std::vector<Value> serial_values(const std::vector<Position>& ps, const SearchOptions& o) {
  BackendConfig c;
  auto b = make_backend("serial", c);
  Observer quiet;
  std::vector<Value> out;
  for (const Position& p : ps) {
    b->clear();
    out.push_back(b->search(p, o, quiet).score);
  }
  return out;
}

struct Case {
  std::string backend;
  std::string scheme;
  int threads;
};

// Names the case in test listings (GoogleTest would print the bytes).
void PrintTo(const Case& k, std::ostream* os) {
  *os << k.backend << "/" << k.scheme << "/" << k.threads << "t";
}

void check_exact(const Case& k, const std::vector<Position>& ps, const SearchOptions& o,
                 const std::vector<Value>& expected, Depth min_split) {
  BackendConfig c;
  c.hash = k.scheme;
  c.threads = k.threads;
  c.hash_mib = 4;
  c.set("min_split_depth", min_split);
  auto b = make_backend(k.backend, c);
  Observer quiet;
  std::uint64_t splits = 0;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const SearchResult r = b->search(ps[i], o, quiet);
    splits += r.stats.splits;
    EXPECT_EQ(r.score, expected[i]) << k.backend << "/" << k.scheme << "/" << k.threads
                                    << " depth " << o.limits.depth << " " << ps[i].fen();
    EXPECT_FALSE(r.stopped);
  }
  if (k.threads > 1) {
    EXPECT_GT(splits, 0u) << k.backend << "/" << k.scheme << "/" << k.threads;
  }
}

class ParallelExact : public ::testing::TestWithParam<Case> {};

TEST_P(ParallelExact, EqualsSerialAtDepth4) {
  static const std::vector<Position> ps = suite(8);
  check_exact(GetParam(), ps, exact(4), test::serial_values(ps, 4), 2);
}

TEST_P(ParallelExact, SlowEqualsSerialAtDepth5) {
  static const std::vector<Position> ps = suite(24);
  check_exact(GetParam(), ps, exact(5), test::serial_values(ps, 5), 3);
}

// The two split backends at 1..4 threads, each with its default scheme
// (the other schemes run under the contract suite's reference backends,
// tests/parallel/backend_contract_test.cpp) or, for the full grid, with
// every scheme it runs on.
std::vector<Case> cases(bool every_scheme) {
  std::vector<Case> v;
  for (const char* b : {"pvsplit", "ybwc"}) {
    std::vector<std::string> schemes = {std::string(find_backend(b).default_hash)};
    if (every_scheme) schemes.assign(kSchemeNames.begin(), kSchemeNames.end());
    for (const std::string& s : schemes)
      if (find_backend(b).supports(s))
        for (int t = 1; t <= 4; ++t) v.push_back({b, s, t});
  }
  return v;
}

std::string case_name(const ::testing::TestParamInfo<Case>& p) {
  return p.param.backend + "_" + p.param.scheme + "_" + std::to_string(p.param.threads);
}

INSTANTIATE_TEST_SUITE_P(All, ParallelExact, ::testing::ValuesIn(cases(false)), case_name);

// Every scheme (label `full`, `.ci/run --full`).
class FullGridParallelExact : public ::testing::TestWithParam<Case> {};

TEST_P(FullGridParallelExact, EqualsSerialAtDepth4) {
  static const std::vector<Position> ps = suite(8);
  check_exact(GetParam(), ps, exact(4), test::serial_values(ps, 4), 2);
}

TEST_P(FullGridParallelExact, EqualsSerialAtDepth5) {
  static const std::vector<Position> ps = suite(24);
  check_exact(GetParam(), ps, exact(5), test::serial_values(ps, 5), 3);
}

INSTANTIATE_TEST_SUITE_P(All, FullGridParallelExact, ::testing::ValuesIn(cases(true)),
                         case_name);

TEST(PvsplitYbwc, SlowAlphaBetaAndMtdfEqualSerial) {
  const auto ps = suite(4);
  for (Algorithm a : {Algorithm::AlphaBeta, Algorithm::Mtdf}) {
    const SearchOptions o = exact(4, a);
    const auto expected = serial_values(ps, o);
    for (const char* b : {"pvsplit", "ybwc"})
      for (int t : {2, 3}) check_exact({b, "xor", t}, ps, o, expected, 2);
  }
}

// How fast a stop ends a search is a benchmark figure (bench_split's
// BM_StopLatency); a test on a loaded 2-core machine can only tell "ended"
// from "hangs".
constexpr double kSplitNoHangMs = 5000.0;

TEST(PvsplitYbwc, StopEndsAnUnlimitedSearch) {
  for (const char* name : {"pvsplit", "ybwc"}) {
    for (int t : {1, 2, 4}) {
      BackendConfig c;
      c.threads = t;
      auto b = make_backend(name, c);
      SearchOptions o;  // no limit
      Observer quiet;
      auto fut = std::async(std::launch::async, [&] { return b->search(Position(), o, quiet); });
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      const auto t0 = std::chrono::steady_clock::now();
      b->stop();
      const SearchResult r = fut.get();
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      EXPECT_TRUE(r.stopped) << name << " " << t;
      EXPECT_TRUE(bool(r.best_move)) << name << " " << t;
      EXPECT_LT(ms, kSplitNoHangMs) << name << " " << t;
    }
  }
}

TEST(PvsplitYbwc, ManyShortSearches) {
  for (const char* name : {"pvsplit", "ybwc"}) {
    BackendConfig c;
    c.threads = 3;
    c.set("min_split_depth", 2);
    auto b = make_backend(name, c);
    Observer quiet;
    std::uint64_t splits = 0;
    for (int i = 0; i < 100; ++i) {
      SearchOptions o;
      o.limits.depth = 1 + i % 4;
      const SearchResult r = b->search(Position(), o, quiet);
      EXPECT_TRUE(bool(r.best_move));
      EXPECT_EQ(r.depth, o.limits.depth);
      splits += r.stats.splits;
    }
    EXPECT_GT(splits, 0u) << name;
  }
}

// Work W and critical path C on the split pool (pool.h, Thread::crit_extra)
// and in pvsplit's regions (PvState::crit_extra): at one thread nothing
// splits and C is every node; at two, C is the nodes outside split points'
// (regions') moves plus each one's longest move, so 0 < C < W once anything
// split.
TEST(SplitPool, SlowWorkAndCriticalPath) {
  int searched = 0;
  for (const char* name : {"pvsplit", "ybwc", "dts"}) {
    for (int threads : {1, 2}) {
      BackendConfig c;
      c.threads = threads;
      c.set("min_split_depth", 2);
      auto b = make_backend(name, c);
      Observer quiet;
      for (const Position& p : suite(2)) {
        SearchOptions o;
        o.limits.depth = 6;
        const SearchStats s = b->search(p, o, quiet).stats;
        EXPECT_GT(s.critical_path, 0u) << name << " " << p.fen();
        if (s.splits == 0) {
          EXPECT_EQ(s.critical_path, s.nodes) << name << " " << threads << "t " << p.fen();
        } else {
          EXPECT_LT(s.critical_path, s.nodes) << name << " " << p.fen();
        }
        if (threads == 1) {
          EXPECT_EQ(s.splits, 0u);
        }
        // pvsplit's schedule bound: at least the critical path (a region
        // takes at least its longest move), at most all the work.
        if (std::string(name) == "pvsplit") {
          EXPECT_GE(s[pvsplit::schedule_bound], s.critical_path) << p.fen();
          EXPECT_LE(s[pvsplit::schedule_bound], s.nodes) << p.fen();
          if (s.splits == 0) {
            EXPECT_EQ(s[pvsplit::schedule_bound], s.nodes) << p.fen();
          }
        } else {
          EXPECT_EQ(s[pvsplit::schedule_bound], 0u) << name;
        }
        ++searched;
      }
    }
  }
  EXPECT_EQ(searched, int(3 * 2 * suite(2).size()));
}

}  // namespace
}  // namespace xq
