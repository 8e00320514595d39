// The format mini-language of docs/targets.json and the selection of one
// element (lab/report/targets_format.h, targets_compute.h).
#include "lab/report/targets_format.h"

#include <gtest/gtest.h>

#include "lab/report/targets_compute.h"

namespace xq::lab::report::targets {
namespace {

struct SpecCase {
  Json value;
  const char* spec;
  const char* text;
};

// Each spec of the schema; rounding is snprintf's on the binary value, as
// Python's format() rounds it (2.675 is 2.67499999... in binary); "d" rounds
// a fraction half away from zero (a lab document's mean critical path).
const SpecCase kSpecCases[] = {
    {1.9089, ".3f", "1.909"},
    {1.0, ".3f", "1.000"},
    {2, ".3f", "2.000"},
    {2.675, ".2f", "2.67"},
    {0.125, ".2f", "0.12"},
    {0.375, ".2f", "0.38"},
    {13.8, ".1f", "13.8"},
    {-0.04, ".1f", "0.0"},
    {-0.0, ".3f", "0.000"},
    {-0.0004, ".3f", "0.000"},
    {-0.0006, ".3f", "-0.001"},
    {190.848501887865, "+.1f", "+190.8"},
    {-33.06, "+.1f", "-33.1"},
    {0.0, "+.1f", "+0.0"},
    {-0.04, "+.1f", "+0.0"},
    {0.00512, ".1p", "0.5"},
    {0.2059, ".1p", "20.6"},
    {-0.0001, ".1p", "0.0"},
    {1, ".0p", "100"},
    {11673208, ",d", "11,673,208"},
    {-1234567, ",d", "-1,234,567"},
    {999, ",d", "999"},
    {1000, ",d", "1,000"},
    {0, ",d", "0"},
    {5.0, ",d", "5"},
    {11673207.5, ",d", "11,673,208"},
    {2.5, "d", "3"},
    {-2.5, "d", "-3"},
    {1.4, "d", "1"},
    {32, "d", "32"},
    {-7, "d", "-7"},
    {1234567, "d", "1234567"},
    {"ybwc", "", "ybwc"},
    {36, "", "36"},
    {1.5, "", "1.5"},
    {true, "", "true"},
};

TEST(TargetsFormat, EachSpecPrintsAsPythonWould) {
  int ran = 0;
  for (const SpecCase& c : kSpecCases) {
    EXPECT_EQ(format_value(c.value, c.spec), c.text) << c.value.dump() << " through '" << c.spec
                                                     << "'";
    ++ran;
  }
  EXPECT_EQ(ran, 36);
}

TEST(TargetsFormat, UnknownSpecsAndWrongValuesThrow) {
  const SpecCase bad[] = {
      {1.5, ".3x", ""},   {1.5, "x", ""},   {1.5, "+.1p", ""}, {1.5, ".f", ""},
      {1, "+d", ""},      {"1.5", ".3f", ""}, {"7", "d", ""}, {nullptr, ".1p", ""},
      {1e300, ",d", ""},
  };
  int ran = 0;
  for (const SpecCase& c : bad) {
    EXPECT_THROW(format_value(c.value, c.spec), TargetError) << c.value.dump() << " '" << c.spec;
    ++ran;
  }
  EXPECT_EQ(ran, 9);
}

TEST(TargetsFormat, FillsPlaceholdersFromPaths) {
  const Json e = Json::parse(R"({"backend": "ybwc", "elo": -33.06, "elo_ci": [-84.6, 17.04],
                                 "loss": {"idle": 0.206}, "wins": 84})");
  const PathLookup at = [&](std::string_view p) { return json_at_path(e, p); };
  EXPECT_EQ(fill_format("{backend} +{wins}, Elo {elo:+.1f} [{elo_ci.0:+.1f}, {elo_ci.1:+.1f}]"
                        ", idle {loss.idle:.1p} %", at),
            "ybwc +84, Elo -33.1 [-84.6, +17.0], idle 20.6 %");
  EXPECT_EQ(fill_format("no placeholder } at all", at), "no placeholder } at all");
  EXPECT_EQ(json_at_path(e, "elo_ci.2"), nullptr);
  EXPECT_EQ(json_at_path(e, "loss..idle"), nullptr);
  EXPECT_EQ(json_at_path(e, "elo_ci.x"), nullptr);
}

TEST(TargetsFormat, BadPlaceholdersNameThemselves) {
  const Json e = Json::parse(R"({"speedup": 1.5, "name": "x"})");
  const PathLookup at = [&](std::string_view p) { return json_at_path(e, p); };
  const std::pair<const char*, const char*> cases[] = {
      {"S {speedup:.3f", "unclosed"},
      {"S {:.3f}", "bad placeholder '{:.3f}'"},
      {"S {missing:.3f}", "no 'missing'"},
      {"S {speedup:.3q}", "unknown spec '.3q'"},
      {"S {name:.3f}", "wants a number"},
  };
  int ran = 0;
  for (const auto& [format, message] : cases) {
    try {
      fill_format(format, at);
      ADD_FAILURE() << format << " did not throw";
    } catch (const TargetError& err) {
      EXPECT_NE(std::string(err.what()).find(message), std::string::npos) << err.what();
    }
    ++ran;
  }
  EXPECT_EQ(ran, 5);
}

TEST(TargetsSelect, ExactlyOneElementOrAnError) {
  const Json a = Json::parse(R"([{"backend": "ybwc", "threads": 2, "hash": "xor"},
                                 {"backend": "ybwc", "threads": 2, "hash": "perthread"},
                                 {"backend": "dts", "threads": 2, "hash": "xor"},
                                 {"backend": "dts", "threads": "4"}])");
  EXPECT_EQ(select_one(a, Json::parse(R"({"backend": "dts", "threads": 2})"))["hash"], "xor");
  EXPECT_EQ(select_one(a, Json::parse(R"({"backend": "ybwc", "hash": "perthread"})"))["threads"],
            2);
  try {
    select_one(a, Json::parse(R"({"backend": "ybwc", "threads": 2})"));
    ADD_FAILURE() << "two elements matched without an error";
  } catch (const TargetError& e) {
    EXPECT_NE(std::string(e.what()).find("2 elements match"), std::string::npos) << e.what();
  }
  try {
    select_one(a, Json::parse(R"({"backend": "lazysmp"})"));
    ADD_FAILURE() << "no element matched without an error";
  } catch (const TargetError& e) {
    EXPECT_NE(std::string(e.what()).find("no element matches"), std::string::npos) << e.what();
  }
  // JSON equality: the number 4 is not the string "4", and a key absent
  // from an element does not match.
  EXPECT_THROW(select_one(a, Json::parse(R"({"backend": "dts", "threads": 4})")), TargetError);
  EXPECT_THROW(select_one(a, Json::parse(R"({"ranks": 1})")), TargetError);
  EXPECT_EQ(select_one(Json::parse(R"([{"x": 1}])"), Json::object())["x"], 1);
  EXPECT_THROW(select_one(a, Json::object()), TargetError);
}

TEST(TargetsSelect, CommitReferencesAreRecognised) {
  EXPECT_TRUE(is_commit_reference("74cdca7:docs/results/2026-11-29-ci-time/nps-ab.sh"));
  EXPECT_TRUE(is_commit_reference("74cdca7abcdef:x"));
  EXPECT_FALSE(is_commit_reference("docs/results/lab.json"));
  EXPECT_FALSE(is_commit_reference("abc:x"));
  EXPECT_FALSE(is_commit_reference("uci:/usr/games/fairy-stockfish"));
}

}  // namespace
}  // namespace xq::lab::report::targets
