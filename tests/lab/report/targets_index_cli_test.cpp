// `xqlab report --index` as a user and CI run it: on a copy of the fixture
// in tests/data/results-index/ (write, --check, a stale file, a dead link,
// bad input), and --check on the repository itself, so that CI fails when
// docs/RESULTS.md is stale, a cited document is missing, a recomputed
// figure changed or a link under docs/ is dead.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/support/run_xqlab.h"

namespace {

namespace fs = std::filesystem;
using xq::test::XqlabRun;

const std::string kIndexFixture = std::string(XQLAB_TEST_DATA_DIR) + "/results-index";
// The repository: data/ is one of its folders.
const std::string kRepositoryRoot = fs::path(XQLAB_DATA_DIR).parent_path().string();

// A fresh copy of the fixture, which a test may change.
std::string fixture_copy(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "results_index_" + name;
  fs::remove_all(dir);
  fs::copy(kIndexFixture, dir, fs::copy_options::recursive);
  return dir;
}

void replace_in_file(const std::string& path, const std::string& from, const std::string& to) {
  std::string text = xq::test::read_file(path);
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << path;
  text.replace(at, from.size(), to);
  std::ofstream(path, std::ios::binary) << text;
}

// A failure of the index: the status, one line on stderr, nothing on stdout.
void expect_index_failure(const XqlabRun& r, int status, const std::string& part) {
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_EQ(xq::test::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(part), std::string::npos) << "wanted '" << part << "' in: " << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(TargetsIndexCli, CheckPassesOnTheFixture) {
  const XqlabRun r = xq::test::xqlab({"report", "--index", "--check", "--root", kIndexFixture});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "report: docs/RESULTS.md is current (8 targets, 5 recomputed, 1 typed, 1 with "
                   "neither document nor commit); 28 links in 6 files under docs/ resolve\n");
  EXPECT_EQ(r.err, "");
}

TEST(TargetsIndexCli, WritesTheIndexThenCheckAgrees) {
  const std::string dir = fixture_copy("write");
  fs::remove(dir + "/docs/RESULTS.md");
  const XqlabRun missing = xq::test::xqlab({"report", "--index", "--check", "--root", dir});
  expect_index_failure(missing, 1, "docs/RESULTS.md is missing");

  const XqlabRun w = xq::test::xqlab({"report", "--index", "--root", dir});
  EXPECT_EQ(w.status, 0) << w.err;
  EXPECT_NE(w.out.find("report: docs/RESULTS.md written (8 targets"), std::string::npos) << w.out;
  EXPECT_EQ(xq::test::read_file(dir + "/docs/RESULTS.md"),
            xq::test::read_file(kIndexFixture + "/docs/RESULTS.md"));

  // --targets and --out elsewhere, relative to --root.
  fs::copy_file(dir + "/docs/targets.json", dir + "/t.json");
  const XqlabRun o = xq::test::xqlab(
      {"report", "--index", "--root", dir, "--targets", "t.json", "--out", "index.md"});
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(xq::test::read_file(dir + "/index.md"),
            xq::test::read_file(kIndexFixture + "/docs/RESULTS.md"));
}

TEST(TargetsIndexCli, CheckNamesTheFirstDifferingLine) {
  const std::string dir = fixture_copy("stale");
  replace_in_file(dir + "/docs/RESULTS.md", "|alpha-match|Elo", "|alpha-match|The Elo");
  const XqlabRun r = xq::test::xqlab({"report", "--index", "--check", "--root", dir});
  expect_index_failure(r, 1, "docs/RESULTS.md is stale (xqlab report --index rewrites it): line ");
  EXPECT_NE(r.err.find("has '|alpha-match|The Elo"), std::string::npos) << r.err;
}

TEST(TargetsIndexCli, ChangedFigureMissingDocumentAndDeadLinkFail) {
  const std::string figure = fixture_copy("figure");
  replace_in_file(figure + "/docs/results/match.json", "\"wins\": 36", "\"wins\": 37");
  expect_index_failure(xq::test::xqlab({"report", "--index", "--check", "--root", figure}), 2,
                       "target 'alpha-match': the documents give '+37 =18 -6, Elo +190.8 "
                       "[+123.0, +275.5]' but figure.text records '+36 =18 -6, Elo +190.8 "
                       "[+123.0, +275.5]'");

  const std::string missing = fixture_copy("missing");
  fs::remove(missing + "/docs/results/many/sim-middlegames-d8-part-3-SIMULATED.json");
  expect_index_failure(xq::test::xqlab({"report", "--index", "--check", "--root", missing}), 2,
                       "target 'gamma-many-documents': document 'docs/results/many/"
                       "sim-middlegames-d8-part-3-SIMULATED.json' is missing");

  const std::string dead = fixture_copy("dead");
  std::ofstream(dead + "/docs/journal/2026-12-01.md", std::ios::app)
      << "\nSee [the table](../results/gone.csv) and `[code](not/checked.md)`.\n";
  expect_index_failure(xq::test::xqlab({"report", "--index", "--check", "--root", dead}), 1,
                       "1 dead link(s) under docs/, the first: journal/2026-12-01.md:11: "
                       "../results/gone.csv");
}

TEST(TargetsIndexCli, BadInputIsOneLineNamingTheTarget) {
  const std::string dir = fixture_copy("bad");
  const std::string targets = dir + "/docs/targets.json";
  std::ofstream(dir + "/broken.json") << "{\"schema\": 1, \"targets\": [";
  expect_index_failure(
      xq::test::xqlab({"report", "--index", "--root", dir, "--targets", "broken.json"}), 2,
      "targets file '" + dir + "/broken.json' is not JSON");
  replace_in_file(targets, "\"kind\": \"solve\"", "\"kind\": \"perft\"");
  expect_index_failure(xq::test::xqlab({"report", "--index", "--root", dir}), 2,
                       "target 'beta-solve': compute: unknown kind 'perft'");
  replace_in_file(targets, "\"kind\": \"perft\"", "\"kind\": \"solve\"");
  replace_in_file(targets, "{penalised_seconds:.1f}", "{penalised_seconds:.1z}");
  expect_index_failure(xq::test::xqlab({"report", "--index", "--root", dir}), 2,
                       "target 'beta-solve': compute item 0: placeholder "
                       "'{penalised_seconds:.1z}': unknown spec");
  // A .gz document that holds plain text, not gzip data.
  replace_in_file(targets, "docs/results/match.json", "docs/results/match.json.gz");
  fs::copy_file(dir + "/docs/results/match.json", dir + "/docs/results/match.json.gz");
  expect_index_failure(xq::test::xqlab({"report", "--index", "--root", dir}), 2,
                       "target 'alpha-match': cannot decompress '" + dir +
                           "/docs/results/match.json.gz': incorrect header check");
  // The index was never written over.
  EXPECT_EQ(xq::test::read_file(dir + "/docs/RESULTS.md"),
            xq::test::read_file(kIndexFixture + "/docs/RESULTS.md"));
  expect_index_failure(xq::test::xqlab({"report", "--index", "--root", dir, "lab.json"}), 2,
                       "--index reads docs/targets.json; it takes no inputs");
  expect_index_failure(xq::test::xqlab({"report", "--check", "--out", dir}), 2,
                       "--check, --targets and --root go with --index");
}

// CI's guard: the committed index is what docs/targets.json and its
// documents give, and every relative link under docs/ resolves.
TEST(TargetsIndexRepository, ResultsIndexIsCurrentAndLinksResolve) {
  const XqlabRun r = xq::test::xqlab({"report", "--index", "--check", "--root", kRepositoryRoot});
  ASSERT_EQ(r.status, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(\((\d+) targets, (\d+) recomputed)")))
      << r.out;
  const nlohmann::json targets =
      nlohmann::json::parse(xq::test::read_file(kRepositoryRoot + "/docs/targets.json"));
  int computed = 0;
  for (const nlohmann::json& t : targets["targets"]) computed += !t["compute"].is_null();
  EXPECT_EQ(std::stoi(m[1].str()), int(targets["targets"].size()));
  EXPECT_EQ(std::stoi(m[2].str()), computed);
  EXPECT_GT(computed, 0);
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"((\d+) links in (\d+) files)"))) << r.out;
  EXPECT_GT(std::stoi(m[1].str()), 0);
}

}  // namespace
