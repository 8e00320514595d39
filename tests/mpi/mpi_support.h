// What the MPI lane's test files share (tests/mpi/*.cpp, one binary:
// test_mpi): the ranks mpiexec started, the registry's distributed
// backends, a backend built on the MPI wire, the drained check, the
// MpiWorld fixture and the launcher of `mpiexec ... xqlab`.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "parallel/backend.h"
#include "parallel/distributed/mpi_world.h"
#include "parallel/distributed/wire_counters.h"
#include "parallel/params.h"
#include "search/result.h"
#include "tests/support/run_xqlab.h"

namespace xq::mpitest {

inline int world_size() { return dist::mpi_world() ? dist::mpi_world()->size() : 0; }

// Every distributed backend (the registry's; read at the first call, not
// during static initialisation, when the backends' own declarations may not
// be initialised yet).
inline const std::vector<std::string>& dist_backends() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> out;
    for (const BackendInfo& b : backends())
      if (b.distributed) out.emplace_back(b.name);
    return out;
  }();
  return v;
}

// `backend` on the MPI wire at `ranks` ranks of `threads` threads, with the
// parameters its declaration gives small searches (expect.small_search:
// shipping or home depths low enough for depths 3-8), then `params`.
inline std::unique_ptr<Backend> on_mpi(const std::string& backend, int ranks, int threads,
                                       const std::string& scheme = "xor",
                                       const std::vector<std::string>& params = {}) {
  BackendConfig c;
  c.hash = scheme;
  c.threads = threads;
  c.hash_mib = 4;
  set_param(c, "wire=mpi");
  set_param(c, "ranks=" + std::to_string(ranks));
  for (const auto& [name, value] : find_backend(backend).expect.small_search)
    set_param(c, std::string(name) + "=" + std::to_string(value));
  for (const std::string& p : params) set_param(c, p);
  return make_backend(backend, c);
}

// Sent = received over the whole search, and every rank reported.
inline void expect_drained(const SearchResult& r, int ranks, const std::string& what) {
  EXPECT_EQ(r.stats[dist::msgs_sent], r.stats[dist::msgs_received]) << what;
  EXPECT_EQ(r.stats[dist::bytes_sent], r.stats[dist::bytes_received]) << what;
  ASSERT_EQ(int(r.ranks.size()), ranks) << what;
  std::uint64_t nodes = 0;
  for (const RankFigures& f : r.ranks) nodes += f.nodes;
  EXPECT_EQ(nodes, r.stats.nodes) << what;
}

// Tests run by ctest under `mpiexec -n N` (rank 0 runs them, the other
// ranks serve).
class MpiWorld : public ::testing::Test {
 protected:
  void SetUp() override {
    if (world_size() < 2) GTEST_SKIP() << "not started by mpiexec with 2 or more ranks";
  }
};

inline std::string mpiexec() { return XQLAB_MPIEXEC; }

// Runs `mpiexec -n N [flags] xqlab ARGS` (run_xqlab runs xqlab itself, so
// the launcher goes through a shell-free exec of mpiexec with xqlab after it).
inline test::XqlabRun launch(int n, const std::vector<std::string>& flags,
                             const std::vector<std::string>& args, test::RunLimits limits = {}) {
  std::vector<std::string> all = {"-n", std::to_string(n), "--oversubscribe"};
  all.insert(all.end(), flags.begin(), flags.end());
  all.push_back(XQLAB_BINARY);
  all.insert(all.end(), args.begin(), args.end());
  limits.program = mpiexec();
  return test::run_xqlab(all, limits);
}

}  // namespace xq::mpitest
