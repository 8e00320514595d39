// Features::parse / to_string and parse_algorithm: round trips and rejections.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "search/options.h"

namespace xq {
namespace {

constexpr const char* kNames[] = {"tt",       "ttmove",  "mvvlva",  "killers",   "history",
                                  "null",     "checkext", "qsearch", "aspiration"};
constexpr int kCount = int(std::size(kNames));

bool Features::*const kFlags[] = {&Features::tt,       &Features::ttmove,  &Features::mvvlva,
                                   &Features::killers,  &Features::history, &Features::null,
                                   &Features::checkext, &Features::qsearch, &Features::aspiration};

Features from_mask(unsigned mask) {
  Features f = Features::none();
  for (int i = 0; i < kCount; ++i) f.*kFlags[i] = (mask >> i) & 1;
  return f;
}
unsigned to_mask(const Features& f) {
  unsigned mask = 0;
  for (int i = 0; i < kCount; ++i) mask |= unsigned(f.*kFlags[i]) << i;
  return mask;
}

TEST(SearchFeatures, AllAndNone) {
  EXPECT_EQ(to_mask(Features::parse("all")), (1u << kCount) - 1);
  EXPECT_EQ(to_mask(Features::all()), (1u << kCount) - 1);
  EXPECT_EQ(to_mask(Features::parse("none")), 0u);
  EXPECT_EQ(Features::none().to_string(), "none");
}

TEST(SearchFeatures, EachNameSetsItsOwnFlag) {
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(to_mask(Features::parse(kNames[i])), 1u << i) << kNames[i];
    EXPECT_EQ(Features::parse(kNames[i]).to_string(), kNames[i]);
  }
}

TEST(SearchFeatures, EverySubsetRoundTrips) {
  for (unsigned mask = 0; mask < (1u << kCount); ++mask) {
    const Features f = from_mask(mask);
    const std::string text = f.to_string();
    ASSERT_EQ(to_mask(Features::parse(text)), mask) << text;
  }
}

TEST(SearchFeatures, OrderAndDuplicatesDoNotMatter) {
  EXPECT_EQ(to_mask(Features::parse("null,tt,tt")), to_mask(Features::parse("tt,null")));
}

TEST(SearchFeatures, RejectsUnknownNames) {
  for (const char* bad : {"ttt", "TT", "tt,nul", "tt,,null", "", ",", "tt ", "all,ttt", "tt-",
                          "modern-", "+", "modern-lmrx", "thesis+-"}) {
    try {
      (void)Features::parse(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("unknown search feature"), std::string::npos) << bad;
    }
  }
}

// Sets add, '-' removes, left to right; '+' separates as ',' does. The
// ablation's row names ("modern-lmr", "+lmr" after "thesis") parse to the
// rows' feature sets.
TEST(SearchFeatures, SetsAddAndMinusRemoves) {
  Features no_lmr = Features::modern();
  no_lmr.lmr = false;
  EXPECT_EQ(Features::parse("modern-lmr").to_string(), no_lmr.to_string());
  EXPECT_EQ(Features::parse("modern,-lmr").to_string(), no_lmr.to_string());
  Features thesis_lmr = Features::thesis();
  thesis_lmr.lmr = true;
  EXPECT_EQ(Features::parse("thesis+lmr").to_string(), thesis_lmr.to_string());
  EXPECT_EQ(Features::parse("thesis,lmr").to_string(), thesis_lmr.to_string());
  EXPECT_EQ(Features::parse("modern-lmr+lmr").to_string(), Features::modern().to_string());
  EXPECT_EQ(Features::parse("lmr-lmr").to_string(), "none");
  EXPECT_EQ(Features::parse("-lmr").to_string(), "none");
  EXPECT_EQ(Features::parse("all-modern").to_string(), "none");
  EXPECT_EQ(to_mask(Features::parse("modern-thesis")), 0u);
  EXPECT_FALSE(Features::parse("modern-thesis").tt);
  EXPECT_TRUE(Features::parse("modern-thesis").lmr);
  EXPECT_EQ(Features::parse("all,tt").to_string(), Features::all().to_string());
  EXPECT_EQ(Features::parse("thesis-null-aspiration").to_string(),
            "tt,ttmove,mvvlva,killers,history,checkext,qsearch");
}

TEST(SearchFeatures, ErrorNamesTheItem) {
  try {
    (void)Features::parse("tt,nullmove");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'nullmove'"), std::string::npos) << e.what();
  }
}

TEST(SearchFeatures, AlgorithmsRoundTrip) {
  for (Algorithm a : {Algorithm::Pvs, Algorithm::AlphaBeta, Algorithm::Mtdf})
    EXPECT_EQ(parse_algorithm(algorithm_name(a)), a);
  EXPECT_EQ(parse_algorithm("ab"), Algorithm::AlphaBeta);
  EXPECT_THROW((void)parse_algorithm("negascout"), std::invalid_argument);
  EXPECT_THROW((void)parse_algorithm(""), std::invalid_argument);
}

}  // namespace
}  // namespace xq
