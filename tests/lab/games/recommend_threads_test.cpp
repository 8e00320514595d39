// recommend_threads: one decision per thread count from documents, each on
// the evidence that may speak for that count, never mixing profiles, depths
// or kinds, and each undecided row with its next measurement.
#include <gtest/gtest.h>

#include "lab/games/recommend_threads.h"
#include "lab/games/recommend_values.h"

namespace {

using xq::Json;
using xq::lab::games::EvidenceDoc;
using xq::lab::games::recommend_threads;
using xq::lab::games::ThreadsDecision;

// A lab row at `threads` whose per-position times are `seconds` (summed: the
// speedup against a serial total of 8 s per position).
Json row(const std::string& backend, int threads, const std::vector<double>& seconds,
         double lo = NAN, double hi = NAN, int runs = 1) {
  Json positions = Json::array();
  double total = 0;
  for (double s : seconds) {
    positions.push_back({{"seconds", s}});
    total += s;
  }
  Json r{{"backend", backend}, {"hash", "xor"}, {"threads", threads}, {"processors", threads},
         {"speedup", 8.0 * double(seconds.size()) / total}, {"search_overhead", 1.1},
         {"positions", positions}};
  if (!std::isnan(lo)) {
    Json rs = Json::array();
    for (int k = 0; k < runs; ++k) rs.push_back(lo);
    r["paired_speedup"] = {{"min", lo}, {"max", hi}, {"runs", rs}};
  }
  return r;
}

EvidenceDoc lab(const std::string& path, const std::string& mode, int nproc, int depth,
                std::vector<Json> rows, const std::string& profile = "thesis") {
  Json d{{"meta", {{"nproc", nproc}}}, {"mode", mode}, {"depth", depth}, {"positions", 8},
         {"runs", 1}, {"profile", profile}, {"params", {{"history_share", "thread"}}}};
  d["simulation"] = mode == "simulated" ? Json{{"cores", nullptr}, {"overrides", ""}} : Json();
  d["results"] = Json::array();
  d["results"].push_back(row("serial", 1, std::vector<double>(8, 8.0)));
  for (Json& r : rows) d["results"].push_back(r);
  return {path, d};
}

const std::vector<double> kFast(8, 4.0), kSlow(8, 5.0);
// Faster on 4 positions, slower on 4, 39 s in all (the slow row: 40 s).
const std::vector<double> kEven{4, 6, 4, 6, 4, 6, 3, 6};

TEST(RecommendThreads, MeasuredWhereTheMachineHasTheCoresSimulatedBeyond) {
  const std::vector<EvidenceDoc> labs{
      lab("real.json", "measured", 2, 10, {row("ybwc", 2, kFast), row("dts", 2, kSlow),
                                           row("ybwc", 8, kFast), row("dts", 8, kSlow)}),
      lab("sim.json", "simulated", 2, 9, {row("dts", 8, kFast), row("ybwc", 8, kSlow)})};
  const std::vector<ThreadsDecision> r = recommend_threads({2, 8, 64}, "thesis", labs, {});
  ASSERT_EQ(r.size(), 3u);
  // 2 threads on a 2-core machine: measured; faster on 8 of 8 positions decides.
  EXPECT_EQ(r[0].kind, "measured");
  EXPECT_TRUE(r[0].decided);
  EXPECT_EQ(r[0].decision, "ybwc/xor");
  EXPECT_NE(r[0].evidence.find("depth 10"), std::string::npos);
  EXPECT_NE(r[0].figure.find("faster on 8 of 8 positions"), std::string::npos);
  EXPECT_EQ(r[0].next, "");
  // 8 threads measured on 2 cores are time-sliced: the SIMULATED document decides.
  EXPECT_EQ(r[1].kind, "SIMULATED");
  EXPECT_EQ(r[1].decision, "dts/xor");
  EXPECT_NE(r[1].evidence.find("SIMULATED time to depth, depth 9"), std::string::npos);
  // Nothing at 64: no evidence, and what would give it.
  EXPECT_EQ(r[2].kind, "none");
  EXPECT_EQ(r[2].decision, "no evidence");
  EXPECT_NE(r[2].next.find("bench/many_cores.sh with THREADS=64"), std::string::npos);
}

TEST(RecommendThreads, UndecidedRowsNameTheirNextMeasurement) {
  // 7 of 8 positions: sign test p 0.07, not decided; one more won position would decide.
  std::vector<double> seven(8, 4.0);
  seven[7] = 6.0;
  const auto r = recommend_threads(
      {2}, "thesis", {lab("a.json", "measured", 2, 10, {row("ybwc", 2, seven), row("dts", 2, kSlow)})},
      {});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].decided);
  EXPECT_EQ(r[0].decision, "undecided between ybwc/xor and dts/xor");
  EXPECT_NE(r[0].figure.find("faster on 7 of 8 positions (sign test p 0.070)"), std::string::npos);
  EXPECT_EQ(r[0].next, "1 more position at depth 10, if ybwc/xor is faster on each");
  // Half the positions each way: more positions are not predicted to decide.
  const auto even = recommend_threads(
      {2}, "thesis", {lab("b.json", "measured", 2, 10, {row("ybwc", 2, kEven), row("dts", 2, kSlow)})},
      {});
  EXPECT_FALSE(even[0].decided);
  EXPECT_NE(even[0].next.find("favour neither"), std::string::npos);
}

