// The xqlab command as a user runs it: output format of `xqlab perft` and the
// contract for bad input (exactly one line on stderr, exit status 2, no crash
// and no hang).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct RunResult {
  int status = -1;  // exit status, or -1 when the process did not exit normally
  std::string out, err;
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the xqlab binary with the given arguments under a time limit.
RunResult run(const std::vector<std::string>& args) {
  static int counter = 0;
  const std::string base = ::testing::TempDir() + "xqlab_cli_" + std::to_string(::getpid()) +
                           "_" + std::to_string(counter++);
  std::string cmd = "timeout 60 " + shell_quote(XQLAB_BINARY);
  for (const std::string& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + shell_quote(base + ".out") + " 2>" + shell_quote(base + ".err") + " </dev/null";
  const int raw = std::system(cmd.c_str());
  RunResult r;
  if (raw != -1 && WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

int count_lines(const std::string& s) {
  int n = 0;
  for (char ch : s) n += ch == '\n';
  return n;
}

// Parses one flat JSON object whose values are strings or numbers. Returns
// false on anything else; values keep their text (strings unescaped).
bool parse_flat_json(const std::string& text, std::map<std::string, std::string>& out) {
  std::size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  auto string_at = [&](std::string& s) {
    if (i >= text.size() || text[i] != '"') return false;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\') {
        if (++i >= text.size()) return false;
      }
      s += text[i];
    }
    if (i >= text.size()) return false;
    ++i;
    return true;
  };
  skip();
  if (i >= text.size() || text[i++] != '{') return false;
  for (;;) {
    skip();
    std::string key, value;
    if (!string_at(key)) return false;
    skip();
    if (i >= text.size() || text[i++] != ':') return false;
    skip();
    if (i < text.size() && text[i] == '"') {
      if (!string_at(value)) return false;
    } else {
      while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) ||
                                 std::string("+-.eE").find(text[i]) != std::string::npos))
        value += text[i++];
      if (value.empty()) return false;
    }
    if (out.count(key)) return false;
    out[key] = value;
    skip();
    if (i < text.size() && text[i] == ',') {
      ++i;
      continue;
    }
    if (i < text.size() && text[i] == '}') {
      ++i;
      skip();
      return i == text.size();
    }
    return false;
  }
}

const std::string kStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

