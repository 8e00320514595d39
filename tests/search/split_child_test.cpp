// The node function's child search at a split point (search/split_child.h):
// a thread that took a younger brother with an alpha that other threads
// raised since tests its null-window result against the node's current
// alpha (SplitContext::live_alpha) before re-searching. Driven on one thread
// by hooks that "split" the root and search every younger brother from the
// alpha of the split, as if each had been taken before any other returned.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "hashing/schemes.h"
#include "search/driver.h"

namespace xq {
namespace {

struct StaleSplitHooks : SerialHooks {
  static constexpr bool kSplits = true;
  bool publish_live_alpha = false;
  std::uint64_t splits = 0;

  bool want_split(const Worker&, const SplitContext& ctx) const { return ctx.ply == 0; }
  template <class SearchMove>
  void split(Worker& w, SplitContext& ctx, SearchMove&& search_move) {
    ++splits;
    const Value stale = ctx.alpha;
    std::atomic<Value> live{ctx.alpha};
    if (publish_live_alpha) ctx.live_alpha = &live;
    for (Move m = ctx.picker->next(); m; m = ctx.picker->next()) {
      if (!w.pos.is_legal(m)) continue;
      const Value v = search_move(w, m, ctx.picker->ordinal(), stale, ctx);
      ++ctx.moves_searched;
      if (v <= ctx.best_value) continue;
      ctx.best_value = v;
      ctx.best_move = m;
      if (v <= ctx.alpha) continue;
      ctx.alpha = v;
      live.store(v, std::memory_order_relaxed);
      set_line(w.pv[std::size_t(ctx.ply)], m, w.pv[std::size_t(ctx.ply) + 1]);
      if (v >= ctx.beta) break;
    }
    ctx.live_alpha = nullptr;
    ctx.cutoff = ctx.best_value >= ctx.beta;
  }
};

template <class Hooks>
SearchResult run(Hooks& hooks, const Position& pos, Depth depth) {
  XorTable tt;
  SearchShared shared;
  shared.options.exact = true;
  shared.options.limits.depth = depth;
  Search<XorTable, Hooks> search(tt, hooks, shared);
  auto w = std::make_unique<Worker>(0);
  w->pos = pos;
  return iterative_deepening(search, *w, shared, nullptr);
}

TEST(SplitChild, LiveAlphaKeepsTheValueAndSavesReSearches) {
  const char* const fens[] = {
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
      "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
      "2bak4/4a4/4b4/p3C4/2p6/9/P8/4B4/4A4/3AK4 w - - 0 1"};
  std::uint64_t stale_nodes = 0, live_nodes = 0;
  int cases = 0;
  for (const char* fen : fens) {
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "") << fen;
    for (const Depth d : {4, 5}) {
      SerialHooks serial;
      const SearchResult ref = run(serial, pos, d);
      StaleSplitHooks stale, live;
      live.publish_live_alpha = true;
      const SearchResult a = run(stale, pos, d);
      const SearchResult b = run(live, pos, d);
      EXPECT_EQ(a.score, ref.score) << fen << " depth " << d;
      EXPECT_EQ(b.score, ref.score) << fen << " depth " << d;
      EXPECT_GT(live.splits, 0u);
      stale_nodes += a.stats.nodes;
      live_nodes += b.stats.nodes;
      ++cases;
    }
  }
  EXPECT_EQ(cases, 6);
  // Stale alpha re-searches root moves the raised alpha would have refuted
  // with a null window; the live alpha avoids that.
  EXPECT_LT(live_nodes, stale_nodes);
}

}  // namespace
}  // namespace xq
