// The policies that split a node before its eldest brother is searched
// (search/node.h Step 7'): tree splitting on the split pool
// (eldest_first=no, ybwc and dts) and Mandatory Work First on the task
// engine (spawn=mwf, jamboree). Both keep the serial value in exact mode
// (DESIGN.md §4) and both really split before the eldest brother
// (eldest_splits); tree splitting, the ablation of the young brothers' wait,
// searches more nodes than ybwc on the simulated machine, whose schedule is
// the same on every run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parallel/backend.h"
#include "parallel/sim/machine.h"
#include "tests/parallel/exact_grid.h"

namespace xq {
namespace {

const std::vector<Position>& split_first_positions() {
  static const std::vector<Position> ps = test::contract_positions(4);
  return ps;
}

std::unique_ptr<Backend> make(const std::string& backend, int threads, const std::string& scheme,
                              std::string_view param, std::int64_t value, Depth split_depth) {
  BackendConfig c;
  c.threads = threads;
  c.hash_mib = 1;
  c.hash = scheme;
  c.set(param, value);
  const std::string_view depth = find_backend(backend).expect.split_first.depth_param;
  c.set(depth.empty() ? std::string_view("min_split_depth") : depth, split_depth);
  return make_backend(backend, c);
}

// Every backend that declares a split-first policy (BackendExpectations).
struct Policy {
  std::string backend;
  std::string_view param;
  std::int64_t value;  // the setting that splits before the eldest brother
};
const std::vector<Policy>& policies() {
  static const std::vector<Policy> v = [] {
    std::vector<Policy> out;
    for (const BackendInfo& b : backends())
      if (!b.expect.split_first.param.empty())
        out.push_back({std::string(b.name), b.expect.split_first.param, b.expect.split_first.value});
    return out;
  }();
  return v;
}

TEST(SplitFirst, EachSplittingFamilyDeclaresAPolicy) {
  // Tree splitting on the split pool (ybwc, dts) and Mandatory Work First
  // on the task engine (jamboree) when this build has them.
  EXPECT_GE(policies().size(), 2u);
}

TEST(SplitFirst, SlowEveryPolicyKeepsTheSerialValue) {
  const std::vector<Position>& ps = split_first_positions();
  const std::vector<Value>& expected = test::serial_values(ps, 4);
  int searched = 0;
  for (const Policy& k : policies()) {
    SearchStats sum;
    for (const char* scheme : {"xor", "spinlock"})
      for (int threads : {1, 2, 3})
        for (std::size_t i = 0; i < ps.size(); ++i) {
          auto b = make(k.backend, threads, scheme, k.param, k.value, 2);
          Observer quiet;
          const SearchResult r = b->search(ps[i], test::exact_options(4), quiet);
          EXPECT_EQ(r.score, expected[i]) << k.backend << " " << k.param << "=" << k.value << " "
                                          << scheme << " " << threads << "t " << ps[i].fen();
          sum += r.stats;
          ++searched;
        }
    EXPECT_GT(sum.eldest_splits, 0u) << k.backend << ": no node split before its eldest brother";
    EXPECT_LT(sum.eldest_splits, sum.splits)
        << k.backend << ": nodes that did not split first still split after the eldest brother";
  }
  EXPECT_EQ(searched, int(policies().size() * 2 * 3 * ps.size()));
}

// The defaults never split before the eldest brother.
TEST(SplitFirst, TheDefaultsWaitForTheEldestBrother) {
  int searched = 0;
  for (const Policy& k : policies()) {
    SearchStats sum;
    for (const Position& p : split_first_positions()) {
      auto b = make(k.backend, 2, "xor", k.param, 1 - k.value, 2);
      Observer quiet;
      sum += b->search(p, test::exact_options(4), quiet).stats;
      ++searched;
    }
    EXPECT_GT(sum.splits, 0u) << k.backend;
    EXPECT_EQ(sum.eldest_splits, 0u) << k.backend;
  }
  EXPECT_EQ(searched, int(policies().size() * split_first_positions().size()));
}

SearchStats simulate(Backend& b, const Position& p, Depth depth, int threads) {
  sim::Machine m(sim::Costs{}, 64, 1, threads);
  m.begin();
  Observer quiet;
  SearchOptions o;
  o.limits.depth = depth;
  const SearchResult r = b.search(p, o, quiet);
  m.end();
  EXPECT_EQ(r.depth, depth);
  return r.stats;
}

// Finkel and Fishburn's tree splitting searches a node's younger brothers
// before the eldest has raised alpha: on 4 simulated threads it searches
// more nodes than ybwc over the suite (SIMULATED, the same on every run).
TEST(SplitFirst, SimulatedTreeSplittingSearchesMoreThanYbwc) {
  std::uint64_t tree = 0, ybwc = 0;
  int searched = 0;
  for (const Position& p : split_first_positions()) {
    auto t = make("ybwc", 4, "xor", "eldest_first", 0, 3);
    auto y = make("ybwc", 4, "xor", "eldest_first", 1, 3);
    const SearchStats st = simulate(*t, p, 5, 4);
    EXPECT_GT(st.eldest_splits, 0u) << p.fen();
    tree += st.nodes;
    ybwc += simulate(*y, p, 5, 4).nodes;
    ++searched;
  }
  EXPECT_EQ(searched, int(split_first_positions().size()));
  EXPECT_GT(tree, ybwc);
}

}  // namespace
}  // namespace xq