TEST(RecommendThreads, SpreadsOverRunsThatDoNotOverlapDecide) {
  const auto r = recommend_threads(
      {2}, "thesis",
      {lab("a.json", "measured", 2, 10,
           {row("ybwc", 2, kEven, 1.90, 1.95, 3), row("dts", 2, kSlow, 1.70, 1.80, 3)})},
      {});
  EXPECT_TRUE(r[0].decided);
  EXPECT_EQ(r[0].decision, "ybwc/xor");
  // One run: no spread, so only the sign test can decide (and 4 of 8 does not).
  const auto one = recommend_threads(
      {2}, "thesis",
      {lab("b.json", "measured", 2, 10,
           {row("ybwc", 2, kEven, 1.90, 1.90, 1), row("dts", 2, kSlow, 1.70, 1.70, 1)})},
      {});
  EXPECT_FALSE(one[0].decided);
}

TEST(RecommendThreads, ProfilesDepthsAndVariedRowsAreNeverMixed) {
  Json varied = row("dts", 2, std::vector<double>(8, 1.0));
  varied["params"] = {"history_share=all"};
  Json at_default = row("abdada", 2, std::vector<double>(8, 4.5));
  at_default["params"] = {"history_share=thread"};
  const std::vector<EvidenceDoc> labs{
      lab("modern.json", "measured", 2, 16, {row("lazysmp", 2, kFast), row("dts", 2, kSlow)}, "modern"),
      lab("shallow.json", "measured", 2, 8, {row("dts", 2, kFast), row("ybwc", 2, kSlow)}),
      lab("deep.json", "measured", 2, 10,
          {row("ybwc", 2, kFast), varied, at_default, row("dts", 2, kSlow)})};
  const auto r = recommend_threads({2}, "thesis", labs, {});
  // The deepest thesis document decides; the modern one is not read; the row
  // that ran history_share=all is not a contender, the one at the default is.
  EXPECT_NE(r[0].evidence.find("deep.json"), std::string::npos);
  EXPECT_EQ(r[0].decision, "ybwc/xor");
  EXPECT_NE(r[0].figure.find("against abdada/xor"), std::string::npos);
  const auto m = recommend_threads({2}, "modern", labs, {});
  EXPECT_EQ(m[0].decision, "lazysmp/xor");
}

// A SIMULATED sweep run a backend at a time (bench/many_cores.sh): its
// documents are one, so the backends in different files compete.
TEST(RecommendThreads, ASweepRunABackendAtATimeIsOneEvidence) {
  const std::vector<EvidenceDoc> labs{lab("ybwc.json", "simulated", 2, 11, {row("ybwc", 64, kSlow)}),
                                      lab("dts.json", "simulated", 2, 11, {row("dts", 64, kFast)})};
  const auto r = recommend_threads({64}, "thesis", labs, {});
  EXPECT_EQ(r[0].decision, "dts/xor");
  EXPECT_NE(r[0].evidence.find("2 backend(s) (ybwc.json + dts.json)"), std::string::npos)
      << r[0].evidence;
  EXPECT_EQ(r[0].points.size(), 2u);
}

