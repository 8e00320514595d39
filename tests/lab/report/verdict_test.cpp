// The fastest-alternative verdict (lab/verdict.h), the merge of stress
// rounds and the summary's "safest fast hash scheme" line built on them
// (lab/report.h), from synthetic samples.
#include "lab/common/verdict.h"

#include <gtest/gtest.h>

#include "lab/report/report.h"
#include "lab/report/report_parts.h"

namespace xq::lab::report {
namespace {

using namespace xq::lab::common;

std::vector<std::string> contenders(const std::vector<Samples>& s, const FastestVerdict& v) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < v.contenders; ++k) names.push_back(s[v.ranking[k]].name);
  return names;
}

TEST(Verdict, SpreadIsMedianAndRange) {
  const Spread s = spread_of({5, 1, 4, 2, 3});
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 5);
  EXPECT_EQ(s.n, 5u);
  EXPECT_EQ(spread_of({}).n, 0u);
}

TEST(Verdict, SeparatedRangesNameTheWinner) {
  const std::vector<Samples> s{{"slow", {5, 7, 6, 6.5, 5.5}}, {"fast", {10, 12, 11, 10.5, 13}}};
  const FastestVerdict v = fastest(s);
  ASSERT_TRUE(v.decided());
  EXPECT_FALSE(v.too_few_samples);
  EXPECT_EQ(s[v.ranking.front()].name, "fast");
  EXPECT_EQ(v.ranking, (std::vector<std::size_t>{1, 0}));
}

// The medians differ, but the spread covers the difference: 27.6 and 69.8
// M ops/s for one scheme in two runs, as seen on the machine.
TEST(Verdict, OverlappingRangesAreUndecided) {
  const std::vector<Samples> s{{"spinlock", {27.6e6, 69.8e6, 45e6}}, {"xor", {40e6, 42e6, 44e6}}};
  const FastestVerdict v = fastest(s);
  EXPECT_FALSE(v.decided());
  EXPECT_FALSE(v.too_few_samples);
  EXPECT_EQ(contenders(s, v), (std::vector<std::string>{"spinlock", "xor"}));
}

