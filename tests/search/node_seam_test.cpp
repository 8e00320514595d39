// The node function's seam for shared-table backends (search/hooks.h):
// deferred moves, exclusive child searches answering kOnEvaluation, table
// claims, and on_enter/on_leave on every exit path. Driven by test hooks, on
// one thread, so every count below is exact.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "hashing/schemes.h"
#include "search/driver.h"

namespace xq {
namespace {

// Counts enters and leaves; can defer chosen moves, stop the search after a
// given number of enters, or throw from the first move loop after it.
template <bool kClaims>
struct TestHooks : SerialHooks {
  static constexpr bool kClaimsNodes = kClaims;
  static constexpr bool kDefersMoves = true;
  static constexpr bool kTracksNodes = true;

  bool defer_move(const Worker&, Move m, int) const {
    // Thrown inside a node's guarded steps, deep in the tree.
    if (throw_after && enters >= throw_after) throw std::runtime_error("test throw");
    const bool d = defer_every != 0 && m.raw() % defer_every == 0;
    deferred += d;
    return d;
  }
  void on_enter(Worker&, int ply) {
    ++enters;
    if (ply == 1) ++enters_at_ply1;
    if (stop_after && enters == stop_after) shared->stop.store(true, std::memory_order_relaxed);
  }
  void on_leave(Worker& w, int) {
    ++leaves;
    if (claimed_count) claimed_seen += (*claimed_count)(w.pos.key()) > 0;
  }