TEST(RecommendThreads, TimeSlicedOrWhatIfSimulationsAreNoCurve) {
  EvidenceDoc sliced = lab("sliced.json", "simulated", 2, 9, {row("ybwc", 8, kFast), row("dts", 8, kSlow)});
  sliced.doc["simulation"]["cores"] = 2;
  EvidenceDoc what_if = lab("whatif.json", "simulated", 2, 9, {row("ybwc", 8, kFast), row("dts", 8, kSlow)});
  what_if.doc["simulation"]["overrides"] = "join=2x";
  const auto r = recommend_threads({8}, "thesis", {sliced, what_if}, {});
  EXPECT_EQ(r[0].decision, "no evidence");
}

Json transfer(int threads, double a_elo, double a_lo, double a_hi, double b_elo, double b_lo,
              double b_hi, const std::string& a = "abdada", const std::string& b = "ybwc") {
  const auto r = [](const std::string& n, double e, double lo, double hi) {
    return Json{{"backend", n},
                {"time", {{"elo", {{"elo", e}, {"lower", lo}, {"upper", hi}, {"pairs", 100}}}}}};
  };
  return Json{{"meta", {{"nproc", 2}}},
              {"transfer",
               {{"threads", threads}, {"time_control", "1+0.1"}, {"games", 200},
                {"profiles", Json::array({{{"profile", "thesis"},
                                           {"rows", Json::array({r(a, a_elo, a_lo, a_hi),
                                                                 r(b, b_elo, b_lo, b_hi)})}}})}}}};
}

TEST(RecommendThreads, GamesDecideAloneOrOverturnTimeToDepth) {
  // No lab document at 2 threads: separated Elo intervals decide.
  const auto g = recommend_threads({2}, "thesis", {}, {{"t.json", transfer(2, 60, 40, 80, 10, -10, 30)}});
  EXPECT_EQ(g[0].kind, "games");
  EXPECT_TRUE(g[0].decided);
  EXPECT_EQ(g[0].decision, "abdada");
  // Overlapping intervals: undecided, with the games that could separate them.
  const auto o = recommend_threads({2}, "thesis", {}, {{"t.json", transfer(2, 30, 10, 50, 20, 0, 40)}});
  EXPECT_FALSE(o[0].decided);
  EXPECT_NE(o[0].next.find("about 3000 more games a match, if the gap of 10.0 Elo holds"),
            std::string::npos)
      << o[0].next;
  // Time to depth says ybwc, separated games say abdada: undecided, and said so.
  const auto c = recommend_threads(
      {2}, "thesis",
      {lab("a.json", "measured", 2, 10, {row("ybwc", 2, kFast), row("abdada", 2, kSlow)})},
      {{"t.json", transfer(2, 60, 40, 80, 10, -10, 30)}});
  EXPECT_FALSE(c[0].decided);
  EXPECT_EQ(c[0].decision, "undecided: time to depth says ybwc/xor, games say abdada");
  // Time to depth undecided (4 of 8 positions, one run), games separated: the games decide.
  const auto g2 = recommend_threads(
      {2}, "thesis",
      {lab("a.json", "measured", 2, 10, {row("ybwc", 2, kEven), row("abdada", 2, kSlow)})},
      {{"t.json", transfer(2, 60, 40, 80, 10, -10, 30)}});
  EXPECT_TRUE(g2[0].decided);
  EXPECT_EQ(g2[0].kind, "games");
  EXPECT_EQ(g2[0].decision, "abdada (by games; time to depth undecided)");
  // Games played on fewer cores than threads were time-sliced: no evidence.
  Json sliced = transfer(2, 60, 40, 80, 10, -10, 30);
  sliced["meta"]["nproc"] = 1;
  EXPECT_EQ(recommend_threads({2}, "thesis", {}, {{"t.json", sliced}})[0].decision, "no evidence");
  // Games at another thread count say nothing here.
  const auto other = recommend_threads({4}, "thesis", {}, {{"t.json", transfer(2, 60, 40, 80, 10, -10, 30)}});
  EXPECT_EQ(other[0].decision, "no evidence");
}

