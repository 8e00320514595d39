// The dts backend's own parts: the selection policy as a pure function of
// split-point descriptors, the node-type prediction rule, the descriptor's
// packing, its parameters, and (Stress*, also run under ThreadSanitizer in
// CI) that real searches publish gratuitous split points, join late, count
// node-type predictions and account their time, while returning the serial
// value in exact mode. The backend contract (exact mode at 1-4 threads with
// every scheme, stop, start/stop cycles) is backend_contract_test.cpp's,
// which covers every registered backend.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

#include "board/movegen.h"
#include "parallel/backend.h"
#include "parallel/split/dts_policy.h"
#include "parallel/params.h"
#include "tests/support/positions.h"
#include "tests/support/sanitizers.h"
#include "parallel/split/split_counters.h"

namespace xq::dts {
namespace {

Candidate cand(int depth, int ply, int moves_left, NodeType type, int workers = 1,
               int searched = 1) {
  return {depth, ply, moves_left, type, workers, searched};
}

struct PickCase {
  const char* what;
  Policy policy;
  std::vector<Candidate> candidates;
  int expected;
};

// Hand-built scans: which split point each policy joins.
std::vector<PickCase> pick_cases() {
  const NodeType pv = NodeType::Pv, cut = NodeType::Cut, all = NodeType::All;
  const std::vector<Candidate> mixed = {cand(5, 3, 30, cut), cand(9, 1, 4, pv),
                                        cand(7, 2, 12, all), cand(7, 2, 40, cut)};
  return {
      {"depth: largest remaining depth", Policy::Depth, mixed, 1},
      {"moves: most moves left", Policy::Moves, mixed, 3},
      {"type: ALL before PV and CUT", Policy::Type, mixed, 2},
      {"first: scan order", Policy::First, mixed, 0},
      {"depth tie: shallower ply", Policy::Depth, {cand(6, 5, 9, all), cand(6, 3, 2, all)}, 1},
      {"depth tie: then more moves", Policy::Depth, {cand(6, 3, 2, all), cand(6, 3, 9, all)}, 1},
      {"depth tie: then fewer workers", Policy::Depth,
       {cand(6, 3, 9, all, 3), cand(6, 3, 9, all, 2)}, 1},
      {"exact ties: the earlier one", Policy::Depth, {cand(6, 3, 9, all), cand(6, 3, 9, all)}, 0},
      {"moves tie: deeper", Policy::Moves, {cand(4, 3, 9, all), cand(8, 3, 9, cut)}, 1},
      {"type: PV before CUT", Policy::Type, {cand(9, 1, 30, cut), cand(4, 6, 3, pv)}, 1},
      {"type: CUT only when nothing else", Policy::Type, {cand(9, 1, 30, cut)}, 0},
      {"type tie: deeper", Policy::Type, {cand(4, 6, 3, all), cand(8, 2, 3, all)}, 1},
      {"no moves left is never picked", Policy::Depth, {cand(12, 0, 0, pv), cand(3, 8, 1, cut)}, 1},
      {"first skips exhausted ones", Policy::First, {cand(12, 0, 0, pv), cand(3, 8, 1, cut)}, 1},
      {"nothing to join", Policy::Moves, {cand(12, 0, 0, pv)}, -1},
      {"empty scan", Policy::Type, {}, -1},
      // proven (threshold 2): a node that searched 2 moves without a cutoff,
      // or a PV node, before a deeper one that searched only its first.
      {"proven: two searched before deeper", Policy::Proven,
       {cand(9, 2, 30, NodeType::All, 1, 1), cand(6, 4, 20, cut, 1, 2)}, 1},
      {"proven: PV counts as proven", Policy::Proven,
       {cand(9, 2, 30, all, 1, 1), cand(5, 3, 8, pv, 1, 1)}, 1},
      {"proven tie: deeper", Policy::Proven,
       {cand(5, 4, 30, cut, 1, 7), cand(8, 3, 2, all, 1, 2)}, 1},
      {"proven: none proven, deepest", Policy::Proven,
       {cand(5, 4, 30, cut, 1, 1), cand(8, 3, 2, all, 1, 1)}, 1},
  };
}

TEST(DtsPolicy, PicksTheExpectedSplitPoint) {
  int ran = 0;
  for (const PickCase& c : pick_cases()) {
    EXPECT_EQ(pick(c.candidates, c.policy), c.expected) << c.what;
    ++ran;
  }
  EXPECT_EQ(ran, 20);
}

TEST(DtsPolicy, ProvenThresholdIsAParameter) {
  const std::vector<Candidate> c = {cand(9, 2, 30, NodeType::All, 1, 2),
                                    cand(6, 4, 20, NodeType::Cut, 1, 3)};
  EXPECT_EQ(pick(c, Policy::Proven, 2), 0);  // both proven: the deeper
  EXPECT_EQ(pick(c, Policy::Proven, 3), 1);  // only the second proven
  EXPECT_EQ(pick(c, Policy::Proven, 4), 0);  // neither: the deeper
}

TEST(DtsPolicy, BetterIsAStrictOrder) {
  std::mt19937 rng(14);
  const auto random_candidate = [&] {
    return cand(int(rng() % 4), int(rng() % 4), int(rng() % 3), NodeType(rng() % 3),
                1 + int(rng() % 2), int(rng() % 4));
  };
  int pairs = 0;
  for (int policy = 0; policy < int(kPolicyNames.size()); ++policy)
    for (int i = 0; i < 500; ++i) {
      const Candidate a = random_candidate(), b = random_candidate();
      const Policy p = Policy(policy);
      EXPECT_FALSE(better(a, a, p));
      EXPECT_FALSE(better(a, b, p) && better(b, a, p));
      ++pairs;
    }
  EXPECT_EQ(pairs, 2500);
}

TEST(DtsPolicy, KnuthMooreNodeTypes) {
  EXPECT_EQ(child_type(NodeType::Pv, true), NodeType::Pv);
  EXPECT_EQ(child_type(NodeType::Pv, false), NodeType::Cut);
  EXPECT_EQ(child_type(NodeType::Cut, true), NodeType::All);
  EXPECT_EQ(child_type(NodeType::Cut, false), NodeType::All);
  EXPECT_EQ(child_type(NodeType::All, true), NodeType::Cut);
  EXPECT_EQ(child_type(NodeType::All, false), NodeType::Cut);
}

TEST(DtsPolicy, DescriptorRoundTripsAndSaturates) {
  const Candidate c = cand(17, 42, 93, NodeType::All, 5, 38);
  const Candidate back = unpack(pack(c));
  EXPECT_EQ(back.searched, 38);
  EXPECT_EQ(back.depth, 17);
  EXPECT_EQ(back.ply, 42);
  EXPECT_EQ(back.moves_left, 93);
  EXPECT_EQ(back.type, NodeType::All);
  EXPECT_EQ(back.workers, 5);
  const Candidate big = unpack(pack(cand(300, 300, 5000, NodeType::Cut, 1000, 2000)));
  EXPECT_EQ(big.searched, 1023);
  EXPECT_EQ(big.depth, 255);
  EXPECT_EQ(big.ply, 255);
  EXPECT_EQ(big.moves_left, 1023);
  EXPECT_EQ(big.workers, 511);
  EXPECT_NE(pack(cand(1, 0, 0, NodeType::Pv, 1)), 0u);  // open is never "closed"
}

TEST(DtsParams, SetByNameAndRejectBadValues) {
  BackendConfig c;
  set_param(c, "split_policy=type");
  EXPECT_EQ(c.param("split_policy"), int(Policy::Type));
  set_param(c, "gratuitous_depth=3");
  set_param(c, "gratuitous_limit=0");
  EXPECT_EQ(c.param("gratuitous_depth"), 3);
  EXPECT_EQ(c.param("gratuitous_limit"), 0);
  EXPECT_EQ(find_param("split_policy").value_text(c), "type");
  set_param(c, "split_policy=proven");
  EXPECT_EQ(c.param("split_policy"), int(Policy::Proven));
  set_param(c, "proven_moves=3");
  EXPECT_EQ(c.param("proven_moves"), 3);
  EXPECT_THROW(set_param(c, "proven_moves=0"), std::invalid_argument);
  set_param(c, "gratuitous_moves=4");
  EXPECT_EQ(c.param("gratuitous_moves"), 4);
  EXPECT_THROW(set_param(c, "gratuitous_moves=0"), std::invalid_argument);
  set_param(c, "max_helpers=3");
  EXPECT_EQ(c.param("max_helpers"), 3);
  EXPECT_EQ(find_param("max_helpers").value_text(c), "3");
  EXPECT_THROW(set_param(c, "max_helpers=256"), std::invalid_argument);
  set_param(c, "gratuitous_at_cut=yes");
  EXPECT_TRUE(c.param("gratuitous_at_cut"));
  EXPECT_THROW(set_param(c, "gratuitous_at_cut=1"), std::invalid_argument);
  EXPECT_THROW(set_param(c, "split_policy=deepest"), std::invalid_argument);
  EXPECT_THROW(set_param(c, "gratuitous_depth=0"), std::invalid_argument);
  EXPECT_THROW(set_param(c, "gratuitous_limit=65"), std::invalid_argument);
}

// Under ThreadSanitizer a search runs some 20 times slower (and helpers,
// slowed too, join more): fewer positions keep the test to a few seconds.
constexpr std::size_t kStressPositions = test::kThreadSanitized ? 2 : 3;

std::vector<Position> stress_positions() {
  std::vector<Position> out = {Position()};
  for (const Position& p : test::random_positions(int(kStressPositions) - 1, 1414, 12, 16))
    out.push_back(p);
  return out;
}

// Exact mode at depth 5, and the serial values of ps under it.
SearchOptions exact_depth5() {
  SearchOptions o;
  o.exact = true;
  o.limits.depth = 5;
  return o;
}

std::vector<Value> serial_values(const std::vector<Position>& ps) {
  Observer quiet;
  auto serial = make_backend("serial", BackendConfig{});
  std::vector<Value> out;
  for (const Position& p : ps) out.push_back(serial->search(p, exact_depth5(), quiet).score);
  return out;
}

// Every policy once, at 2 and 3 threads alternately (on 2 cores), with a
// low split depth and gratuitous split points from depth 3: exact-mode
// values equal the serial ones, and over the positions the machinery did
// what it exists for.
TEST(StressDts, GratuitousSplitsLateJoinsAndPredictionsHappen) {
  const std::vector<Position> ps = stress_positions();
  const SearchOptions o = exact_depth5();
  Observer quiet;
  const std::vector<Value> expected = serial_values(ps);
  int configurations = 0;
  std::uint64_t late_joins = 0;  // few per configuration: asserted over all of them
  for (std::string_view policy : kPolicyNames) {
    const int threads = 2 + configurations % 2;
    BackendConfig c;
    c.threads = threads;
    c.hash_mib = 2;
    set_param(c, "min_split_depth=2");
    set_param(c, "gratuitous_depth=3");
    set_param(c, "gratuitous_limit=3");
    set_param(c, "split_policy=" + std::string(policy));
    auto b = make_backend("dts", c);
    SearchStats s;
    for (std::size_t i = 0; i < ps.size(); ++i) {
      const SearchResult r = b->search(ps[i], o, quiet);
      EXPECT_EQ(r.score, expected[i]) << policy << " threads " << threads << " " << ps[i].fen();
      s += r.stats;
    }
    std::printf("[ dts      ] %d threads %-5s splits %" PRIu64 " gratuitous %" PRIu64
                " joins %" PRIu64 " late %" PRIu64 " all %" PRIu64 " cut %" PRIu64
                " held %" PRIu64 " wasted %" PRIu64 "\n",
                threads, std::string(policy).c_str(), std::uint64_t(s.splits),
                std::uint64_t(s[dts::gratuitous_splits]), std::uint64_t(s.joins),
                std::uint64_t(s[dts::late_joins]), std::uint64_t(s[dts::predicted_all]),
                std::uint64_t(s[dts::predicted_cut]), std::uint64_t(s[dts::prediction_held]),
                std::uint64_t(s.wasted_nodes));
    EXPECT_GT(s[dts::gratuitous_splits], 0u) << policy << " threads " << threads;
    EXPECT_GT(s[dts::predicted_all] + s[dts::predicted_cut], 0u) << policy << " threads " << threads;
    EXPECT_GT(s[dts::prediction_held], 0u) << policy << " threads " << threads;
    EXPECT_LE(s[dts::prediction_held], s[dts::predicted_all] + s[dts::predicted_cut]);
    EXPECT_LE(s[dts::late_joins], s.joins);
    EXPECT_LE(s.wasted_nodes, s.nodes);  // each node counted once at most
    EXPECT_GT(s.search_seconds, 0.0);
    late_joins += s[dts::late_joins];
    ++configurations;
  }
  EXPECT_EQ(configurations, 5);
  EXPECT_GT(late_joins, 0u);
}

// The settings that limit where helpers go (one helper per split point, the
// proven-ALL policy, gratuitous splits only after three moves) keep the serial
// value in exact mode at 3 threads, and helpers still join.
TEST(StressDts, LimitedHelpersKeepTheSerialValue) {
  const std::vector<Position> ps = stress_positions();
  const SearchOptions o = exact_depth5();
  Observer quiet;
  const std::vector<Value> expected = serial_values(ps);
  BackendConfig c;
  c.threads = 3;
  c.hash_mib = 2;
  for (const char* p : {"min_split_depth=2", "gratuitous_depth=3", "max_helpers=1",
                        "split_policy=proven", "gratuitous_moves=3"})
    set_param(c, p);
  auto b = make_backend("dts", c);
  SearchStats s;
  int searched = 0;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const SearchResult r = b->search(ps[i], o, quiet);
    EXPECT_EQ(r.score, expected[i]) << ps[i].fen();
    s += r.stats;
    ++searched;
  }
  EXPECT_EQ(searched, int(kStressPositions));
  EXPECT_GT(s.joins, 0u);
  EXPECT_LE(s.wasted_nodes, s.nodes);
}

// One thread has nobody to split for: dts must then be the serial search.
TEST(Dts, OneThreadNeverSplits) {
  BackendConfig c;
  set_param(c, "gratuitous_depth=1");
  auto b = make_backend("dts", c);
  SearchOptions o;
  o.limits.depth = 5;
  Observer quiet;
  const SearchResult r = b->search(Position(), o, quiet);
  EXPECT_EQ(r.depth, 5);
  EXPECT_EQ(r.stats.splits, 0u);
  EXPECT_EQ(r.stats[dts::gratuitous_splits], 0u);
  EXPECT_GT(r.stats.search_seconds, 0.0);
}

}  // namespace
}  // namespace xq::dts
