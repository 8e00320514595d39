// The search profiles (search/options.h): the names, the feature sets, that
// exact mode removes every modern feature that prunes, reduces or extends,
// and that each modern feature changes the search it is added to.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "lab/common/suite.h"
#include "parallel/backend.h"

namespace xq {
namespace {

constexpr const char* kModernOnly[] = {"lmr",      "histgravity", "rfp",      "razor",
                                       "lmp",      "futility",    "see",      "nullplus",
                                       "iir",      "probcut",     "singular", "aspdelta",
                                       "knowledge"};

TEST(SearchProfile, NamesAndSets) {
  EXPECT_EQ(Features::parse("thesis").to_string(), Features::thesis().to_string());
  EXPECT_EQ(Features::thesis().to_string(),
            "tt,ttmove,mvvlva,killers,history,null,checkext,qsearch,aspiration");
  EXPECT_EQ(Features::parse("modern").to_string(), Features::modern().to_string());
  EXPECT_EQ(Features::all().to_string(), Features::modern().to_string());
  EXPECT_EQ(profile_name(profile_features("thesis")), "thesis");
  EXPECT_EQ(profile_name(profile_features("modern")), "modern");
  EXPECT_EQ(profile_name(Features::parse("tt,lmr")), "custom");
  EXPECT_FALSE(Features::thesis().selective());
  EXPECT_TRUE(Features::modern().selective());
  int checked = 0;
  for (const char* x : kModernOnly) {
    const Features one = Features::parse(x);
    EXPECT_EQ(one.to_string(), x);
    EXPECT_EQ(Features::parse(Features::modern().to_string()).to_string(),
              Features::modern().to_string());
    EXPECT_NE(Features::modern().to_string().find(x), std::string::npos) << x;
    EXPECT_EQ(Features::thesis().to_string().find(x), std::string::npos) << x;
    ++checked;
  }
  EXPECT_EQ(checked, 13);
  // stability moves a clock's soft limit only (no node count changes, so the
  // ablation leaves it out): in the modern profile, not in the thesis's.
  EXPECT_TRUE(Features::modern().stability);
  EXPECT_FALSE(Features::thesis().stability);
  EXPECT_FALSE(Features::thesis().selective() || Features::parse("stability").selective());
  EXPECT_EQ(Features::parse("stability").to_string(), "stability");
  try {
    (void)profile_features("stockfish");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'stockfish' (known: thesis, modern)"),
              std::string::npos)
        << e.what();
  }
}

SearchResult search(const Position& pos, const Features& f, Depth depth, bool exact = false,
                    const SearchTuning& tuning = {}) {
  BackendConfig c;
  c.hash_mib = 4;
  auto serial = make_backend("serial", c);
  SearchOptions o;
  o.features = f;
  o.tuning = tuning;
  o.exact = exact;
  o.limits.depth = depth;
  Observer quiet;
  return serial->search(pos, o, quiet);
}

std::vector<Position> middlegames(std::size_t n) {
  std::vector<Position> out;
  for (const auto& e : lab::common::load_suite(lab::common::data_dir() + "/middlegames.csv"))
    if (out.size() < n) out.push_back(e.pos);
  return out;
}

// Exact mode searches the minimax value whatever the profile: the modern
// profile's pruning, reductions and extensions are off there, its move
// ordering (histgravity) may stay; its evaluation's knowledge is off too, so
// that the stored exact values (the thesis's) hold for every profile.
TEST(SearchProfile, ExactModeValueIsTheThesisValue) {
  int checked = 0;
  for (const Position& p : middlegames(4)) {
    for (Depth d : {3, 4}) {
      const SearchResult thesis = search(p, Features::thesis(), d, true);
      const SearchResult modern = search(p, Features::modern(), d, true);
      EXPECT_EQ(modern.score, thesis.score) << p.fen() << " depth " << d;
      EXPECT_EQ(modern.stats.reductions + modern.stats.pruned_moves + modern.stats.static_cutoffs +
                    modern.stats.singular_extensions + modern.stats.null_tries,
                0u)
          << p.fen();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8);
}

// The thesis profile never reaches the modern features' code (their
// counters stay 0); the modern one prunes, reduces and cuts, and reaches
// depth 8 in fewer nodes.
TEST(SearchProfile, ModernSearchesSelectively) {
  std::uint64_t thesis_nodes = 0, modern_nodes = 0;
  SearchStats modern_stats;
  int checked = 0;
  for (const Position& p : middlegames(3)) {
    const SearchResult t = search(p, Features::thesis(), 8);
    const SearchResult m = search(p, Features::modern(), 8);
    ASSERT_TRUE(t.completed && m.completed);
    EXPECT_TRUE(MoveList(p).contains(m.best_move)) << p.fen();
    EXPECT_EQ(t.stats.reductions + t.stats.pruned_moves + t.stats.static_cutoffs +
                  t.stats.singular_extensions,
              0u);
    thesis_nodes += t.stats.nodes;
    modern_nodes += m.stats.nodes;
    modern_stats += m.stats;
    ++checked;
  }
  EXPECT_EQ(checked, 3);
  EXPECT_LT(modern_nodes, thesis_nodes);
  EXPECT_GT(modern_stats.reductions, 0u);
  EXPECT_GT(modern_stats.reduction_researches, 0u);
  EXPECT_GT(modern_stats.pruned_moves, 0u);
  EXPECT_GT(modern_stats.static_cutoffs, 0u);
  EXPECT_GT(modern_stats.null_cutoffs, 0u);
}

// Each modern feature, added alone to the thesis profile, changes the
// search (its node count at depth 7 on at least one of the positions): no
// feature is dead code. Singular extension starts at depth 8 by default,
// which a depth-7 search never reaches: here it starts at 5.
TEST(SearchProfile, EachModernFeatureChangesTheSearch) {
  const std::vector<Position> ps = middlegames(3);
  SearchTuning tuning;
  tuning.singular_depth = 5;
  std::vector<std::uint64_t> base;
  for (const Position& p : ps) base.push_back(search(p, Features::thesis(), 7).stats.nodes);
  int checked = 0;
  for (const char* x : kModernOnly) {
    const Features f = Features::parse(Features::thesis().to_string() + "," + x);
    bool changed = false;
    for (std::size_t i = 0; i < ps.size() && !changed; ++i)
      changed = search(ps[i], f, 7, false, tuning).stats.nodes != base[i];
    EXPECT_TRUE(changed) << x << " changed no node count";
    ++checked;
  }
  EXPECT_EQ(checked, 13);
}

}  // namespace
}  // namespace xq
