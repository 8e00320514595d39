// `xqlab search`, `xqlab list` (backends and pairs) and `xqlab lab` as a user
// runs them: the JSON keys promised, and exactly one line on stderr with exit
// status 2 for bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "parallel/backend.h"

namespace {

struct Output {
  int status = -1;
  std::string out, err;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Output xqlab(const std::vector<std::string>& args) {
  static int n = 0;
  const std::string base =
      ::testing::TempDir() + "xqlab_search_" + std::to_string(::getpid()) + "_" + std::to_string(n++);
  std::string cmd = "timeout 120 " + quote(XQLAB_BINARY);
  for (const std::string& a : args) {
    cmd += ' ';
    cmd += quote(a);
  }
  cmd += " >";
  cmd += quote(base + ".out");
  cmd += " 2>";
  cmd += quote(base + ".err");
  cmd += " </dev/null";
  const int raw = std::system(cmd.c_str());
  Output r;
  if (raw != -1 && WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  r.out = read_all(base + ".out");
  r.err = read_all(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

int lines(const std::string& s) {
  int k = 0;
  for (char c : s) k += c == '\n';
  return k;
}

bool has_key(const std::string& json, const std::string& key) {
  return json.find("\"" + key + "\": ") != std::string::npos;
}

// The text after "key": up to the next comma or closing bracket.
std::string value_of(const std::string& json, const std::string& key) {
  const std::string k = "\"" + key + "\": ";
  const std::size_t at = json.find(k);
  if (at == std::string::npos) return "";
  const std::size_t start = at + k.size();
  const std::size_t end = json.find_first_of(",}", start);
  return json.substr(start, end - start);
}

TEST(CliSearch, JsonHasEveryPromisedKey) {
  const Output r = xqlab({"search", "--fen", "startpos", "--depth", "4", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(lines(r.out), 1) << r.out;
  EXPECT_EQ(r.out.front(), '{');
  for (const char* key :
       {"bestmove", "score", "depth", "nodes", "qnodes", "seconds", "nps", "pv", "tt_hits", "mate",
        "backend", "hash", "threads", "splits", "joins", "aborts", "tt_probes", "tt_cutoffs",
        "tt_torn", "bad_tt_moves", "first_move_cutoff_rate"})
    EXPECT_TRUE(has_key(r.out, key)) << key << " missing in " << r.out;
  EXPECT_EQ(value_of(r.out, "depth"), "4");
  EXPECT_EQ(value_of(r.out, "mate"), "null");
  EXPECT_EQ(value_of(r.out, "backend"), "\"serial\"");
  EXPECT_EQ(value_of(r.out, "hash"), "\"xor\"");
  EXPECT_NE(r.out.find("\"pv\": [\""), std::string::npos) << r.out;
}

TEST(CliSearch, MateInOneIsReportedAsMate) {
  const Output r = xqlab({"search", "--fen", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "--depth", "3",
                          "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_of(r.out, "mate"), "1") << r.out;
  EXPECT_EQ(value_of(r.out, "bestmove"), "\"a1d1\"") << r.out;
}

TEST(CliSearch, EveryBackendRunsWithTwoThreads) {
  for (const xq::BackendInfo& b : xq::backends()) {
    const Output r = xqlab({"search", "--fen", "startpos", "--depth", "4", "--backend",
                            std::string(b.name), "--threads", "2", "--json"});
    ASSERT_EQ(r.status, 0) << b.name << ": " << r.err;
    const std::string name(b.name);
    EXPECT_EQ(value_of(r.out, "backend"), '"' + name + '"');
  }
}

TEST(CliSearch, ExactModeGivesTheSameScoreForEveryBackend) {
  std::string first;
  for (const xq::BackendInfo& b : xq::backends()) {
    const Output r = xqlab({"search", "--fen", "startpos", "--depth", "3", "--exact", "--backend",
                            std::string(b.name), "--threads", "2", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string score = value_of(r.out, "score");
    if (first.empty()) first = score;
    EXPECT_EQ(score, first) << b.name;
  }
}

TEST(CliSearch, PlainOutputHasInfoLinesAndBestmove) {
  const Output r = xqlab({"search", "--fen", "startpos", "--depth", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("info depth 1 ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("info depth 3 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nbestmove "), std::string::npos) << r.out;
}

TEST(CliSearch, MovetimeAndNodeLimitsEndTheSearch) {
  const Output t = xqlab({"search", "--fen", "startpos", "--movetime", "100", "--json"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(value_of(t.out, "stopped"), "true");
  const Output n = xqlab({"search", "--fen", "startpos", "--nodes", "20000", "--json"});
  ASSERT_EQ(n.status, 0) << n.err;
  EXPECT_EQ(value_of(n.out, "stopped"), "true");
}

TEST(CliList, JsonNamesBackendsAndValidPairs) {
  const Output r = xqlab({"list", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"hash\": [", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\"backends\": [\"serial\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"pairs\": [[\"serial\", "), std::string::npos) << r.out;
  for (const xq::BackendInfo& b : xq::backends())
    EXPECT_NE(r.out.find("[\"" + std::string(b.name) + "\", \"xor\"]"), std::string::npos)
        << b.name;
}

TEST(CliLab, SmallRunWritesSummaryJsonAndRawCsv) {
  const std::string csv = ::testing::TempDir() + "xqlab_lab_" + std::to_string(::getpid()) + ".csv";
  const Output r = xqlab({"lab", "--depth", "2", "--runs", "2", "--threads", "1,2", "--csv", csv,
                          "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* key : {"speedup", "efficiency", "search_overhead", "nps", "tt_hits", "splits",
                          "aborts", "bestmove_agreement", "speedup_min", "speedup_max"})
    EXPECT_TRUE(has_key(r.out, key)) << key;
  EXPECT_NE(r.err.find("lab: run 2/2"), std::string::npos) << r.err;  // progress on stderr
  const std::string rows = read_all(csv);
  std::remove(csv.c_str());
  // Header + one row per search: (serial + 2 per other backend) x 16 positions x 2 runs.
  const int configs = 1 + 2 * (int(xq::backends().size()) - 1);
  EXPECT_EQ(lines(rows), 1 + configs * 16 * 2) << rows.substr(0, 400);
}

TEST(CliLab, NotesThreadCountsAboveTheCores) {
  const Output r = xqlab({"lab", "--depth", "1", "--runs", "1", "--threads", "512",
                          "--backends", "serial"});
  EXPECT_EQ(r.status, 2);  // 512 is above the accepted range
  if (xq::backends().size() < 2) GTEST_SKIP() << "only the serial backend is registered";
  const unsigned cores = std::thread::hardware_concurrency();
  const Output ok = xqlab({"lab", "--depth", "1", "--runs", "1", "--threads",
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
    {"search: movetime 0", {"search", "--fen", "startpos", "--movetime", "0"}},
    {"search: stray argument", {"search", "--fen", "startpos", "6"}},
    {"lab: unknown backend", {"lab", "--backends", "serial,nope", "--depth", "1"}},
    {"lab: unknown scheme", {"lab", "--hash", "nope", "--depth", "1"}},
    {"lab: threads 0", {"lab", "--threads", "1,0", "--depth", "1"}},
    {"lab: depth 0", {"lab", "--depth", "0"}},
    {"lab: runs 0", {"lab", "--runs", "0", "--depth", "1"}},
    {"lab: missing suite", {"lab", "--suite", "/nonexistent/suite.csv", "--depth", "1"}},
    {"list: stray option", {"list", "--backends"}},
};

class CliSearchBadInput : public ::testing::TestWithParam<Bad> {};

TEST_P(CliSearchBadInput, OneLineOnStderrAndStatus2) {
  const Bad& b = GetParam();
  const Output r = xqlab(b.args);
  EXPECT_EQ(r.status, 2) << b.what << ": " << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << b.what << ": " << r.err;
  EXPECT_EQ(r.out, "") << b.what;
}

INSTANTIATE_TEST_SUITE_P(All, CliSearchBadInput, ::testing::ValuesIn(kBadInput),
                         [](const ::testing::TestParamInfo<Bad>& p) {
                           std::string s;
                           for (const char* c = p.param.what; *c; ++c)
                             s += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
                           return s;
                         });

}  // namespace