// Only the rivals that reach the leader's range are contenders; one that is
// clearly behind is not, even when it is ranked between them by median.
TEST(Verdict, OnlyRivalsThatReachTheLeaderAreContenders) {
  const std::vector<Samples> s{{"a", {20, 21, 22}},
                               {"b", {17.5, 18, 18.5}},  // second median, clearly behind
                               {"c", {10, 12, 20.5}},    // third median, reaches a's minimum
                               {"d", {1, 2, 3}}};
  const FastestVerdict v = fastest(s);
  EXPECT_EQ(contenders(s, v), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(v.ranking.size(), 4u);
}

TEST(Verdict, TooFewSamplesAreUndecided) {
  const std::vector<Samples> s{{"a", {10, 11}}, {"b", {1, 2}}};
  const FastestVerdict v = fastest(s);
  EXPECT_FALSE(v.decided());
  EXPECT_TRUE(v.too_few_samples);
  EXPECT_EQ(v.contenders, 2u);
  EXPECT_EQ(s[v.ranking.front()].name, "a");
}

TEST(Verdict, ALoneAlternativeWins) {
  EXPECT_TRUE(fastest({{"only", {1}}}).decided());
  EXPECT_EQ(fastest({}).contenders, 0u);
}

TEST(Verdict, AndList) {
  EXPECT_EQ(and_list({"a"}), "a");
  EXPECT_EQ(and_list({"a", "b"}), "a and b");
  EXPECT_EQ(and_list({"a", "b", "c"}), "a, b and c");
}

Json stress_run(const std::string& hash, double ops_per_sec, double corrupt = 0) {
  return Json{{"mode", "entries"}, {"hash", hash}, {"unprotected", hash == "unprotected"},
              {"threads", 2},      {"entries", 1024}, {"replace", "always"},
              {"ops", ops_per_sec}, {"seconds", 1.0}, {"ops_per_sec", ops_per_sec},
              {"hits", 1000.0},    {"torn_detected", 1.0}, {"corrupt_accepted", corrupt},
              {"bucket_slots", hash == "sandwich" ? 2 : 4}};
}

TEST(SchemeRounds, MergeTakesTheMedianAndSumsTheCounts) {
  const std::vector<Json> merged = report::merge_stress_rounds(
      {stress_run("xor", 30), stress_run("spinlock", 5), stress_run("xor", 10, 2),
       stress_run("spinlock", 7), stress_run("xor", 20)});
  ASSERT_EQ(merged.size(), 2u);
  const Json& x = merged[0];
  EXPECT_EQ(x["hash"], "xor");
  EXPECT_EQ(x["rounds"], 3);
  EXPECT_EQ(x["ops_per_sec"], 20.0);
  EXPECT_EQ(x["ops_per_sec_min"], 10.0);
  EXPECT_EQ(x["ops_per_sec_max"], 30.0);
  EXPECT_EQ(x["ops"], 60.0);
  EXPECT_EQ(x["seconds"], 3.0);
  EXPECT_EQ(x["corrupt_accepted"], 2.0);
  EXPECT_EQ(x["torn_detected"], 3.0);
  EXPECT_EQ(merged[1]["ops_per_sec"], 6.0);  // the median of two: their mean
}

// A lab document of two configurations, measured or simulated.
Json lab_doc(const std::string& mode) {
  auto row = [](const std::string& backend, int threads, double s) {
    return Json{{"backend", backend}, {"hash", "xor"},       {"threads", threads},
                {"speedup", s},       {"speedup_min", s - 0.1}, {"speedup_max", s + 0.1}};
  };
  Json d{{"depth", 8},
         {"runs", 3},
         {"positions", 16},
         {"results", Json::array({row("serial", 1, 1.0), row("ybwc", 2, 1.8)})}};
  if (!mode.empty()) d["mode"] = mode;
  return d;
}

// `report --summary` of a simulated lab labels every line of its figures
// SIMULATED; a measured one (or a document from before `mode`) does not.
TEST(ReportSummary, SimulatedLabFiguresAreLabelledSimulated) {
  for (const std::string mode : {"simulated", "measured", ""}) {
    const std::vector<std::string> lines =
        report_summary({ReportInput{"lab.json", true, {lab_doc(mode)}}});
    int lab_lines = 0;
    for (const std::string& l : lines) {
      if (l.find("lab: ") == std::string::npos && l.find("best at ") == std::string::npos)
        continue;
      ++lab_lines;
      EXPECT_EQ(l.rfind("SIMULATED ", 0) == 0, mode == "simulated") << mode << ": " << l;
    }
    EXPECT_EQ(lab_lines, 3) << mode;  // the header and the best at 1 and at 2 threads
  }
}

std::string hash_line(const std::vector<Json>& docs) {
  const std::vector<std::string> lines = report_summary({ReportInput{"stress.json", true, docs}});
  for (const std::string& l : lines)
    if (l.rfind("safest fast hash scheme", 0) == 0) return l;
  return "";
}

// Rounds interleaved: A B C A B C ...
std::vector<Json> interleaved(const std::vector<std::pair<std::string, std::vector<double>>>& s) {
  std::vector<Json> docs;
  for (std::size_t r = 0; r < s.front().second.size(); ++r)
    for (const auto& [hash, values] : s) docs.push_back(stress_run(hash, values[r]));
  return docs;
}

TEST(SchemeRounds, SummaryNamesAWinnerWhenTheRoundsSeparateIt) {
  const std::string line = hash_line(interleaved({{"unprotected", {100, 110, 105}},
                                                  {"xor", {80, 85, 90}},
                                                  {"spinlock", {40, 60, 50}}}));
  EXPECT_NE(line.find("safest fast hash scheme: xor (0 corrupt accepted per 1e8 ops, median 85"),
            std::string::npos) << line;
  EXPECT_NE(line.find("over 3 rounds"), std::string::npos) << line;
  EXPECT_NE(line.find("81% of unprotected's median"), std::string::npos) << line;
}

TEST(SchemeRounds, SummaryIsUndecidedWhenTheSpreadCoversTheDifference) {
  const std::string line = hash_line(interleaved({{"unprotected", {100, 110, 105}},
                                                  {"xor", {80, 85, 90}},
                                                  {"spinlock", {27.6, 69.8, 88}},
                                                  {"mutex", {10, 11, 12}}}));
  EXPECT_NE(line.find("safest fast hash scheme: undecided between xor and spinlock ("),
            std::string::npos) << line;
  EXPECT_NE(line.find("the spread covers the difference"), std::string::npos) << line;
  EXPECT_EQ(line.find("mutex"), std::string::npos) << line;
}

// Fewer corrupt entries beat more speed; the unsafe baseline never qualifies.
TEST(SchemeRounds, SafetyComesBeforeSpeed) {
  std::vector<Json> docs = interleaved({{"unprotected", {300, 310, 305}},
                                        {"xor", {80, 85, 90}},
                                        {"spinlock", {40, 45, 50}}});
  docs[1]["corrupt_accepted"] = 1.0;  // one corrupt entry accepted by xor
  EXPECT_NE(hash_line(docs).find("safest fast hash scheme: spinlock ("), std::string::npos)
      << hash_line(docs);
}

// Beside a baseline with wider buckets, the ratio is not the price of the
// protection alone, and the line says so.
TEST(SchemeRounds, SummaryNamesDifferentBucketWidths) {
  const std::string line = hash_line(interleaved({{"unprotected", {100, 110, 105}},
                                                  {"sandwich", {120, 125, 130}}}));
  EXPECT_NE(line.find("119% of unprotected's median (2 entries per bucket to its 4)"),
            std::string::npos) << line;
}

// A scheme with a short key check (packed's 16 bits) admits false matches
// by design: never the safest, even when its run met none.
TEST(SchemeRounds, AShortKeyCheckIsNeverTheSafest) {
  std::vector<Json> docs = interleaved({{"packed", {300, 310, 305}}, {"xor", {80, 85, 90}}});
  for (Json& d : docs)
    if (d["hash"] == "packed") d["key_bits"] = 16;
  const std::string line = hash_line(docs);
  EXPECT_NE(line.find("safest fast hash scheme: xor ("), std::string::npos) << line;
  EXPECT_EQ(line.find("packed"), std::string::npos) << line;
}

TEST(SchemeRounds, OneRoundIsTooFewToTell) {
  const std::string line = hash_line(interleaved({{"xor", {80}}, {"spinlock", {40}}}));
  EXPECT_NE(line.find("undecided between xor and spinlock"), std::string::npos) << line;
  EXPECT_NE(line.find("too few rounds"), std::string::npos) << line;
}

}  // namespace
}  // namespace xq::lab::report
