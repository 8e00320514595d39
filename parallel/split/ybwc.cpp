// The ybwc backend: the split pool with ybwc's policy (ybwc.h), iterative
// deepening on thread 0 (the caller's thread) and the pool's helpers serving
// split points.
#include "parallel/split/ybwc.h"

#include "parallel/backend_factory.h"
#include "parallel/split/pool_backend.h"

namespace xq {
namespace {

template <class Table>
using YbwcBackend = split::PoolBackend<ybwc::Pool, split::PoolHooks<ybwc::Pool>, Table>;

const std::vector<ParamSpec>& ybwc_params() {
  static const std::vector<ParamSpec> kParams = split::pool_params();
  return kParams;
}

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme, real or test.
extern const BackendInfo kYbwcBackend = {
    .name = "ybwc",
    .summary = "young brothers wait: split points on a persistent std::thread pool, helpful master",
    .default_hash = "xor",
    .sharing = Sharing::Splits,
    .supports = runs_on<EveryTable>,
    .make = make_on<YbwcBackend, EveryTable>,
    .params = ybwc_params,
    .expect = {.reach = {{"splits", 50}, {"joins", 20}, {"aborts", 1}, {"nested_joins", 1}, {"master_joins", 1}},
               .reach_parallelism = 2.0,
               .books_split_time = true,
               .split_first = {.param = "eldest_first", .depth_param = "min_split_depth", .value = 0}},
    .counter_groups = {"split points"}
};

}  // namespace xq
