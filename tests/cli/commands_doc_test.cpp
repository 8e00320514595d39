// The documents a newcomer reads first cannot drift from the binary:
// docs/commands.md is what `xqlab help --markdown` prints, and the README
// stays a first-five-minutes page (at most 120 lines, no prose line over 200
// characters) whose tables name every registered backend and hash scheme.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "hashing/schemes.h"
#include "lab/report/doc_links.h"
#include "parallel/backend.h"
#include "tests/support/run_xqlab.h"

namespace xq::test {
namespace {

const std::string kRoot = std::string(XQLAB_DATA_DIR) + "/..";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

int count_of(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

TEST(CommandsDoc, TheCommittedReferenceIsWhatTheBinaryPrints) {
  // The reference documents the default build, every scheme compiled; a
  // build of fewer (the ASan lane's XQLAB_SCHEMES) lists fewer pairs.
  for (std::string_view s : kSchemeNames)
    if (!scheme_built(s))
      GTEST_SKIP() << "this build leaves out scheme " << s
                   << " (CMake XQLAB_SCHEMES); docs/commands.md is the default build's";
  const XqlabRun r = xqlab({"help", "--markdown"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string committed = read_file(kRoot + "/docs/commands.md");
  ASSERT_FALSE(committed.empty()) << "docs/commands.md is missing";
  // One section per command, each listed in the table at the top, and the catalog.
  const int sections = count_of(r.out, "\n## xqlab ");
  EXPECT_GE(sections, 16);
  EXPECT_EQ(count_of(r.out, "\n| [`"), sections);
  EXPECT_EQ(count_of(r.out, "\n## What can run\n"), 1);
  EXPECT_EQ(count_of(r.out, "\nparallel backends (--backend):\n"), 1);
  // No path of this machine: the data folder reads <data>.
  EXPECT_EQ(r.out.find(XQLAB_DATA_DIR), std::string::npos);
  EXPECT_GE(count_of(r.out, "<data>/openings.csv"), 1);
  if (committed == r.out) return;
  const std::vector<std::string> want = lines_of(r.out), have = lines_of(committed);
  std::size_t i = 0;
  while (i < want.size() && i < have.size() && want[i] == have[i]) ++i;
  ADD_FAILURE() << "docs/commands.md differs from `xqlab help --markdown` from line " << i + 1
                << " on:\n  committed: " << (i < have.size() ? have[i] : "(end of file)")
                << "\n  printed:   " << (i < want.size() ? want[i] : "(end of output)")
                << "\nregenerate it: build-test/xqlab help --markdown > docs/commands.md";
}

TEST(CommandsDoc, HelpTakesOnlyMarkdown) {
  expect_one_line_error(xqlab({"help", "--html"}), "help with an unknown option");
  expect_one_line_error(xqlab({"help", "--markdown", "x"}), "help --markdown with an argument");
  const XqlabRun plain = xqlab({"help"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_NE(plain.out.find("sim-calibrate"), std::string::npos) << plain.out;
}

TEST(Readme, AFirstFiveMinutesPage) {
  const std::string text = read_file(kRoot + "/README.md");
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_GT(lines.size(), 20u) << "README.md not found next to data/";
  EXPECT_LE(lines.size(), 120u);
  bool fenced = false;
  int prose = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    const bool code = fenced || line.rfind("    ", 0) == 0;
    if (code) continue;
    ++prose;
    EXPECT_LE(line.size(), 200u) << "README.md line " << i + 1;
  }
  EXPECT_GE(prose, 40);
  // The two set-up commands, each on its own line as a code block.
  EXPECT_EQ(count_of(text, "\n    ./scripts/lab.sh\n"), 1);
  EXPECT_EQ(count_of(text, "\n    ./scripts/test.sh\n"), 1);
  // Every backend and scheme has its row.
  int rows = 0;
  for (const BackendInfo& b : backends()) {
    EXPECT_EQ(count_of(text, "\n| `" + std::string(b.name) + "` |"), 1) << b.name;
    ++rows;
  }
  for (std::string_view s : kSchemeNames) {
    EXPECT_EQ(count_of(text, "\n| `" + std::string(s) + "` |"), 1) << s;
    ++rows;
  }
  EXPECT_GE(rows, 23);
  // The picture: a PNG under 150 KB (scripts/report_png.sh makes it).
  const std::string png = read_file(kRoot + "/docs/report.png");
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_LE(png.size(), 150u * 1024u);
  EXPECT_NE(text.find("](docs/report.png)"), std::string::npos);
  // Every relative link names a file of the repository (docs/ has its own
  // check, report --index --check).
  int links = 0;
  for (const auto& link : lab::report::targets::relative_links(text)) {
    const std::string path = link.target.substr(0, link.target.find('#'));
    EXPECT_TRUE(std::filesystem::exists(kRoot + "/" + path)) << "README.md line " << link.line
                                                             << ": " << link.target;
    ++links;
  }
  EXPECT_GE(links, 8);
}

}  // namespace
}  // namespace xq::test
