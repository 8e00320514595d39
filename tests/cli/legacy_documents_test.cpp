// Lab documents written before the families declared their counters
// (search/counters.h, 2026-12-02) still read: three documents as they stood
// at commit 5eec7e6 (tests/data/lab-documents-5eec7e6/: a measured lab over
// six backends, its simulated twin, and a simulated mpi-abdada lab whose
// results carry the old "wire", "remote" and "coordination" objects) go
// through the report, recommend's --lab-json reader and
// bench/sim_vs_real.py.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lab/games/recommend.h"
#include "lab/report/report.h"
#include "tests/support/files.h"

namespace xq {
namespace {

const std::string kDir = std::string(XQLAB_TEST_DATA_DIR) + "/lab-documents-5eec7e6/";
const std::vector<std::string> kDocuments = {"real-middlegames-d8.json",
                                             "sim-middlegames-d8-SIMULATED.json",
                                             "sim-root-d9-SIMULATED.json"};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Json read(const std::string& name) {
  std::ifstream in(kDir + name);
  EXPECT_TRUE(in.good()) << kDir + name;
  return Json::parse(in);
}

TEST(LegacyDocuments, TheReportRendersEachWithItsSpeedupFigures) {
  int rendered = 0;
  for (const std::string& name : kDocuments) {
    const std::vector<lab::report::ReportInput> in = lab::report::read_report_inputs({kDir + name});
    ASSERT_EQ(in.size(), 1u);
    ASSERT_TRUE(in[0].found) << name;
    const std::string html = lab::report::report_html(in);
    EXPECT_NE(html.find("<section class=\"lab\">"), std::string::npos) << name;
    EXPECT_NE(html.find("speedup against threads"), std::string::npos) << name;
    // No declared counters in a document of then: no counters figure.
    EXPECT_EQ(html.find("counters: "), std::string::npos) << name;
    EXPECT_FALSE(lab::report::report_summary(in).empty()) << name;
    ++rendered;
  }
  EXPECT_EQ(rendered, 3);
}

TEST(LegacyDocuments, RecommendReadsTheirTimeToDepthFigures) {
  int rows = 0;
  for (const std::string& name : kDocuments) {
    const Json doc = read(name);
    // The reader `recommend --lab-json FILE` runs.
    const std::vector<lab::games::LabFigures> f = lab::games::read_lab_json(kDir + name);
    ASSERT_EQ(f.size(), doc["results"].size()) << name;
    for (std::size_t i = 0; i < f.size(); ++i) {
      EXPECT_EQ(f[i].backend, doc["results"][i]["backend"].get<std::string>());
      EXPECT_DOUBLE_EQ(f[i].speedup, doc["results"][i]["speedup"].get<double>());
    }
    rows += int(f.size());
  }
  // 7 + 7 configurations in the measured lab and its twin, 2 in mpi-abdada's.
  EXPECT_EQ(rows, 16);
}

TEST(LegacyDocuments, SimVsRealComparesTheTwins) {
  if (std::system("command -v python3 > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3 is not installed (bench/sim_vs_real.py needs it)";
  const std::string out = test::temp_path("legacy", "sim_vs_real.txt");
  const std::string cmd = "python3 " + std::string(XQLAB_TEST_DATA_DIR) +
                          "/../../bench/sim_vs_real.py " + kDir + kDocuments[0] + " " + kDir +
                          kDocuments[1] + " > " + out + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(out);
  const std::string text = slurp(out);
  // A row per parallel backend at 2 threads, and the verdict line.
  for (const char* backend : {"abdada", "abdada-simple", "dts", "lazysmp", "pvsplit", "ybwc"})
    EXPECT_NE(text.find(std::string("\n") + backend + " "), std::string::npos) << backend << "\n" << text;
  EXPECT_NE(text.find("worst |S error|"), std::string::npos) << text;
}

}  // namespace
}  // namespace xq
