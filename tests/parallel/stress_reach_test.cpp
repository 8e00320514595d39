// How far the parallel machinery reaches, asserted. This suite carries the
// `stress` label, which CI runs under ThreadSanitizer too, so every path of
// the split machinery must actually run in it: each (backend, scheme) pair
// searches at min_split_depth (jamboree: task_depth) 2 with 3 threads, in exact mode (values
// compared with the serial reference) and with everything on (table cutoffs,
// null move, aspiration), and the summed counters must reach the lower
// bounds the backend declares in its own file (BackendInfo::expect: splits,
// joins, aborts, nested joins, helpful-master joins, busy answers, stolen
// tasks, leaves, entries received ...). A suite that stopped splitting
// would fail here, not pass quietly; a new backend states its bounds where
// it lives and this file does not change. Sizes are bounded for TSan (XQLAB_STRESS_SCALE
// multiplies them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "hashing/schemes.h"
#include "parallel/backend.h"
#include "tests/parallel/axes.h"
#include "tests/support/positions.h"
#include "tests/support/sanitizers.h"
#include "parallel/distributed/wire_counters.h"

namespace xq {
namespace {

int stress_scale() {
  const char* s = std::getenv("XQLAB_STRESS_SCALE");
  return std::max(1, s ? std::atoi(s) : 1);
}

// Under ThreadSanitizer a search runs some 20 times slower, and helpers,
// slowed too, join far more of the split points (a quarter instead of a
// few per cent): fewer positions reach the bounds there. Without it the
// positions are cheap, and more of them keep a busy machine, whose
// descheduled helpers join less, above the bounds.
constexpr int kRandomPositions = test::kThreadSanitized ? 2 : 6;

// The start position and positions after random playouts of 10-30 plies.
std::vector<Position> reach_positions(int randoms) {
  std::vector<Position> out = {Position()};
  for (const Position& p : test::random_positions(randoms, 7, 10, 21)) out.push_back(p);
  return out;
}

// W / C, where the backend reports a critical path (0 otherwise).
double parallelism(const SearchStats& s) {
  return s.critical_path ? double(s.nodes) / double(s.critical_path) : 0.0;
}

// A counter of `s` by its name (for_each_counter), as a whole number.
std::uint64_t counter(const SearchStats& s, std::string_view name) {
  std::uint64_t value = 0;
  bool found = false;
  for_each_counter(s, [&](std::string_view n, const auto& c) {
    if (n == name) {
      value = std::uint64_t(c.load());
      found = true;
    }
  });
  EXPECT_TRUE(found) << "a reach floor names '" << name << "', which SearchStats has not";
  return value;
}

// The lower bounds each backend declares (BackendInfo::expect, in its own
// file): what its searches must have exercised, summed over the suite.
const BackendExpectations& expected(const std::string& backend) {
  return find_backend(backend).expect;
}

void expect_reach(const std::string& backend, const std::string& scheme, const SearchStats& s) {
  const BackendExpectations& e = expected(backend);
  const std::string pair = backend + "/" + scheme;
  std::string seen;
  for (const CounterFloor& f : e.reach)
    seen += " " + std::string(f.counter) + " " + std::to_string(counter(s, f.counter));
  std::printf("[ reach    ] %-20s%s W/C %.2f\n", pair.c_str(), seen.c_str(), parallelism(s));
  for (const CounterFloor& f : e.reach)
    EXPECT_GE(counter(s, f.counter), f.at_least) << pair << ": " << f.counter;
  if (e.reach_parallelism > 0) {
    EXPECT_GE(parallelism(s), e.reach_parallelism) << pair;
  }
  EXPECT_EQ(s[dist::msgs_sent], s[dist::msgs_received]) << pair;
  EXPECT_EQ(s[dist::bytes_sent], s[dist::bytes_received]) << pair;
}

// Whether every bound holds (expect_reach asserts them one by one).
bool reached(const std::string& backend, const SearchStats& s) {
  const BackendExpectations& e = expected(backend);
  for (const CounterFloor& f : e.reach)
    if (counter(s, f.counter) < f.at_least) return false;
  return e.reach_parallelism <= 0 || parallelism(s) >= e.reach_parallelism;
}

struct Pair {
  std::string backend;
  std::string scheme;
};

// The backends that declare reach bounds: every parallel backend but those
// whose threads meet in the table alone (their reach, deferrals and marks,
// is asserted by the Stress suites of shared_table_test.cpp); the serial
// backend runs one thread, so it can neither split nor race.
std::vector<std::string> reach_backends() {
  std::vector<std::string> out;
  for (const BackendInfo& b : backends())
    if (!b.expect.reach.empty() || b.expect.reach_parallelism > 0) out.emplace_back(b.name);
  return out;
}

TEST(ReachDeclarations, EveryBackendThatSplitsMarksOrSharesDeclaresBounds) {
  int declared = 0;
  for (const BackendInfo& b : backends()) {
    const bool bounds = !b.expect.reach.empty() || b.expect.reach_parallelism > 0;
    // A backend whose threads split, share the root or search leaves has a
    // counter that shows it: it must say how far it must reach. (Of the
    // backends that meet on busy marks, abdada-simple's marks live in a side
    // table whose reach the shared-table suites assert.)
    if (b.sharing == Sharing::Splits || b.sharing == Sharing::Root ||
        b.sharing == Sharing::Leaves) {
      EXPECT_TRUE(bounds) << b.name << " declares no reach bounds (BackendInfo::expect)";
    }
    declared += bounds;
  }
  EXPECT_GE(declared, 10);
}

std::unique_ptr<Backend> build(const Pair& p) {
  BackendConfig c;
  c.hash = p.scheme;
  c.threads = 3;  // on 2 cores: a helper can be two split points down while the owner waits
  c.hash_mib = 2;
  c.set("min_split_depth", 2);
  c.set("task_depth", 2);  // jamboree's own
  return make_backend(p.backend, c);
}

// Adds one search's (or part's) counters to a suite's, critical paths
// summed (SearchStats' += keeps the longest: the chain of one search).
void add(SearchStats& sum, const SearchStats& s) {
  const std::uint64_t chains = sum.critical_path + s.critical_path;
  sum += s;
  sum.critical_path = chains;
}

// Exact mode, PVS and MTD(f) alternating over the positions (MTD(f)'s null
// windows make the principal path fail high, where pvsplit's cutoffs
// happen): the value must equal the serial one, computed once per binary.
SearchStats exact_part(const Pair& pair, Backend& b) {
  static const std::vector<Position> ps = reach_positions(kRandomPositions * stress_scale());
  auto options = [](std::size_t i) {
    SearchOptions o;
    o.exact = true;
    o.limits.depth = 5;
    o.algorithm = i % 2 ? Algorithm::Mtdf : Algorithm::Pvs;
    return o;
  };
  Observer quiet;
  static const std::vector<Value> expected = [&] {
    auto serial = make_backend("serial", BackendConfig{});
    std::vector<Value> v;
    for (std::size_t i = 0; i < ps.size(); ++i) v.push_back(serial->search(ps[i], options(i), quiet).score);
    return v;
  }();
  SearchStats sum;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const SearchResult r = b.search(ps[i], options(i), quiet);
    EXPECT_EQ(r.score, expected[i]) << pair.backend << "/" << pair.scheme << " " << ps[i].fen();
    EXPECT_EQ(r.depth, 5);
    add(sum, r.stats);
  }
  return sum;
}

// Everything on (table cutoffs, null move, aspiration): a torn or wrong
// entry can now change what the search does, so what it returns must still
// be a legal line and a real score.
SearchStats full_part(const Pair& pair, Backend& b) {
  static const std::vector<Position> ps = reach_positions(kRandomPositions * stress_scale());
  SearchOptions o;
  o.limits.depth = 6;
  Observer quiet;
  SearchStats sum;
  for (const Position& root : ps) {
    const SearchResult r = b.search(root, o, quiet);
    EXPECT_EQ(r.depth, 6);
    EXPECT_LE(std::abs(r.score), kInfinite) << root.fen();
    EXPECT_FALSE(r.pv.empty()) << root.fen();
    Position pos = root;
    for (Move m : r.pv) {
      if (!pos.is_pseudo_legal(m) || !pos.is_legal(m)) {
        ADD_FAILURE() << pair.backend << "/" << pair.scheme << ": " << move_name(m)
                      << " in the PV of " << root.fen();
        break;
      }
      pos.do_move(m);
    }
    add(sum, r.stats);
  }
  EXPECT_GT(sum.tt_cutoffs, 0u) << pair.backend << "/" << pair.scheme;
  return sum;
}

// One test per backend, over its axis schemes (tests/parallel/axes.h: its
// default; every scheme for the reference backend that splits) -- with
// `full`, over every scheme it runs on -- so the serial reference is
// computed once per process (ctest runs each test in its own). The reach
// bounds hold per pair for the two parts together: which part reaches a
// helpful-master join on a given run depends on the scheduler.
void expect_every_pair_reaches(const std::string& backend, bool full) {
  int pairs = 0;
  for (const std::string& scheme : test::axis_schemes(backend, full)) {
    if (!test::stress_runs_scheme(backend, scheme, find_backend(backend).default_hash)) continue;
    const Pair pair{backend, scheme};
    auto b = build(pair);
    ASSERT_GT(b->config().threads, 1);
    SearchStats sum = full_part(pair, *b);
    add(sum, exact_part(pair, *b));
    // Which paths a run takes depends on the scheduler: on a busy machine
    // one pass can miss a rare one (a helpful-master join: ybwc/tbbspin saw
    // none once beside the rest of the test run, 2026-11-27). A pair that
    // falls short searches the suite again, at most twice more, against the
    // same bounds.
    for (int again = 0; again < 2 && !reached(pair.backend, sum); ++again) {
      std::printf("[ reach    ] %s/%s: short of a bound, searching the suite again\n",
                  pair.backend.c_str(), pair.scheme.c_str());
      add(sum, full_part(pair, *b));
    }
    expect_reach(pair.backend, pair.scheme, sum);
    ++pairs;
  }
  EXPECT_GE(pairs, 1);
}

std::string reach_name(const ::testing::TestParamInfo<std::string>& p) {
  std::string name = p.param;  // a test name takes no '-'
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

class StressReach : public ::testing::TestWithParam<std::string> {};

TEST_P(StressReach, EveryPairExactAndFullAtMinSplitDepth2) {
  expect_every_pair_reaches(GetParam(), false);
}

// Every scheme of every backend (label `full`, `.ci/run --full`).
class FullGridStressReach : public ::testing::TestWithParam<std::string> {};

TEST_P(FullGridStressReach, EveryPairExactAndFullAtMinSplitDepth2) {
  expect_every_pair_reaches(GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(All, FullGridStressReach, ::testing::ValuesIn(reach_backends()),
                         reach_name);

INSTANTIATE_TEST_SUITE_P(All, StressReach, ::testing::ValuesIn(reach_backends()), reach_name);

}  // namespace
}  // namespace xq