  unsigned defer_every = 0;
  std::uint64_t stop_after = 0, throw_after = 0;
  SearchShared* shared = nullptr;
  std::function<int(Key)>* claimed_count = nullptr;
  mutable std::uint64_t deferred = 0;
  std::uint64_t enters = 0, enters_at_ply1 = 0, leaves = 0, claimed_seen = 0;
};

std::vector<Position> positions() {
  std::vector<Position> out;
  for (const char* fen :
       {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
        "3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1",
        "2bak4/4a4/4b4/p3C4/2p6/9/P8/4B4/4A4/3AK4 w - - 0 1"}) {
    Position p;
    EXPECT_EQ(p.set_fen(fen), "") << fen;
    out.push_back(p);
  }
  return out;
}

template <class Table, class Hooks>
SearchResult run(Table& tt, Hooks& hooks, SearchShared& shared, const Position& pos) {
  Search<Table, Hooks> search(tt, hooks, shared);
  auto w = std::make_unique<Worker>(0);
  w->pos = pos;
  return iterative_deepening(search, *w, shared, nullptr);
}

SearchOptions exact(Depth d) {
  SearchOptions o;
  o.exact = true;
  o.limits.depth = d;
  return o;
}

TEST(NodeSeam, DeferringChosenMovesKeepsTheExactValue) {
  int cases = 0;
  for (const Position& pos : positions())
    for (const Algorithm a : {Algorithm::Pvs, Algorithm::AlphaBeta}) {
      SearchOptions opt = exact(4);
      opt.algorithm = a;
      XorTable t1, t2;
      SerialHooks serial;
      SearchShared s1, s2;
      s1.options = s2.options = opt;
      const SearchResult ref = run(t1, serial, s1, pos);
      TestHooks<false> hooks;
      hooks.defer_every = 3;
      const SearchResult r = run(t2, hooks, s2, pos);
      EXPECT_EQ(r.score, ref.score) << pos.fen();
      EXPECT_EQ(r.depth, 4);
      EXPECT_GT(hooks.deferred, 0u) << pos.fen();
      EXPECT_GT(hooks.enters, 0u);
      EXPECT_EQ(hooks.enters, hooks.leaves);
      ++cases;
    }
  EXPECT_EQ(cases, 8);
}

// Every root child is claimed by "another thread" (tid 1) before a depth-2
// alpha-beta search: the first move is searched anyway (young brothers wait), every
// younger one answers kOnEvaluation to its exclusive search and is searched
// again in the deferred stage, so each root child but the first is entered
// twice; the value is the exact one all the same.
template <class Table>
void busy_children_are_deferred() {
  Table tt;
  tt.configure(4, 2, Replacement::DepthPreferred);
  const Position root = positions()[1];
  std::vector<std::pair<Key, TTSlot>> held;
  Position p = root;
  const MoveList moves(p);
  for (int i = 0; i < moves.size; ++i) {
    p.do_move(moves.moves[i]);
    held.emplace_back(p.key(), tt.claim(p.key(), false, 1).slot);
    p.undo_move(moves.moves[i]);
  }
  TestHooks<true> hooks;
  SearchShared shared;
  shared.options = exact(2);
  shared.options.algorithm = Algorithm::AlphaBeta;  // no PVS re-search to enter a child again
  Search<Table, TestHooks<true>> search(tt, hooks, shared);
  auto w = std::make_unique<Worker>(0);
  w->pos = root;
  const Value v = search.root(*w, -kInfinite, kInfinite, 2);

  XorTable ref_tt;
  SerialHooks serial;
  SearchShared ref_shared;
  ref_shared.options = shared.options;
  Search<XorTable, SerialHooks> ref(ref_tt, serial, ref_shared);
  auto rw = std::make_unique<Worker>(0);
  rw->pos = root;
  EXPECT_EQ(v, ref.root(*rw, -kInfinite, kInfinite, 2));
  EXPECT_EQ(hooks.enters_at_ply1, std::uint64_t(2 * moves.size - 1)) << Table::kName;
  EXPECT_EQ(hooks.enters, hooks.leaves);
  for (const auto& [key, slot] : held) tt.release(key, slot, 1);
  EXPECT_EQ(tt.total_searchers(), 0u) << Table::kName;
}

TEST(NodeSeam, BusyChildrenAnswerOnEvaluationAndAreSearchedLater) {
  busy_children_are_deferred<SpinlockTable>();
  busy_children_are_deferred<MutexTable>();
  busy_children_are_deferred<TbbSpinTable>();
  busy_children_are_deferred<XorTable>();
  busy_children_are_deferred<SandwichTable>();
  busy_children_are_deferred<UnprotectedTable>();
}

enum class Exit { Normal, Stop, Throw };

// A search of `exit` kind with table claims on; returns the hooks' counts.
template <class Table>
TestHooks<true> claimed_search(Exit exit) {
  Table tt;
  tt.configure(16, 1, Replacement::DepthPreferred);
  TestHooks<true> hooks;
  SearchShared shared;
  shared.options.limits.depth = 6;
  hooks.shared = &shared;
  hooks.defer_every = 5;
  std::function<int(Key)> count = [&tt](Key k) { return tt.searchers(k); };
  hooks.claimed_count = &count;
  if (exit == Exit::Stop) hooks.stop_after = 20000;
  if (exit == Exit::Throw) hooks.throw_after = 20000;
  bool threw = false;
  try {
    const SearchResult r = run(tt, hooks, shared, positions()[0]);
    EXPECT_EQ(r.stopped, exit == Exit::Stop);
  } catch (const std::runtime_error&) {
    threw = true;
  }
  EXPECT_EQ(threw, exit == Exit::Throw);
  // A stop at the 20000th enter: no node is entered after it. The throw
  // comes from the next move loop reached, at that node or a later one.
  if (exit == Exit::Normal) EXPECT_GT(hooks.enters, 20000u);
  else if (exit == Exit::Stop) EXPECT_EQ(hooks.enters, 20000u);
  else EXPECT_GE(hooks.enters, 20000u);
  EXPECT_EQ(hooks.enters, hooks.leaves) << Table::kName;
  EXPECT_EQ(tt.total_searchers(), 0u) << Table::kName;
  return hooks;
}

template <class Table>
void balanced_on_every_exit() {
  for (const Exit e : {Exit::Normal, Exit::Stop, Exit::Throw}) {
    const TestHooks<true> h = claimed_search<Table>(e);
    // While a node runs it holds its claim: seen at most leaves (a claim
    // finds no room only in a full bucket, rare in a table this large).
    if constexpr (Table::kCountsSearchers) EXPECT_GT(h.claimed_seen, h.leaves / 2) << Table::kName;
    else EXPECT_EQ(h.claimed_seen, 0u);
  }
}

TEST(NodeSeam, EnterLeaveAndClaimsBalanceOnEveryExitForEveryScheme) {
  balanced_on_every_exit<PerThreadTable>();
  balanced_on_every_exit<SpinlockTable>();
  balanced_on_every_exit<MutexTable>();
  balanced_on_every_exit<TbbSpinTable>();
  balanced_on_every_exit<XorTable>();
  balanced_on_every_exit<SandwichTable>();
  balanced_on_every_exit<UnprotectedTable>();
}

}  // namespace
}  // namespace xq
