// The dts backend: the split pool with dts's policy (dts.h), iterative
// deepening on thread 0 (the caller's thread) and the pool's helpers choosing
// split points to serve.
#include "parallel/split/dts.h"

#include "parallel/backend_factory.h"

namespace xq {
namespace dts {

const std::vector<ParamSpec>& params() {
  static const std::vector<ParamSpec> kParams = [] {
    std::vector<ParamSpec> v = split::pool_params();
    const Settings d;
    v.push_back({"gratuitous_depth", "nodes at least this deep split even when no thread is idle",
                 1, kMaxDepth, {}, d.gratuitous_depth});
    v.push_back({"gratuitous_limit", "most gratuitous split points one thread has open at once",
                 0, 64, {}, d.gratuitous_limit});
    v.push_back({"gratuitous_at_cut", "whether nodes predicted CUT split gratuitously too", 0, 1,
                 {"no", "yes"}, d.gratuitous_at_cut});
    v.push_back({"max_helpers",
                 "most helpers at one split point besides its owner (0: no limit); a thread "
                 "that finds a split point full picks another",
                 0, 255, {}, d.max_helpers});
    v.push_back({"gratuitous_moves",
                 "moves a node searches without a cutoff before it splits gratuitously", 1, 64,
                 {}, d.gratuitous_moves});
    v.push_back({"split_policy", "which open split point an idle thread joins", 0,
                 std::int64_t(kPolicyNames.size()) - 1,
                 {kPolicyNames.begin(), kPolicyNames.end()}, std::int64_t(d.policy)});
    v.push_back({"proven_moves",
                 "split_policy=proven: moves searched without a cutoff that prove a node ALL", 1,
                 64, {}, d.proven_moves});
    return v;
  }();
  return kParams;
}

Settings settings_of(const BackendConfig& c) {
  Settings s;
  s.gratuitous_depth = Depth(c.param("gratuitous_depth"));
  s.gratuitous_limit = int(c.param("gratuitous_limit"));
  s.gratuitous_at_cut = c.param("gratuitous_at_cut") != 0;
  s.gratuitous_moves = int(c.param("gratuitous_moves"));
  s.max_helpers = int(c.param("max_helpers"));
  s.policy = Policy(c.param("split_policy"));
  s.proven_moves = int(c.param("proven_moves"));
  return s;
}

void gather(SplitPoint* sps, int n, std::vector<Candidate>& candidates,
            std::vector<SplitPoint*>& where) {
  for (int s = 0; s < n; ++s) {
    const std::uint64_t word = sps[s].data.summary.load(std::memory_order_relaxed);
    if (word == 0) continue;
    candidates.push_back(unpack(word));
    where.push_back(&sps[s]);
  }
}

}  // namespace dts

namespace {

template <class Table>
using DtsBackend = split::PoolBackend<dts::Pool, dts::Hooks, Table>;

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme, real or test.
extern const BackendInfo kDtsBackend = {
    .name = "dts",
    .summary = "DTS-style: idle threads pick among all open split points by a policy, gratuitous split "
    "points, late join, node-type prediction, helpful master",
    .default_hash = "xor",
    .sharing = Sharing::Splits,
    .supports = runs_on<EveryTable>,
    .make = make_on<DtsBackend, EveryTable>,
    .params = dts::params,
    // The default lab runs one representative per way of sharing work (`--backends all`: every one).
    .in_default_lab = false,
    .expect = {.reach = {{"splits", 50}, {"joins", 20}, {"aborts", 1}, {"nested_joins", 1}, {"master_joins", 1}},
               .reach_parallelism = 2.0,
               .books_split_time = true,
               .split_first = {.param = "eldest_first", .depth_param = "min_split_depth", .value = 0}},
    .counter_groups = {"split points", "dts"}
};

}  // namespace xq
