// The dts backend: the split pool with dts's policy (dts.h), iterative
// deepening on thread 0 (the caller's thread) and the pool's helpers choosing
// split points to serve.
#include "parallel/split/dts.h"

#include <algorithm>

#include "parallel/backend_factory.h"

namespace xq {
namespace dts {

Settings settings_of(const BackendConfig& c) {
  Settings s;
  s.gratuitous_depth = std::max<Depth>(c.gratuitous_depth, 1);
  s.gratuitous_limit = std::max(c.gratuitous_limit, 0);
  s.gratuitous_at_cut = c.gratuitous_at_cut;
  s.gratuitous_moves = std::max(c.gratuitous_moves, 1);
  s.max_helpers = std::max(c.split_max_helpers, 0);
  s.policy = Policy(std::clamp(c.split_policy, 0, int(kPolicyNames.size()) - 1));
  s.proven_moves = std::max(c.proven_moves, 1);
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
    "dts",
    "DTS-style: idle threads pick among all open split points by a policy, gratuitous split "
    "points, late join, node-type prediction, helpful master",
    "xor", every_scheme,
    [](const BackendConfig& config) { return make_for_scheme<DtsBackend>(config); }};

}  // namespace xq
