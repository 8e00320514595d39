#include "lab/common/meta.h"

#include <gtest/gtest.h>

#include <regex>

namespace xq::lab::common {
namespace {

TEST(RunMeta, QuotesOnlyWhatTheShellWouldSplit) {
  EXPECT_EQ(command_line({"xqlab", "lab", "--threads", "1,2", "--param", "min_split_depth=3"}),
            "xqlab lab --threads 1,2 --param min_split_depth=3");
  EXPECT_EQ(command_line({"xqlab", "search", "--fen", "9/9 w - - 0 1"}),
            "xqlab search --fen '9/9 w - - 0 1'");
  EXPECT_EQ(command_line({"a", "it's", ""}), "a 'it'\\''s' ''");
}

TEST(RunMeta, DescribesThisProcess) {
  const RunMeta m = run_meta({"xqlab", "list"});
  EXPECT_EQ(m.command, "xqlab list");
  EXPECT_TRUE(std::regex_match(m.date, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << m.date;
  EXPECT_FALSE(m.commit.empty());
  EXPECT_GE(m.nproc, 1);
  EXPECT_FALSE(m.cpu.empty());
  const Json j = m;
  for (const char* key : {"command", "date", "commit", "nproc", "cpu", "load_average", "build"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["nproc"].get<int>(), m.nproc);
  // The build: type, LTO or not, target and compiler.
  EXPECT_TRUE(std::regex_search(m.build, std::regex(R"(^\w+, (LTO|no LTO), .+, \w+ \d+\.\d+)")))
      << m.build;
}

}  // namespace
}  // namespace xq::lab::common
