// What the abdada backend adds to the contract every backend keeps
// (backend_contract_test.cpp): it refuses a table without a shared searcher
// count with one line; after every search no busy mark is left in a locked
// table (leaks counted exactly: 0), and at one thread none in any table; its
// parameters reach the node function; and, in the Stress suite (also run
// under ThreadSanitizer in CI), threads really meet on busy marks: busy
// answers, deferrals and second-pass searches happen.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hashing/schemes.h"
#include "parallel/backend.h"
#include "parallel/shared/first_complete.h"
#include "parallel/params.h"
#include "tests/support/run_xqlab.h"
#include "search/coordination.h"

namespace xq {
namespace {

std::unique_ptr<Backend> abdada(const std::string& scheme, int threads,
                                const std::vector<std::string>& params = {}) {
  BackendConfig c;
  c.hash = scheme;
  c.threads = threads;
  c.hash_mib = 4;
  for (const std::string& p : params) set_param(c, p);
  return make_backend("abdada", c);
}

std::vector<Position> openings(std::size_t n) {
  const char* fens[] = {
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
      "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
      "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1"};
  std::vector<Position> out;
  for (const char* f : fens) {
    if (out.size() == n) break;
    Position p;
    EXPECT_EQ(p.set_fen(f), "") << f;
    out.push_back(p);
  }
  return out;
}

TEST(Abdada, RefusesPerthreadWithOneLine) {
  EXPECT_FALSE(find_backend("abdada").supports("perthread"));
  try {
    abdada("perthread", 2);
    ADD_FAILURE() << "abdada accepted perthread";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("perthread"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  // Every other scheme the build compiled the backends for (all, but in
  // a build with a shorter XQLAB_SCHEMES).
  int built = 0;
  for (std::string_view s : kSchemeNames) {
    EXPECT_EQ(find_backend("abdada").supports(s), s != "perthread" && scheme_built(s)) << s;
    built += scheme_built(s);
  }
  EXPECT_GE(built, 2);
  xq::test::expect_one_line_error(
      xq::test::run_xqlab({"search", "--fen", "startpos", "--depth", "2", "--backend", "abdada",
                           "--hash", "perthread"}),
      "abdada/perthread");
}

// After a search every node has released its mark. Locked tables count
// exactly, so 0 leaks at any thread count, after a completed search and
// after a stop. One thread claims nothing (nobody could be deferred), so the
// backend does not scan its table (AbdadaLockstep checks that table itself).
// What the lockless tables leak at 2 threads is printed.
TEST(Abdada, NoBusyMarkRemainsAfterASearch) {
  int searches = 0;
  SearchOptions depth5;
  depth5.limits.depth = 5;
  SearchOptions nodes;
  nodes.limits.nodes = 30000;  // ends by a stop in the middle of an iteration
  Observer quiet;
  int schemes = 0;  // six hold searcher counts; a build may compile fewer
  for (std::string_view scheme : kSchemeNames) {
    if (scheme != "perthread" && scheme_built(scheme)) ++schemes;
    if (!find_backend("abdada").supports(scheme)) continue;
    const bool locked = scheme == "spinlock" || scheme == "mutex" || scheme == "tbbspin";
    for (const int threads : {1, 2, 3}) {
      auto b = abdada(std::string(scheme), threads);
      std::uint64_t leaks = 0, underflows = 0;
      for (const Position& p : openings(2))
        for (const SearchOptions& o : {depth5, nodes}) {
          const SearchResult r = b->search(p, o, quiet);
          ++searches;
          leaks += r.stats[coordination::mark_leaks];
          underflows += r.stats[coordination::mark_underflows];
          if (locked) {
            EXPECT_EQ(r.stats[coordination::mark_leaks], 0u) << scheme << " " << threads;
          }
          if (threads == 1) {
            EXPECT_EQ(r.stats[coordination::mark_underflows], 0u) << scheme;
          }
        }
      if (!locked && threads == 2)
        std::printf("[ marks    ] abdada/%-11s 2 threads: %llu leaks, %llu underflows\n",
                    std::string(scheme).c_str(), static_cast<unsigned long long>(leaks),
                    static_cast<unsigned long long>(underflows));
    }
  }
  EXPECT_GE(schemes, 1);
  EXPECT_EQ(searches, schemes * 3 * 2 * 2);
}

// The parameters reach the node function: no re-probe when it is off; none
// of the shared-table counters moves at one thread (nobody else marks).
TEST(Abdada, ParametersReachTheSearch) {
  Observer quiet;
  SearchOptions o;
  o.limits.depth = 6;
  const Position root = openings(1).front();
  const SearchResult off = abdada("xor", 2, {"abdada_reprobe_depth=0"})->search(root, o, quiet);
  EXPECT_EQ(off.stats[coordination::cutoff_reprobes], 0u);
  EXPECT_EQ(off.depth, 6);
  const SearchResult one = abdada("spinlock", 1)->search(root, o, quiet);
  EXPECT_EQ(one.stats[coordination::busy_answers], 0u);
  EXPECT_EQ(one.stats[coordination::deferrals], 0u);
  EXPECT_EQ(one.stats[coordination::deferred_searches], 0u);
  EXPECT_EQ(one.stats[coordination::cutoff_reprobes], 0u);
  // Root moves never deferred and claims only from depth 64: nothing to defer.
  const SearchResult none =
      abdada("xor", 2, {"abdada_defer_root=no", "abdada_defer_depth=64"})->search(root, o, quiet);
  EXPECT_EQ(none.stats[coordination::busy_answers], 0u);
  EXPECT_EQ(none.stats[coordination::deferrals], 0u);
  EXPECT_EQ(none.depth, 6);
}

// A helper's iteration below the depth limit is not kept; the first one at
// the limit is, and overtakes the main thread once the main thread has
// completed the depth before the limit (so that no depth goes unreported);
// later ones change nothing; without a depth limit nothing is ever kept.
TEST(FirstComplete, KeepsTheFirstIterationAtTheDepthLimit) {
  FirstComplete f;
  f.reset(6);
  SearchResult r;
  r.depth = 5;
  r.score = 11;
  f.offer(r);
  EXPECT_FALSE(f.overtaken());
  f.main_reached(3);
  r.depth = 6;
  r.score = 22;
  FirstComplete::Offer offer(f);
  offer.on_iteration(r);
  EXPECT_FALSE(f.overtaken());  // the main thread has yet to report depths 4 and 5
  f.main_reached(4);
  EXPECT_FALSE(f.overtaken());
  f.main_reached(5);
  EXPECT_TRUE(f.overtaken());
  r.score = 33;
  f.offer(r);
  const std::optional<SearchResult> kept = f.take();
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->score, 22);
  EXPECT_FALSE(f.take().has_value());
  f.reset(0);
  f.main_reached(39);
  EXPECT_FALSE(f.overtaken());
  r.depth = 40;
  f.offer(r);
  EXPECT_FALSE(f.overtaken());
  EXPECT_FALSE(f.take().has_value());
  // A limit of 1: the main thread has nothing to report before it.
  f.reset(1);
  r.depth = 1;
  f.offer(r);
  EXPECT_TRUE(f.overtaken());
}

// Bounded for ThreadSanitizer: four openings at depth 6 with 2 and 3 threads
// on a lockless and a locked table. The lane is not vacuous: threads must
// have met on busy marks, deferred moves and searched them in the second
// pass. Every deferral comes from a busy answer (one that a stop overtook
// defers nothing), and a deferred move is searched at most once more.
TEST(StressAbdada, BusyAnswersAndDeferralsHappen) {
  Observer quiet;
  SearchOptions o;
  o.limits.depth = 6;
  int runs = 0;
  for (const char* scheme : {"xor", "spinlock"})
    for (const int threads : {2, 3}) {
      auto b = abdada(scheme, threads);
      SearchStats sum;
      for (const Position& p : openings(4)) {
        const SearchResult r = b->search(p, o, quiet);
        EXPECT_EQ(r.depth, 6);
        sum += r.stats;
        ++runs;
      }
      EXPECT_GT(sum[coordination::busy_answers], 0u) << scheme << " " << threads;
      EXPECT_GT(sum[coordination::deferrals], 0u) << scheme << " " << threads;
      EXPECT_GT(sum[coordination::deferred_searches], 0u) << scheme << " " << threads;
      EXPECT_LE(sum[coordination::deferrals], sum[coordination::busy_answers]);
      EXPECT_LE(sum[coordination::deferred_searches], sum[coordination::deferrals]);
      std::printf("[ abdada   ] %-8s %d threads: %llu busy answers, %llu deferrals, %llu second-pass "
                  "searches, %llu re-probes\n",
                  scheme, threads, static_cast<unsigned long long>(sum[coordination::busy_answers]),
                  static_cast<unsigned long long>(sum[coordination::deferrals]),
                  static_cast<unsigned long long>(sum[coordination::deferred_searches]),
                  static_cast<unsigned long long>(sum[coordination::cutoff_reprobes]));
    }
  EXPECT_EQ(runs, 16);
}

}  // namespace
}  // namespace xq
