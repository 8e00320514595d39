// `xqlab --version`, `cmake --install` and where an xqlab finds its data
// (lab/common/suite.h): an installed binary reads PREFIX/share/xqlab from
// any working directory, never the source tree; XQLAB_DATA_DIR points a
// binary without installed data elsewhere.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/files.h"
#include "tests/support/run_xqlab.h"

namespace xq::test {
namespace {

namespace fs = std::filesystem;

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

TEST(CliVersion, OneLineWithTheCommitAndBuildOfEveryJsonMeta) {
  const XqlabRun v = xqlab({"--version"});
  ASSERT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.err, "");
  EXPECT_EQ(count_lines(v.out), 1) << v.out;
  EXPECT_TRUE(starts_with(v.out, "xqlab 0.1.0 (commit ")) << v.out;
  // The commit and build a JSON document of the same binary records.
  const XqlabRun p =
      xqlab({"lab", "--backends", "serial", "--depth", "1", "--runs", "1", "--json", "--quiet"});
  ASSERT_EQ(p.status, 0) << p.err;
  const nlohmann::json meta = p.json().at("meta");
  const std::string commit = meta.at("commit"), build = meta.at("build");
  EXPECT_NE(v.out.find("(commit " + commit + "; build " + build + "; flags "), std::string::npos)
      << v.out;
  expect_one_line_error(xqlab({"--version", "extra"}), "--version with an argument");
}

TEST(CliInstall, AnInstalledXqlabRunsFromTheRootOnItsOwnData) {
  const std::string prefix = temp_path("install", "prefix");
  fs::remove_all(prefix);
  const std::string build_dir = fs::path(XQLAB_BINARY).parent_path().string();
  const std::string log = temp_path("install", "install.log");
  ASSERT_EQ(std::system(("cmake --install " + shell_quote(build_dir) + " --prefix " +
                         shell_quote(prefix) + " > " + shell_quote(log) + " 2>&1")
                            .c_str()),
            0)
      << read_file(log);
  const std::string bin = prefix + "/bin/xqlab", share = prefix + "/share/xqlab";
  ASSERT_TRUE(fs::exists(bin)) << read_file(log);
  EXPECT_TRUE(fs::exists(share + "/openings.csv"));
  EXPECT_TRUE(fs::exists(share + "/sim/epyc-2c.json"));

  RunLimits from_root;
  from_root.program = bin;
  from_root.cwd = "/";
  from_root.seconds = 600;
  // The lab's default suite is the installed one, whatever the directory.
  const XqlabRun version = run_xqlab({"--version"}, from_root);
  EXPECT_EQ(version.status, 0) << version.err;
  const XqlabRun run = run_xqlab({"lab", "--depth", "3", "--runs", "1", "--json", "--quiet"},
                                 from_root);
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json doc = run.json();
  EXPECT_EQ(doc.at("suite"), share + "/openings.csv");
  EXPECT_GE(doc.at("results").size(), 2u);
  // The simulated machine's default profile, from the same folder.
  const XqlabRun sim = run_xqlab({"search", "--fen", "startpos", "--depth", "4", "--backend",
                                  "ybwc", "--threads", "4", "--simulate", "--json"},
                                 from_root);
  ASSERT_EQ(sim.status, 0) << sim.err;
  const nlohmann::json simulated = sim.json();
  EXPECT_EQ(simulated.at("mode"), "simulated");
  EXPECT_EQ(simulated.at("simulation").at("profile"), share + "/sim/epyc-2c.json");
  fs::remove_all(prefix);
}

TEST(CliInstall, XqlabDataDirPointsABinaryWithoutInstalledDataElsewhere) {
  // The build tree's binary has no PREFIX/share/xqlab beside it: the
  // environment's folder comes before the source tree's data/.
  const std::string dir = temp_path("install", "data");
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir + "/openings.csv") << "name,fen\n"
                                       << "start,rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/"
                                          "1C5C1/9/RNBAKABNR w - - 0 1\n";
  RunLimits with_env;
  with_env.env = {"XQLAB_DATA_DIR=" + dir};
  const XqlabRun run = run_xqlab(
      {"lab", "--backends", "serial", "--depth", "2", "--runs", "1", "--json", "--quiet"},
      with_env);
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json doc = run.json();
  EXPECT_EQ(doc.at("suite"), dir + "/openings.csv");
  EXPECT_EQ(doc.at("positions"), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace xq::test
