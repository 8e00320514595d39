// Honest limits: a node limit searches at least N nodes and overshoots by at
// most one batch per thread; a search that completed no iteration says so;
// a caller's stop signal is sticky, whether it comes before or during the
// search. Run on every backend at 1 and 2 threads.
#include <gtest/gtest.h>

#include <atomic>

#include "parallel/backend.h"
#include "hashing/schemes.h"
#include "search/search.h"

namespace xq {
namespace {

struct Config {
  const char* backend;
  int threads;
};
constexpr Config kSetups[] = {{"serial", 1}, {"pvsplit", 1}, {"pvsplit", 2},
                             {"ybwc", 1},   {"ybwc", 2}};

std::unique_ptr<Backend> make(const Config& s) {
  BackendConfig c;
  c.threads = s.threads;
  c.hash_mib = 4;
  c.set("min_split_depth", 2);
  return make_backend(s.backend, c);
}

constexpr std::uint64_t kBatch = Search<XorTable, SerialHooks>::kNodeBatch;

TEST(Limits, NodeLimitSearchesAtLeastNAndAtMostOneBatchPerThreadMore) {
  int cases = 0;
  for (const Config& s : kSetups)
    for (const std::uint64_t n : {1000u, 5000u, 100000u}) {
      auto b = make(s);
      SearchOptions opt;
      opt.limits.nodes = n;
      Observer quiet;
      const SearchResult r = b->search(Position(), opt, quiet);
      const std::string what = std::string(s.backend) + " x" + std::to_string(s.threads) +
                               " nodes " + std::to_string(n);
      EXPECT_GE(r.stats.nodes, n) << what;
      EXPECT_LE(r.stats.nodes, n + kBatch * std::uint64_t(s.threads)) << what;
      EXPECT_GE(r.depth, 1) << what;
      EXPECT_TRUE(r.completed) << what;
      EXPECT_TRUE(r.stopped) << what;
      ++cases;
    }
  EXPECT_EQ(cases, 15);
}

TEST(Limits, ASearchThatCompletedNoIterationSaysSo) {
  for (const Config& s : kSetups) {
    auto b = make(s);
    SearchOptions opt;
    opt.limits.nodes = 1;  // stops at the first node
    Observer quiet;
    const SearchResult r = b->search(Position(), opt, quiet);
    EXPECT_FALSE(r.completed) << s.backend;
    EXPECT_EQ(r.depth, 0) << s.backend;
    EXPECT_TRUE(r.stopped) << s.backend;
    EXPECT_TRUE(r.best_move) << s.backend;  // a legal move for protocols, not a searched one
  }
}

TEST(Limits, StopSignalSetBeforeTheSearchEndsItAtOnce) {
  for (const Config& s : kSetups) {
    auto b = make(s);
    std::atomic<bool> stop{true};
    SearchOptions opt;  // no limit: without the signal it would run to depth 64
    opt.stop_signal = &stop;
    Observer quiet;
    const SearchResult r = b->search(Position(), opt, quiet);
    EXPECT_FALSE(r.completed) << s.backend;
    EXPECT_EQ(r.depth, 0) << s.backend;
    EXPECT_TRUE(r.stopped) << s.backend;
    EXPECT_EQ(r.stats.nodes, 0u) << s.backend;
  }
}

// Raises the signal when iteration `at` completes.
class SignalAt : public Observer {
 public:
  SignalAt(std::atomic<bool>& stop, Depth at) : stop_(stop), at_(at) {}
  void on_iteration(const SearchResult& r) override {
    if (r.depth == at_) {
      stop_.store(true, std::memory_order_relaxed);
      nodes_at_signal = r.stats.nodes;
    }
  }
  std::uint64_t nodes_at_signal = 0;

 private:
  std::atomic<bool>& stop_;
  Depth at_;
};

TEST(Limits, StopSignalDuringTheSearchIsHonouredWithinABatch) {
  for (const Config& s : kSetups) {
    auto b = make(s);
    std::atomic<bool> stop{false};
    SearchOptions opt;
    opt.stop_signal = &stop;
    SignalAt observer(stop, 3);
    const SearchResult r = b->search(Position(), opt, observer);
    EXPECT_TRUE(r.completed) << s.backend;
    EXPECT_EQ(r.depth, 3) << s.backend;
    EXPECT_TRUE(r.stopped) << s.backend;
    ASSERT_GT(observer.nodes_at_signal, 0u) << s.backend;
    // Each thread looks at the signal within one batch of its own nodes.
    EXPECT_LE(r.stats.nodes, observer.nodes_at_signal + kBatch * std::uint64_t(s.threads))
        << s.backend;
  }
}

}  // namespace
}  // namespace xq
