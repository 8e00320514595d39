// `xqlab search`, `xqlab list` (backends and pairs) and `xqlab lab` as a user
// runs them: the JSON keys promised, and exactly one line on stderr with exit
// status 2 for bad input.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"
#include "parallel/backend.h"
#include "search/tunables.h"
#include "tests/support/files.h"
#include "tests/support/positions.h"
#include "tests/support/run_xqlab.h"

namespace {

using nlohmann::json;
using xq::test::count_lines;
using xq::test::XqlabRun;

using xq::test::xqlab;

// Whether `move` (ICCS) is legal from `fen` and leaves the opponent mated.
bool mates(const std::string& fen, const std::string& move) {
  xq::Position pos;
  if (!pos.set_fen(fen).empty()) return false;
  for (xq::Move m : xq::MoveList(pos)) {
    if (xq::move_name(m) != move) continue;
    pos.do_move(m);
    return pos.in_check() && xq::MoveList(pos).size == 0;
  }
  return false;
}

TEST(CliSearch, JsonHasEveryPromisedKey) {
  const XqlabRun r = xqlab({"search", "--fen", "startpos", "--depth", "4", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(count_lines(r.out), 1) << r.out;
  const json j = r.json();
  for (const char* key :
       {"bestmove", "score", "depth", "nodes", "qnodes", "seconds", "nps", "pv", "tt_hits", "mate",
        "backend", "hash", "threads", "splits", "joins", "aborts", "tt_probes", "tt_cutoffs",
        "tt_torn", "bad_tt_moves", "first_move_cutoff_rate", "params"})
    EXPECT_TRUE(j.contains(key)) << key << " missing in " << r.out;
  EXPECT_EQ(j.at("depth"), 4);
  EXPECT_TRUE(j.at("mate").is_null());
  EXPECT_EQ(j.at("backend"), "serial");
  EXPECT_EQ(j.at("hash"), "xor");
  ASSERT_TRUE(j.at("pv").is_array());
  ASSERT_FALSE(j.at("pv").empty());
  EXPECT_EQ(j.at("pv").front(), j.at("bestmove"));
  // Every backend parameter is reported with its default value.
  EXPECT_EQ(j.at("params").at("min_split_depth"), xq::BackendConfig{}.param("min_split_depth"));
  EXPECT_EQ(j.at("params").at("omp_schedule"), "static");
}

TEST(CliSearch, MateInOneIsReportedAsMate) {
  const XqlabRun r = xqlab({"search", "--fen", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "--depth", "3",
                          "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j.at("mate"), 1) << r.out;
  // a1d1 and a1a8 both mate: any mating move is right.
  EXPECT_TRUE(mates("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", j.at("bestmove"))) << r.out;
}

// A search stopped before its first iteration completed reports no move and
// no score rather than numbers it did not search.
TEST(CliSearch, NoCompletedIterationIsSaidSo) {
  const XqlabRun r = xqlab({"search", "--fen", "startpos", "--nodes", "1", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  ASSERT_EQ(j.at("depth"), 0) << r.out;
  EXPECT_TRUE(j.at("score").is_null()) << r.out;
  EXPECT_TRUE(j.at("bestmove").is_null()) << r.out;
  EXPECT_TRUE(j.at("pv").empty()) << r.out;
  const XqlabRun t = xqlab({"search", "--fen", "startpos", "--nodes", "1"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("no iteration completed"), std::string::npos) << t.out;
  EXPECT_EQ(t.out.find("score "), std::string::npos) << t.out;
}

TEST(CliSearch, EveryBackendRunsWithTwoThreads) {
  for (const xq::BackendInfo& b : xq::backends()) {
    const XqlabRun r = xqlab({"search", "--fen", "startpos", "--depth", "4", "--backend",
                            std::string(b.name), "--threads", "2", "--json"});
    ASSERT_EQ(r.status, 0) << b.name << ": " << r.err;
    const json j = r.json();
    EXPECT_EQ(j.at("backend"), std::string(b.name));
    EXPECT_EQ(j.at("threads"), b.name == "serial" ? 1 : 2);  // serial runs one thread
  }
}

// Deep enough, with splitting allowed from depth 2, that the parallel
// backends really split (ybwc must), so the serial path is not compared with
// itself.
TEST(CliSearch, ExactModeGivesTheSameScoreForEveryBackend) {
  json first;
  int compared = 0;
  for (const xq::BackendInfo& b : xq::backends()) {
    const XqlabRun r = xqlab({"search", "--fen", "startpos", "--depth", "5", "--exact",
                              "--backend", std::string(b.name), "--threads", "2", "--param",
                              "min_split_depth=2", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = r.json();
    EXPECT_EQ(j.at("params").at("min_split_depth"), 2);
    EXPECT_EQ(j.at("depth"), 5);
    if (b.name == "ybwc") {
      EXPECT_GT(j.at("splits").get<long long>(), 0) << r.out;
    }
    if (first.is_null()) first = j.at("score");
    EXPECT_EQ(j.at("score"), first) << b.name;
    ++compared;
  }
  EXPECT_EQ(compared, int(xq::backends().size()));
  EXPECT_GE(compared, 3);
}

// --param sets every backend parameter, reports it, and rejects unknown
// names and bad values in one line.
TEST(CliSearch, ParamSetsBackendParameters) {
  const XqlabRun r = xqlab({"search", "--fen", "startpos", "--depth", "2", "--backend",
                            "pvsplit", "--param", "omp_schedule=dynamic", "--param",
                            "max_splits_per_thread=3", "--param", "replacement=always",
                            "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json p = r.json().at("params");
  EXPECT_EQ(p.at("omp_schedule"), "dynamic");
  EXPECT_EQ(p.at("max_splits_per_thread"), 3);
  EXPECT_EQ(p.at("replacement"), "always");
  for (const char* bad : {"nosuch=1", "min_split_depth=0", "min_split_depth=65",
                          "min_split_depth=x", "omp_schedule=guided", "min_split_depth",
                          "=3"}) {
    const XqlabRun e = xqlab({"search", "--fen", "startpos", "--param", bad});
    xq::test::expect_one_line_error(e, bad);
  }
}

TEST(CliSearch, PlainOutputHasInfoLinesAndBestmove) {
  const XqlabRun r = xqlab({"search", "--fen", "startpos", "--depth", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("info depth 1 ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("info depth 3 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nbestmove "), std::string::npos) << r.out;
}

TEST(CliSearch, MovetimeAndNodeLimitsEndTheSearch) {
  const XqlabRun t = xqlab({"search", "--fen", "startpos", "--movetime", "100", "--json"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(t.json().at("stopped"), true);
  const XqlabRun n = xqlab({"search", "--fen", "startpos", "--nodes", "20000", "--json"});
  ASSERT_EQ(n.status, 0) << n.err;
  EXPECT_EQ(n.json().at("stopped"), true);
}

TEST(CliList, JsonNamesBackendsAndValidPairs) {
  const XqlabRun r = xqlab({"list", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  ASSERT_EQ(j.at("backends").size(), xq::backends().size());
  EXPECT_EQ(j.at("backends").front(), "serial");
  for (const xq::BackendInfo& b : xq::backends())
    EXPECT_TRUE(std::find(j.at("pairs").begin(), j.at("pairs").end(),
                          json::array({std::string(b.name), "xor"})) != j.at("pairs").end())
        << b.name;
  std::vector<std::string> params;
  for (const json& p : j.at("params")) params.push_back(p.at("name"));
  for (const char* name : {"min_split_depth", "max_splits_per_thread", "omp_schedule"})
    EXPECT_TRUE(std::find(params.begin(), params.end(), name) != params.end()) << name;
  // The tunable parameters, each with its group, range and default.
  ASSERT_EQ(j.at("tunables").size(), xq::tunable_params().size());
  std::size_t i = 0;
  for (const xq::TunableParam& t : xq::tunable_params()) {
    const json& row = j.at("tunables")[i++];
    EXPECT_EQ(row.at("name"), std::string(t.name));
    EXPECT_EQ(row.at("group"), std::string(t.group));
    EXPECT_EQ(row.at("min"), t.min);
    EXPECT_EQ(row.at("max"), t.max);
    EXPECT_EQ(row.at("default"), t.default_value());
  }
  const XqlabRun text = xqlab({"list"});
  EXPECT_NE(text.out.find("tunable parameters"), std::string::npos);
  EXPECT_NE(text.out.find("value_rook             eval      200..1500  default 600"), std::string::npos)
      << text.out;
}

// `--backends all`: every registered backend, the serial reference once.
TEST(CliLab, BackendsAllRunsEveryRegisteredBackend) {
  const std::string suite = xq::test::first_openings(2);
  const XqlabRun r = xqlab({"lab", "--backends", "all", "--depth", "1", "--runs", "1", "--threads",
                            "2", "--suite", suite, "--hash-mb", "1", "--json", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::set<std::string> seen;
  const json j = r.json();
  for (const json& row : j.at("results")) seen.insert(row.at("backend").get<std::string>());
  EXPECT_EQ(seen.size(), xq::backends().size());
  for (const xq::BackendInfo& b : xq::backends()) EXPECT_EQ(seen.count(std::string(b.name)), 1u) << b.name;
  const XqlabRun bad = xqlab({"lab", "--backends", "all,nosuch", "--depth", "1"});
  EXPECT_NE(bad.status, 0);
}

TEST(CliLab, SmallRunWritesSummaryJsonAndRawCsv) {
  const std::string csv = ::testing::TempDir() + "xqlab_lab_" + std::to_string(::getpid()) + ".csv";
  const XqlabRun r = xqlab(xq::test::with({"lab", "--depth", "2", "--runs", "2", "--threads", "1,2",
                                           "--csv", csv, "--json"},
                                          xq::test::lab_size_args()));
  ASSERT_EQ(r.status, 0) << r.err;
  // Serial + 2 thread counts per other backend of the default lab (one per
  // way of sharing work: at least who splits, marks and shares the table).
  int configs = 1;
  for (const xq::BackendInfo& b : xq::backends())
    if (b.in_default_lab && b.name != "serial") configs += 2;
  ASSERT_GE(configs, 7);
  const json j = r.json();
  ASSERT_EQ(j.at("results").size(), std::size_t(configs)) << r.out;
  for (const json& row : j.at("results"))
    for (const char* key : {"speedup", "efficiency", "search_overhead", "nps", "tt_hits", "splits",
                            "aborts", "bestmove_agreement", "speedup_min", "speedup_max",
                            "paired_speedup", "counters"})
      EXPECT_TRUE(row.contains(key)) << key;
  EXPECT_EQ(j.at("results").front().at("speedup"), 1.0);  // the serial reference itself
  EXPECT_NE(r.err.find("lab: run 2/2"), std::string::npos) << r.err;  // progress on stderr
  const std::string rows = xq::test::read_file(csv);
  std::remove(csv.c_str());
  // Header + one row per search: configurations x positions x 2 runs.
  EXPECT_EQ(count_lines(rows), 1 + configs * xq::test::kLabPositions * 2) << rows.substr(0, 400);
}

// --by COLUMN: the figures again per group of positions, each group over its
// positions alone. With one run a group's summed time and nodes are sums
// over its positions, so the groups' add up to the whole suite's.
TEST(CliLab, ByGroupsPartitionTheSuite) {
  const std::string suite = ::testing::TempDir() + "xqlab_by_" + std::to_string(::getpid()) + ".csv";
  {
    std::ofstream out(suite);
    out << "name,fen,size\n";
    const std::vector<std::string>& fens = xq::test::four_short_fens();
    for (std::size_t i = 0; i < fens.size(); ++i)
      out << "p" << i << "," << fens[i] << "," << (i % 2 ? "odd" : "even") << "\n";
  }
  const std::string doc = suite + ".json", dir = suite + ".report";
  const XqlabRun r = xqlab({"lab", "--suite", suite, "--by", "size", "--backends", "serial,ybwc",
                            "--threads", "1,2", "--depth", "3", "--runs", "1", "--json", "--quiet",
                            "--json-file", doc});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  const json& by = j.at("by");
  EXPECT_EQ(by.at("column"), "size");
  ASSERT_EQ(by.at("groups").size(), 2u);
  EXPECT_EQ(by["groups"][0]["label"], "even");
  EXPECT_EQ(by["groups"][0]["positions"], json::array({1, 3}));
  EXPECT_EQ(by["groups"][1]["positions"], json::array({2, 4}));
  int compared = 0;
  for (std::size_t c = 0; c < j.at("results").size(); ++c) {
    double seconds = 0, nodes = 0;
    for (const json& g : by["groups"]) {
      ASSERT_EQ(g["results"].size(), j["results"].size());
      seconds += g["results"][c]["seconds"].get<double>();
      nodes += g["results"][c]["nodes"].get<double>();
    }
    EXPECT_NEAR(seconds, j["results"][c]["seconds"].get<double>(), 1e-6) << c;
    EXPECT_NEAR(nodes, j["results"][c]["nodes"].get<double>(), 0.5) << c;
    ++compared;
  }
  EXPECT_EQ(compared, 3);
  // The report draws the groups' speedups.
  const XqlabRun page = xqlab({"report", "--out", dir, doc});
  ASSERT_EQ(page.status, 0) << page.err;
  const std::string html = xq::test::read_file(dir + "/report.html");
  EXPECT_NE(html.find("id=\"fig-by-group\""), std::string::npos);
  EXPECT_NE(html.find("size odd (2)"), std::string::npos);
  // The text names each group; a missing column fails before any search.
  const XqlabRun text = xqlab({"lab", "--suite", suite, "--by", "size", "--backends", "serial,ybwc",
                               "--threads", "2", "--depth", "2", "--runs", "1", "--quiet"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("size = odd: 2 positions"), std::string::npos) << text.out;
  xq::test::expect_one_line_error(
      xqlab({"lab", "--suite", suite, "--by", "nosuch", "--depth", "2", "--quiet"}), "no column");
  std::remove(suite.c_str());
}

// --vary: ybwc once per sharing mode, side by side, its rows naming the
// mode (the JSON's params, the text table's "ybwc:all"); a bad value is one
// line and status 2.
TEST(CliLab, VaryRunsEachReaderOncePerValue) {
  const XqlabRun r = xqlab(xq::test::with({"lab", "--backends", "ybwc", "--threads", "2", "--depth",
                                           "3", "--runs", "1", "--vary",
                                           "history_share=thread,all", "--json"},
                                          xq::test::lab_size_args()));
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = r.json();
  ASSERT_EQ(j.at("results").size(), 3u);
  EXPECT_FALSE(j["results"][0].contains("params"));
  EXPECT_EQ(j["results"][1].at("params"), json::array({"history_share=thread"}));
  EXPECT_EQ(j["results"][2].at("params"), json::array({"history_share=all"}));
  const XqlabRun text = xqlab(xq::test::with({"lab", "--backends", "ybwc", "--threads", "2",
                                              "--depth", "2", "--runs", "1", "--vary",
                                              "history_share=thread,all"},
                                             xq::test::lab_size_args()));
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("ybwc:all"), std::string::npos) << text.out;
  const XqlabRun bad = xqlab({"lab", "--backends", "ybwc", "--vary", "history_share=thread,some"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("history_share must be one of thread|group2|group8|all"), std::string::npos)
      << bad.err;
}

TEST(CliLab, NotesThreadCountsAboveTheCores) {
  const XqlabRun r = xqlab({"lab", "--depth", "1", "--runs", "1", "--threads", "512",
                          "--backends", "serial"});
  EXPECT_EQ(r.status, 2);  // 512 is above the accepted range
  if (xq::backends().size() < 2) GTEST_SKIP() << "only the serial backend is registered";
  const unsigned cores = std::thread::hardware_concurrency();
  const XqlabRun ok = xqlab({"lab", "--depth", "1", "--runs", "1", "--threads",
                           std::to_string(cores + 1), "--backends",
                           std::string(xq::backends().back().name)});
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("cores measure overhead, not speed"), std::string::npos) << ok.out;
}

struct Bad {
  const char* what;
  std::vector<std::string> args;
};

const Bad kBadInput[] = {
    {"search: bad fen", {"search", "--fen", "nonsense", "--depth", "2"}},
    {"search: no fen", {"search", "--depth", "2"}},
    {"search: depth 0", {"search", "--fen", "startpos", "--depth", "0"}},
    {"search: depth 65", {"search", "--fen", "startpos", "--depth", "65"}},
    {"search: unknown backend", {"search", "--fen", "startpos", "--backend", "nope"}},
    {"search: unknown scheme", {"search", "--fen", "startpos", "--hash", "nope"}},
    {"search: unknown algo", {"search", "--fen", "startpos", "--algo", "minimax"}},
    {"search: unknown feature", {"search", "--fen", "startpos", "--features", "tt,nope"}},
    {"search: threads 0", {"search", "--fen", "startpos", "--threads", "0"}},
    {"search: hash-mb 0", {"search", "--fen", "startpos", "--hash-mb", "0"}},
    {"search: threads 257", {"search", "--fen", "startpos", "--threads", "257"}},
    {"search: movetime 0", {"search", "--fen", "startpos", "--movetime", "0"}},
    {"search: stray argument", {"search", "--fen", "startpos", "6"}},
    {"lab: unknown backend", {"lab", "--backends", "serial,nope", "--depth", "1"}},
    {"lab: unknown scheme", {"lab", "--hash", "nope", "--depth", "1"}},
    {"lab: threads 0", {"lab", "--threads", "1,0", "--depth", "1"}},
    {"lab: threads 257", {"lab", "--threads", "257", "--depth", "1"}},
    {"lab: bad param", {"lab", "--param", "min_split_depth=0", "--depth", "1"}},
    {"lab: depth 0", {"lab", "--depth", "0"}},
    {"lab: runs 0", {"lab", "--runs", "0", "--depth", "1"}},
    {"lab: missing suite", {"lab", "--suite", "/nonexistent/suite.csv", "--depth", "1"}},
    {"list: stray option", {"list", "--backends"}},
};

class CliSearchBadInput : public ::testing::TestWithParam<Bad> {};

TEST_P(CliSearchBadInput, OneLineOnStderrAndStatus2) {
  const Bad& b = GetParam();
  xq::test::expect_one_line_error(xqlab(b.args), b.what);
}

INSTANTIATE_TEST_SUITE_P(All, CliSearchBadInput, ::testing::ValuesIn(kBadInput),
                         [](const ::testing::TestParamInfo<Bad>& p) {
                           std::string s;
                           for (const char* c = p.param.what; *c; ++c)
                             s += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
                           return s;
                         });

}  // namespace
