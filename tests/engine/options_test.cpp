// Engine options: every listed option round-trips through set/get, bad names
// and values are refused in one line leaving everything unchanged, the
// options map onto BackendConfig, and changes during a search take effect
// for the next one.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/engine/engine_util.h"

namespace xq {
namespace {

std::string error_of(EngineOptions& o, std::string_view name, std::string_view value) {
  try {
    o.set(name, value);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(EngineOptions, DefaultsAreTheSpecsDefaults) {
  const EngineOptions o;
  int ran = 0;
  for (const OptionSpec& s : EngineOptions::specs()) {
    if (s.type == OptionType::Button) continue;
    EXPECT_EQ(o.get(s.name), s.default_value) << s.name;
    ++ran;
  }
  EXPECT_EQ(ran, int(EngineOptions::specs().size()) - 1);  // one button: Clear Hash
  EXPECT_GE(ran, 9);
}

// The Features option: "profile" (the default) follows Profile; a list as
// --features takes replaces it ("modern-lmr": the modern set less one
// feature, the ablation's row); a bad list is refused with the option's name
// and the value stays.
TEST(EngineOptions, FeaturesOverrideTheProfile) {
  EngineOptions o;
  EXPECT_EQ(o.get("Features"), "profile");
  EXPECT_EQ(o.features().to_string(), Features::thesis().to_string());
  o.set("Profile", "modern");
  EXPECT_EQ(o.features().to_string(), Features::modern().to_string());
  EXPECT_EQ(o.set("features", "modern-lmr"), OptionEffect::None);
  Features want = Features::modern();
  want.lmr = false;
  EXPECT_EQ(o.features().to_string(), want.to_string());
  EXPECT_EQ(o.get("Features"), "modern-lmr");
  const std::string err = error_of(o, "Features", "modern-lmrx");
  EXPECT_NE(err.find("option Features: unknown search feature 'lmrx'"), std::string::npos) << err;
  EXPECT_EQ(o.get("Features"), "modern-lmr");
  o.set("Features", "profile");
  EXPECT_EQ(o.features().to_string(), Features::modern().to_string());
}

TEST(EngineOptions, ValuesMapOntoTheBackendConfig) {
  EngineOptions o;
  EXPECT_EQ(o.set("threads", "3"), OptionEffect::Rebuild);  // names are case-insensitive
  o.set("Hash", "64");
  o.set("Backend", "ybwc");
  o.set("replacement", "twotier");
  o.set("min_split_depth", "2");
  o.set("max_splits_per_thread", "5");
  o.set("omp_schedule", "dynamic");
  EXPECT_EQ(o.set("Move Overhead", "250"), OptionEffect::None);
  EXPECT_EQ(o.set("clear hash", ""), OptionEffect::Clear);
  const BackendConfig c = o.backend_config();
  EXPECT_EQ(c.threads, 3);
  EXPECT_EQ(c.hash_mib, 64u);
  EXPECT_EQ(c.replacement, Replacement::TwoTier);
  EXPECT_EQ(c.param("min_split_depth"), 2);
  EXPECT_EQ(c.param("max_splits_per_thread"), 5);
  EXPECT_TRUE(c.param("omp_schedule"));
  EXPECT_EQ(o.backend(), "ybwc");
  EXPECT_EQ(o.move_overhead_ms(), 250);
  // HashScheme "default" follows the backend's own pairing.
  EXPECT_EQ(c.hash, std::string(find_backend("ybwc").default_hash));
  o.set("Backend", "pvsplit");
  EXPECT_EQ(o.backend_config().hash, std::string(find_backend("pvsplit").default_hash));
  o.set("HashScheme", "spinlock");
  EXPECT_EQ(o.backend_config().hash, "spinlock");
}

TEST(EngineOptions, BadNamesAndValuesAreRefusedInOneLine) {
  EngineOptions o;
  o.set("Threads", "2");
  struct Case {
    const char* name;
    const char* value;
    const char* expect;
  };
  const Case cases[] = {
      {"Threads", "0", "option Threads: 0 is outside [1, 256]"},
      {"Threads", "257", "outside [1, 256]"},
      {"Threads", "two", "option Threads: 'two' is not an integer"},
      {"Threads", "2x", "is not an integer"},
      {"Threads", "", "is not an integer"},
      {"Hash", "0", "option Hash: 0 is outside"},
      {"Hash", "99999999999999999999999", "is not an integer"},
      {"Backend", "bogus", "option Backend: 'bogus' is not one of: serial"},
      {"HashScheme", "nope", "option HashScheme: 'nope' is not one of"},
      {"replacement", "sometimes", "is not one of: depth, always, twotier"},
      {"omp_schedule", "yes", "is not one of: static, dynamic"},
      {"Move Overhead", "-1", "outside [0, 5000]"},
      {"Ponder", "true", "unknown option 'Ponder' (known: Threads, Hash"},
      {"\x07" "bell", "1", "unknown option '\\x07bell'"},
  };
  int ran = 0;
  for (const Case& c : cases) {
    const std::string err = error_of(o, c.name, c.value);
    EXPECT_NE(err.find(c.expect), std::string::npos) << c.name << "=" << c.value << ": " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos);
    EXPECT_LE(err.size(), 200u) << err;
    EXPECT_EQ(o.get("Threads"), "2");  // unchanged
    ++ran;
  }
  EXPECT_EQ(ran, 14);
}

TEST(EngineOptions, EngineRebuildsItsBackendBetweenSearchesOnly) {
  Engine e;
  test::Collector running;
  e.go(test::infinite(), running.callbacks());
  e.set_option("Backend", "ybwc");  // during the search: pending
  e.set_option("Threads", "2");
  e.set_option("min_split_depth", "2");
  EXPECT_THROW(e.set_option("Threads", "0"), std::invalid_argument);
  e.set_option("Clear Hash", "");
  EXPECT_EQ(e.options().get("Backend"), "ybwc");
  EXPECT_TRUE(e.searching());
  e.stop();
  ASSERT_TRUE(running.result().has_value());
  e.wait();
  test::Collector next;
  e.go(test::to_depth(5), next.callbacks());
  const std::optional<SearchResult> r = next.result();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->depth, 5);
  EXPECT_GT(r->stats.splits, 0u);  // the serial backend it replaced never splits
  EXPECT_EQ(e.options().get("Threads"), "2");
}

// The Profile option picks the search's features: thesis searches without
// the modern profile's reductions and pruning, modern with them; a bad value
// is refused in one line and changes nothing.
TEST(EngineOptions, ProfileChoosesTheSearchFeatures) {
  Engine e;
  EXPECT_EQ(e.options().get("Profile"), "thesis");
  int searched = 0;
  for (const char* profile : {"thesis", "modern"}) {
    e.set_option("Profile", profile);
    EXPECT_EQ(e.options().get("Profile"), profile);
    test::Collector c;
    e.go(test::to_depth(7), c.callbacks());
    const std::optional<SearchResult> r = c.result();
    ASSERT_TRUE(r.has_value());
    e.wait();
    EXPECT_EQ(r->stats.reductions > 0, std::string(profile) == "modern") << profile;
    ++searched;
  }
  EXPECT_EQ(searched, 2);
  EngineOptions o;
  EXPECT_NE(error_of(o, "Profile", "stockfish"), "");
  EXPECT_EQ(o.get("Profile"), "thesis");
}

TEST(EngineOptions, ARefusedOptionLeavesTheEngineWorking) {
  Engine e;
  EXPECT_THROW(e.set_option("Backend", "nonesuch"), std::invalid_argument);
  EXPECT_THROW(e.set_option("NoSuchOption", "1"), std::invalid_argument);
  EXPECT_EQ(e.options().get("Backend"), "serial");
  test::Collector c;
  e.go(test::to_depth(2), c.callbacks());
  const std::optional<SearchResult> r = c.result();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->depth, 2);
}

// Tunable parameters are options by their names (search/tunables.h): the
// search constants reach the next search, the evaluation's weights become
// the process's when the engine next searches (never during a search), and
// the root position is re-scored with them.
TEST(EngineOptions, TunableParametersReachTheSearch) {
  struct Restore {
    ~Restore() {
      set_eval_params(EvalParams{});
      set_knowledge_params(KnowledgeParams{});
    }
  } restore;
  Engine e;
  e.set_option("Profile", "modern");
  auto nodes_at_7 = [&] {
    test::Collector c;
    e.go(test::to_depth(7), c.callbacks());
    const std::optional<SearchResult> r = c.result();
    e.wait();
    e.set_option("Clear Hash", "");
    return r ? std::uint64_t(r->stats.nodes) : std::uint64_t(0);
  };
  const std::uint64_t base = nodes_at_7();
  e.set_option("lmr_scale", "150");
  EXPECT_EQ(e.options().get("lmr_scale"), "150");
  EXPECT_NE(nodes_at_7(), base) << "lmr_scale did not reach the search";
  e.set_option("lmr_scale", "52");
  EXPECT_EQ(nodes_at_7(), base);

  // Red a rook and a horse up: the score at depth 1 follows the rook's value.
  const std::string fen = "rnbakab2/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
  auto score_at_1 = [&] {
    e.set_position(fen, {});
    test::Collector c;
    e.go(test::to_depth(1), c.callbacks());
    const std::optional<SearchResult> r = c.result();
    e.wait();
    return r ? r->score : 0;
  };
  // The modern profile's evaluation has weights of its own (the knowledge
  // feature); the thesis profile's are the thesis's.
  const Value plain = score_at_1();
  const Value modern_rook = knowledge_params().base.piece[index(PieceType::Rook)];
  test::Collector running;
  e.go(test::infinite(), running.callbacks());
  e.set_option("modern_value_rook", std::to_string(modern_rook + 300));  // during a search: pending
  EXPECT_EQ(knowledge_params().base.piece[index(PieceType::Rook)], modern_rook);
  e.stop();
  e.wait();
  const Value richer = score_at_1();
  EXPECT_EQ(knowledge_params().base.piece[index(PieceType::Rook)], modern_rook + 300);
  EXPECT_GE(richer - plain, 250) << plain << " -> " << richer;
  e.set_option("modern_value_rook", std::to_string(modern_rook));
  EXPECT_EQ(score_at_1(), plain);

  e.set_option("Profile", "thesis");
  const Value thesis_plain = score_at_1();
  test::Collector running_thesis;
  e.go(test::infinite(), running_thesis.callbacks());
  e.set_option("value_rook", "900");  // during a search: pending
  EXPECT_EQ(eval_params().piece[index(PieceType::Rook)], 600);
  e.stop();
  e.wait();
  const Value thesis_richer = score_at_1();
  EXPECT_EQ(eval_params().piece[index(PieceType::Rook)], 900);
  EXPECT_GE(thesis_richer - thesis_plain, 250) << thesis_plain << " -> " << thesis_richer;
  e.set_option("value_rook", "600");
  EXPECT_EQ(score_at_1(), thesis_plain);
  EngineOptions o;
  EXPECT_NE(error_of(o, "value_rook", "100"), "");
  EXPECT_EQ(o.get("value_rook"), "600");
}

}  // namespace
}  // namespace xq