Json head_to_head(const std::string& a, const std::string& b, int threads, double elo, double lo,
                  double hi, int games = 200, const std::string& profile = "thesis") {
  const auto spec = [&](const std::string& backend) {
    return "xqlab:backend=" + backend + ",threads=" + std::to_string(threads) + ",profile=" + profile;
  };
  return Json{{"meta", {{"nproc", 2}}},
              {"match",
               {{"tc", "1+0.1"},
                {"engines", Json::array({{{"name", a + "-x"}, {"spec", spec(a)}},
                                         {{"name", b + "-x"}, {"spec", spec(b)}},
                                         {{"name", "fsf"}, {"spec", "uci:/usr/games/fairy-stockfish"}}})},
                {"pairings", Json::array({{{"a", a + "-x"}, {"b", b + "-x"}, {"wins", games / 2},
                                           {"draws", 0}, {"losses", games / 2}, {"elo", elo},
                                           {"elo_ci", {lo, hi}}},
                                          {{"a", a + "-x"}, {"b", "fsf"}, {"wins", 1000},
                                           {"draws", 0}, {"losses", 0}, {"elo", 900},
                                           {"elo_ci", {800, 1000}}}})}}}};
}

TEST(RecommendThreads, HeadToHeadGamesOfTwoBackends) {
  // lazysmp beat ybwc head to head (its Elo from b's side is negative for a).
  const auto r = recommend_threads({2}, "thesis", {},
                                   {{"m.json", head_to_head("ybwc", "lazysmp", 2, -40, -70, -10)}});
  EXPECT_EQ(r[0].kind, "games");
  EXPECT_TRUE(r[0].decided);
  EXPECT_EQ(r[0].decision, "lazysmp");
  EXPECT_NE(r[0].evidence.find("head-to-head games, 200 games at 1+0.1 (m.json)"), std::string::npos);
  // The interval holds 0: undecided, with the games that could decide.
  const auto u = recommend_threads({2}, "thesis", {},
                                   {{"m.json", head_to_head("ybwc", "lazysmp", 2, 10, -20, 40)}});
  EXPECT_FALSE(u[0].decided);
  EXPECT_EQ(u[0].decision, "undecided between ybwc and lazysmp");
  EXPECT_NE(u[0].next.find("more games head to head, if the gap of 10.0 Elo holds"), std::string::npos);
  // Another thread count or profile: not this row's evidence (the game
  // against another program never is).
  EXPECT_EQ(recommend_threads({4}, "thesis", {}, {{"m.json", head_to_head("ybwc", "lazysmp", 2, -40, -70, -10)}})[0].decision,
            "no evidence");
  EXPECT_EQ(recommend_threads({2}, "thesis", {},
                              {{"m.json", head_to_head("ybwc", "lazysmp", 2, -40, -70, -10, 200, "modern")}})[0]
                .decision,
            "no evidence");
  // Time to depth says ybwc, the games say lazysmp: undecided.
  const auto c = recommend_threads(
      {2}, "thesis", {lab("a.json", "measured", 2, 10, {row("ybwc", 2, kFast), row("lazysmp", 2, kSlow)})},
      {{"m.json", head_to_head("ybwc", "lazysmp", 2, -40, -70, -10)}});
  EXPECT_EQ(c[0].decision, "undecided: time to depth says ybwc/xor, games say lazysmp");
}

Json with_params(Json r, std::vector<std::string> params) {
  r["params"] = params;
  return r;
}

