// `xqlab stress` and `xqlab list`, run as a user would (exit status, output).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "hashing/schemes.h"

namespace {

struct CliRun {
  int status = -1;
  std::string out;
};

CliRun run_xqlab(const std::string& args) {
  CliRun r;
  const std::string cmd = std::string(XQLAB_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) r.out += buf;
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TEST(HashCli, ListJsonNamesEverySchemeUnderHash) {
  const CliRun r = run_xqlab("list --json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("{\"hash\": [", 0), 0u) << r.out;
  for (std::string_view n : xq::kSchemeNames) {
    std::string quoted = "\"";
    quoted.append(n).push_back('"');
    EXPECT_NE(r.out.find(quoted), std::string::npos) << n;
  }
}

TEST(HashCli, ListTextNamesEveryScheme) {
  const CliRun r = run_xqlab("list");
  ASSERT_EQ(r.status, 0) << r.out;
  for (std::string_view n : xq::kSchemeNames)
    EXPECT_NE(r.out.find(std::string(n)), std::string::npos) << n;
}

TEST(HashCli, StressJsonReportsTheRequiredKeys) {
  const CliRun r = run_xqlab("stress --hash xor --threads 2 --seconds 0.05 --entries 64 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* key : {"\"ops\":", "\"ops_per_sec\":", "\"hits\":", "\"torn_detected\":",
                          "\"corrupt_accepted\": 0,"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " in " << r.out;
}

TEST(HashCli, StressStopsAfterOps) {
  const CliRun r = run_xqlab("stress --hash spinlock --threads 2 --ops 1280 --seconds 30 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"ops\": 1280,"), std::string::npos) << r.out;
}

TEST(HashCli, StressRejectsBadInputWithOneLineAndStatus2) {
  for (const char* args : {"stress --hash nope", "stress --hash xor --threads 0",
                           "stress --hash xor --entries 0", "stress --hash xor --seconds 0",
                           "stress --hash xor --seconds -1", "stress --hash xor --seconds x",
                           "stress --threads 2", "stress --hash xor --replace best",
                           "stress --hash perthread --threads 8 --entries 1 --bogus",
                           "list --hash"}) {
    const CliRun r = run_xqlab(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
  const CliRun r = run_xqlab("stress --hash nope");
  EXPECT_NE(r.out.find("unknown hash scheme 'nope'"), std::string::npos) << r.out;
}

}  // namespace
