// The tuners' parts (lab/games/tuning.h, evolve.h, spsa.h): what --params
// names, the genetic algorithm's binary coding and adaptive probabilities,
// SPSA's gain sequences, and checkpoints that read back.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "lab/games/evolve.h"
#include "lab/games/spsa.h"

namespace xq::lab::games {
namespace {

TEST(TunedParams, GroupsAndListsInTheTablesOrder) {
  EXPECT_EQ(parse_tuned_params("eval").size(), 16u);
  EXPECT_EQ(parse_tuned_params("all").size(), tunable_params().size());
  EXPECT_EQ(parse_tuned_params("knowledge").size(), 21u);
  EXPECT_EQ(parse_tuned_params("search").size() + 16u + 21u, tunable_params().size());
  const auto two = parse_tuned_params("value_pawn,value_rook");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0]->name, "value_rook");  // the table's order, not the list's
  EXPECT_EQ(two[1]->name, "value_pawn");
  int refused = 0;
  for (const char* bad : {"value_rook,value_rook", "value_queen", "", "eval,search"}) {
    EXPECT_THROW(parse_tuned_params(bad), std::invalid_argument) << bad;
    ++refused;
  }
  EXPECT_EQ(refused, 4);
}

EvolveConfig config_of(const std::string& params) {
  EvolveConfig c;
  c.setup.params = parse_tuned_params(params);
  return c;
}

TEST(EvolveCoding, WindowsAroundTheDefaultsAndCodesThatRoundTrip) {
  const EvolveConfig c = config_of("all");
  const std::vector<GeneCoding> genes = gene_codings(c);
  ASSERT_EQ(genes.size(), c.setup.params.size());
  std::size_t width = 0;
  for (std::size_t i = 0; i < genes.size(); ++i) {
    const TunableParam& p = *c.setup.params[i];
    EXPECT_LE(p.min, genes[i].lo) << p.name;
    EXPECT_GE(p.max, genes[i].hi) << p.name;
    EXPECT_LE(genes[i].lo, p.default_value()) << p.name;
    EXPECT_GE(genes[i].hi, p.default_value()) << p.name;
    EXPECT_LT(genes[i].lo, genes[i].hi) << p.name;
    EXPECT_GE(genes[i].bits, 1);
    EXPECT_LE(genes[i].bits, 10);
    width += std::size_t(genes[i].bits);
  }
  // The defaults come back exactly where the window has a code per value,
  // and within half a step everywhere.
  const std::vector<int> d = default_values(c.setup);
  const std::vector<int> back = decode(genes, encode(genes, d));
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double step = double(genes[i].hi - genes[i].lo) / double((1 << genes[i].bits) - 1);
    EXPECT_LE(std::abs(back[i] - d[i]), step / 2 + 0.5) << c.setup.params[i]->name;
    if (step <= 1) EXPECT_EQ(back[i], d[i]) << c.setup.params[i]->name;
  }
  // Every code decodes inside the window, and re-encodes to itself.
  std::mt19937_64 rng(3);
  int codes = 0;
  for (int round = 0; round < 200; ++round) {
    std::string bits(width, '0');
    for (char& b : bits) b = rng() & 1 ? '1' : '0';
    const std::vector<int> v = decode(genes, bits);
    for (std::size_t i = 0; i < v.size(); ++i) {
      EXPECT_GE(v[i], genes[i].lo);
      EXPECT_LE(v[i], genes[i].hi);
    }
    EXPECT_EQ(decode(genes, encode(genes, v)), v);
    ++codes;
  }
  EXPECT_EQ(codes, 200);
}

