// xqlab ablation end to end: a tiny run writes its table and CSV; bad input is
// one line on stderr and exit status 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct CliRun {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CliRun xqlab(const std::string& args) {
  const std::string dir = ::testing::TempDir();
  const std::string out = dir + "abl_out.txt", err = dir + "abl_err.txt";
  const std::string cmd =
      std::string(XQLAB_BINARY) + " ablation " + args + " >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  CliRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(AblationCli, SmallRunWritesTableAndCsv) {
  const std::string csv = ::testing::TempDir() + "abl.csv";
  const CliRun r = xqlab("--depths 1..2 --positions 2 --configs ab,pvs+tt+ord+null --csv " + csv);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("average nodes per position"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PVS+TT+ordering+null"), std::string::npos) << r.out;
  const std::string text = slurp(csv);
  EXPECT_EQ(lines(text), 1 + 2 * 2) << text;  // header + configs x depths
  EXPECT_EQ(text.rfind("config,label,algorithm,features,depth,", 0), 0u) << text;
}

TEST(AblationCli, JsonHasOneRowPerConfig) {
  const CliRun r = xqlab("--depths 2 --positions 1 --configs pvs,ab+ord --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"config\": \"pvs\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"config\": \"ab+ord\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"avg_nodes\""), std::string::npos) << r.out;
}

TEST(AblationCli, QuotedCsvFieldsAndCustomSuite) {
  const std::string suite = ::testing::TempDir() + "abl_suite.csv";
  {
    std::ofstream f(suite);
    f << "fen,name\n"
      << "\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\","
         "\"start, quoted \"\"name\"\"\"\n";
  }
  const CliRun r = xqlab("--suite " + suite + " --depths 2 --configs pvs");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 positions"), std::string::npos) << r.out;
}

TEST(AblationCli, BadInputIsOneLineAndStatus2) {
  const std::string bad_suite = ::testing::TempDir() + "abl_bad.csv";
  {
    std::ofstream f(bad_suite);
    f << "name,fen\nx,not a fen\n";
  }
  for (const std::string& args : std::vector<std::string>{
           "--depths 0..3", "--depths 5..3", "--depths x", "--configs nosuch", "--suite /nonexistent.csv",
        "--suite " + bad_suite, "--hash nosuch --depths 1", "--bogus", "--repeat 0"}) {
    const CliRun r = xqlab(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

}  // namespace