// Which setting of a parameter: a default moves only for a separated, faster
// setting; the fastest of several; an undecided or slower one keeps it.
TEST(RecommendValues, ADefaultMovesOnlyForASeparatedFasterSetting) {
  using xq::lab::games::recommend_values;
  const std::vector<EvidenceDoc> labs{lab(
      "vary.json", "measured", 2, 10,
      {with_params(row("lazysmp", 2, kSlow), {"history_share=thread"}),
       with_params(row("lazysmp", 2, kFast), {"history_share=all"}),
       with_params(row("lazysmp", 2, std::vector<double>(8, 4.5)), {"history_share=group2"}),
       with_params(row("ybwc", 2, kFast), {"history_share=thread"}),
       with_params(row("ybwc", 2, kEven), {"history_share=all"}),
       with_params(row("dts", 2, kFast), {"history_share=thread"}),
       with_params(row("dts", 2, kSlow), {"history_share=all"}),
       row("abdada", 2, kFast)})};  // never varied: no row
  const auto r = recommend_values({2}, "thesis", "history_share", labs);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].backend, "lazysmp/xor");
  EXPECT_TRUE(r[0].changed);
  EXPECT_EQ(r[0].decision, "ship history_share=all");  // faster than group2 too
  EXPECT_NE(r[0].figure.find("history_share=group2 1.778, faster on 8 of 8 positions (separated, faster)"),
            std::string::npos)
      << r[0].figure;
  EXPECT_EQ(r[1].decision, "keep history_share=thread");  // ybwc: undecided
  EXPECT_NE(r[1].figure.find("(undecided)"), std::string::npos);
  EXPECT_EQ(r[2].decision, "keep history_share=thread");  // dts: all is slower
  EXPECT_NE(r[2].figure.find("faster on 0 of 8 positions (separated, slower)"), std::string::npos);
  EXPECT_FALSE(r[2].changed);
  EXPECT_EQ(r[0].kind, "measured");
  // Another parameter was never varied: nothing to say.
  EXPECT_TRUE(recommend_values({2}, "thesis", "killer_share", labs).empty());
  // At 8 threads the 2-core document cannot speak.
  EXPECT_TRUE(recommend_values({8}, "thesis", "history_share", labs).empty());
}

// Which hash scheme: each scheme against the same backend's xor row, times
// paired by run (not each against its own serial search); the table's size
// is part of the question; --vary rows have no part.
Json scheme_row(const std::string& backend, int threads, const std::string& hash,
                const std::vector<double>& seconds, const std::vector<double>& runs) {
  Json r = row(backend, threads, seconds);
  r["hash"] = hash;
  r["runs"] = Json::array();
  for (double s : runs) r["runs"].push_back({{"seconds", s}});
  return r;
}

TEST(RecommendValues, ASchemeShipsOnlyWhenItsTimesAreSeparatedFromXors) {
  using xq::lab::games::recommend_values;
  EvidenceDoc d = lab("packed.json", "measured", 2, 10,
                      {scheme_row("lazysmp", 2, "xor", kSlow, {40, 41, 39}),
                       scheme_row("lazysmp", 2, "packed", kFast, {32, 33, 31}),
                       scheme_row("ybwc", 2, "xor", kFast, {32, 32, 32}),
                       scheme_row("ybwc", 2, "packed", kEven, {30, 34, 31}),
                       with_params(scheme_row("dts", 2, "packed", kFast, {1, 1, 1}),
                                   {"history_share=all"})});
  d.doc["hash_mb"] = 1;
  const auto r = recommend_values({2}, "thesis", "hash", {d});
  ASSERT_EQ(r.size(), 2u);  // dts: a --vary row only
  EXPECT_EQ(r[0].backend, "lazysmp, 1 MiB table");
  EXPECT_EQ(r[0].decision, "ship hash=packed");
  EXPECT_TRUE(r[0].changed);
  // 40 / 32, 41 / 33, 39 / 31: the median ratio 1.250, its runs' spread
  EXPECT_NE(r[0].figure.find("hash=packed 1.250 [1.242, 1.258], faster on 8 of 8 positions (separated, faster)"),
            std::string::npos)
      << r[0].figure;
  EXPECT_EQ(r[1].backend, "ybwc, 1 MiB table");
  EXPECT_EQ(r[1].decision, "keep hash=xor");  // 32 / 34 .. 32 / 30: undecided
  EXPECT_NE(r[1].figure.find("(undecided)"), std::string::npos) << r[1].figure;
  // The serial rows at 1 thread: only the xor one here, so nothing to say.
  EXPECT_TRUE(recommend_values({1}, "thesis", "hash", {d}).empty());
}

TEST(RecommendThreads, NotADocumentIsOneClearError) {
  EXPECT_THROW(recommend_threads({2}, "thesis", {{"x.json", Json{{"a", 1}}}}, {}),
               std::invalid_argument);
  EXPECT_THROW(recommend_threads({2}, "thesis", {}, {{"y.json", Json{{"results", Json::array()}}}}),
               std::invalid_argument);
}

}  // namespace