TEST(CliPerft, JsonFromStartpos) {
  const RunResult r = run({"perft", "--fen", "startpos", "--depth", "3", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(count_lines(r.out), 1) << r.out;
  std::map<std::string, std::string> obj;
  ASSERT_TRUE(parse_flat_json(r.out, obj)) << r.out;
  for (const char* key : {"fen", "depth", "nodes", "seconds", "nps"})
    EXPECT_TRUE(obj.count(key)) << "missing key " << key << " in " << r.out;
  EXPECT_EQ(obj["fen"], kStart);
  EXPECT_EQ(obj["depth"], "3");
  EXPECT_EQ(obj["nodes"], "79666");
  EXPECT_GE(std::strtod(obj["seconds"].c_str(), nullptr), 0.0);
  EXPECT_GE(std::strtod(obj["nps"].c_str(), nullptr), 0.0);
}

TEST(CliPerft, JsonFromFen) {
  const RunResult r = run({"perft", "--fen",
                           "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
                           "--depth", "2", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, std::string> obj;
  ASSERT_TRUE(parse_flat_json(r.out, obj)) << r.out;
  EXPECT_EQ(obj["nodes"], "1128");
}

TEST(CliPerft, PlainTextReportsNodes) {
  const RunResult r = run({"perft", "--fen", "startpos", "--depth", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1920"), std::string::npos) << r.out;
}

TEST(CliPerft, DivideSumsToTotal) {
  const RunResult r = run({"perft", "--fen", "startpos", "--depth", "2", "--divide"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  int moves = 0;
  long long sum = 0;
  for (std::string line; std::getline(in, line);) {
    const std::size_t colon = line.find(": ");
    if (colon != 4) continue;  // "h2e2: 38"; the totals lines have no such colon
    ++moves;
    sum += std::stoll(line.substr(colon + 2));
  }
  EXPECT_EQ(moves, 44) << r.out;
  EXPECT_EQ(sum, 1920) << r.out;
}

struct BadInvocation {
  const char* what;
  std::vector<std::string> args;
};

const BadInvocation kBad[] = {
    {"unknown subcommand", {"frobnicate"}},
    {"unknown option", {"perft", "--fen", "startpos", "--depth", "2", "--frob"}},
    {"unknown option with value", {"perft", "--fen", "startpos", "--depth", "2", "--threads", "4"}},
    {"stray argument", {"perft", "--fen", "startpos", "--depth", "2", "extra"}},
    {"missing depth", {"perft", "--fen", "startpos"}},
    {"missing fen", {"perft", "--depth", "2"}},
    {"option without value", {"perft", "--fen", "startpos", "--depth"}},
    {"depth 0", {"perft", "--fen", "startpos", "--depth", "0"}},
    {"depth -1", {"perft", "--fen", "startpos", "--depth", "-1"}},
    {"depth abc", {"perft", "--fen", "startpos", "--depth", "abc"}},
    {"depth 3x", {"perft", "--fen", "startpos", "--depth", "3x"}},
    {"depth empty", {"perft", "--fen", "startpos", "--depth", ""}},
    {"depth 1.5", {"perft", "--fen", "startpos", "--depth", "1.5"}},
    {"depth huge", {"perft", "--fen", "startpos", "--depth", "1000"}},
    {"depth overflow", {"perft", "--fen", "startpos", "--depth", "99999999999999999999999"}},
    {"option twice", {"perft", "--fen", "startpos", "--depth", "2", "--depth", "3"}},
    {"malformed fen: garbage", {"perft", "--fen", "hello", "--depth", "2"}},
    {"malformed fen: nine ranks",
     {"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: ten files",
     {"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: unknown letter",
     {"perft", "--fen", "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: no black king",
     {"perft", "--fen", "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: two red kings",
     {"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "--depth", "2"}},
    {"malformed fen: advisor outside the palace",
     {"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w", "--depth", "2"}},
    {"malformed fen: kings facing", {"perft", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "--depth", "2"}},
    {"malformed fen: side not to move in check",
     {"perft", "--fen", "3k5/9/9/9/3R5/9/9/9/9/4K4 w - - 0 1", "--depth", "2"}},
    {"malformed fen: bad side", {"perft", "--fen", "3k5/9/9/9/9/9/9/9/9/4K4 x", "--depth", "2"}},
    {"empty fen", {"perft", "--fen", "", "--depth", "2"}},
};

TEST(CliBadInput, OneLineOnStderrAndStatus2) {
  for (const BadInvocation& bad : kBad) {
    const RunResult r = run(bad.args);
    EXPECT_EQ(r.status, 2) << bad.what << "; stderr: " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << bad.what << "; stderr: " << r.err;
    EXPECT_TRUE(!r.err.empty() && r.err.back() == '\n') << bad.what;
    EXPECT_GT(r.err.size(), 10u) << bad.what << ": error too short to name the problem: " << r.err;
    EXPECT_EQ(r.out, "") << bad.what;
  }
}

TEST(CliBadInput, FenErrorNamesTheProblem) {
  const RunResult r = run({"perft", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w", "--depth", "1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("check"), std::string::npos) << r.err;
  const RunResult d = run({"perft", "--fen", "startpos", "--depth", "abc"});
  EXPECT_NE(d.err.find("depth"), std::string::npos) << d.err;
  const RunResult u = run({"frobnicate"});
  EXPECT_NE(u.err.find("frobnicate"), std::string::npos) << u.err;
}

TEST(CliBadInput, NoCommandPrintsUsageAndStatus2) {
  const RunResult r = run({});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("usage"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CliHelp, HelpExitsZero) {
  const RunResult r = run({"help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("perft"), std::string::npos);
}

}  // namespace
