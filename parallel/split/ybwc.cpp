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
    "ybwc", "young brothers wait: split points on a persistent std::thread pool, helpful master",
    "xor", Sharing::Splits,
    every_scheme,
    [](const BackendConfig& config) { return make_for_scheme<YbwcBackend>(config); },
    ybwc_params};

}  // namespace xq