TEST(EvolveCoding, AdaptiveProbabilitiesFollowTheBoundedRule) {
  const EvolveConfig c;
  // Fittest: the least; average: the most; below average: the most.
  EXPECT_DOUBLE_EQ(adaptive_pc(c, 0.8, 0.5, 0.8), 0.6);
  EXPECT_DOUBLE_EQ(adaptive_pc(c, 0.5, 0.5, 0.8), 0.9);
  EXPECT_DOUBLE_EQ(adaptive_pc(c, 0.3, 0.5, 0.8), 0.9);
  EXPECT_NEAR(adaptive_pc(c, 0.65, 0.5, 0.8), 0.75, 1e-12);
  EXPECT_DOUBLE_EQ(adaptive_pm(c, 0.8, 0.5, 0.8), 0.001);
  EXPECT_DOUBLE_EQ(adaptive_pm(c, 0.5, 0.5, 0.8), 0.1);
  EXPECT_DOUBLE_EQ(adaptive_pm(c, 0.1, 0.5, 0.8), 0.1);
  EXPECT_NEAR(adaptive_pm(c, 0.65, 0.5, 0.8), 0.0505, 1e-12);
  // A population of equals: the most of both (no division by zero).
  EXPECT_DOUBLE_EQ(adaptive_pc(c, 0.5, 0.5, 0.5), 0.9);
  EXPECT_DOUBLE_EQ(adaptive_pm(c, 0.5, 0.5, 0.5), 0.1);
}

TEST(EvolveCoding, GenerationZeroHoldsTheDefaultsAndAnEvenPopulation) {
  EvolveConfig c = config_of("eval");
  c.population = 6;
  const EvolveState s = first_generation(c);
  ASSERT_EQ(s.population.size(), 6u);
  const std::vector<GeneCoding> genes = gene_codings(c);
  EXPECT_EQ(s.population[0], encode(genes, default_values(c.setup)));
  c.population = 5;
  EXPECT_THROW(first_generation(c), std::invalid_argument);
  c.population = 2;
  EXPECT_THROW(first_generation(c), std::invalid_argument);
}

TEST(SpsaGains, ReachTheirEndValuesAtTheLastIteration) {
  SpsaConfig c;
  c.setup.params = parse_tuned_params("value_rook,lmr_base");
  c.iterations = 500;
  int checked = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    const TunableParam& p = *c.setup.params[i];
    const double c_end = std::max(1.0, c.c_end * double(p.max - p.min));
    EXPECT_NEAR(spsa_c(c, i, c.iterations), c_end, 1e-9 * c_end) << p.name;
    const double ck = spsa_c(c, i, c.iterations);
    EXPECT_NEAR(spsa_a(c, i, c.iterations) / (ck * ck), c.r_end, 1e-12) << p.name;
    // Both decrease with k.
    EXPECT_GT(spsa_c(c, i, 1), spsa_c(c, i, 2));
    EXPECT_GT(spsa_a(c, i, 1), spsa_a(c, i, 2));
    ++checked;
  }
  EXPECT_EQ(checked, 2);
  // round(theta), clipped to the ranges.
  EXPECT_EQ(spsa_values(c, {649.5, -3.0}), (std::vector<int>{650, 0}));
}

TEST(TuningCheckpoints, ReadBackAndRefuseAnotherConfiguration) {
  EvolveConfig e = config_of("value_rook,value_pawn");
  e.population = 4;
  EvolveState s = first_generation(e);
  s.generation = 0;
  const EvolveState back = state_from_json(e, Json::parse(evolve_json(e, s).dump()));
  EXPECT_EQ(back.population, s.population);
  EvolveConfig other = e;
  other.seed = 2;
  EXPECT_THROW(state_from_json(other, evolve_json(e, s)), std::invalid_argument);
  EXPECT_THROW(state_from_json(e, Json{{"kind", "spsa"}}), std::invalid_argument);
  SpsaConfig c;
  c.setup.params = parse_tuned_params("value_rook");
  SpsaState t = spsa_start(c);
  t.theta = {612.125};
  const SpsaState tb = spsa_state_from_json(c, Json::parse(spsa_json(c, t).dump()));
  EXPECT_EQ(tb.theta, t.theta);
  const Json written = spsa_json(c, t);
  c.pairs = 3;
  EXPECT_THROW(spsa_state_from_json(c, written), std::invalid_argument);
}

}  // namespace
}  // namespace xq::lab::games
