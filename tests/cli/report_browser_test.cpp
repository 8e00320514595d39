// The report in a real browser: headless Chromium loads the page made from a
// small real run, its DOM holds every chart and axis title, and its
// screenshot is not blank (decoded here: many colours, a fair share of
// non-white pixels). Skipped, with the reason, when Chromium is absent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "tests/cli/png_pixels.h"
#include "tests/cli/report_inputs.h"
#include "tests/support/run_xqlab.h"

namespace {

const char* const kChromium = "/usr/bin/chromium";

std::string chromium(const std::string& profile, const std::string& args) {
  return std::string("timeout 120 ") + kChromium +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
         " --disable-background-networking --disable-component-update --disable-sync"
         " --user-data-dir=" + xq::test::shell_quote(profile) + " " + args;
}

TEST(ReportBrowser, ChromiumDrawsEveryChart) {
  if (::access(kChromium, X_OK) != 0)
    GTEST_SKIP() << kChromium << " is absent (Debian package chromium; scripts/deps.sh "
                 "installs it with XQLAB_WITH_CHROMIUM=1)";
  const auto& in = xq::test::report_inputs();
  const std::string dir = ::testing::TempDir() + "xqlab_report_browser_" + std::to_string(::getpid());
  const xq::test::XqlabRun r = xq::test::run_xqlab(
      {"report", "--out", dir, in.lab, in.stress, in.marks, in.ablation, in.match});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string url = xq::test::shell_quote("file://" + dir + "/report.html");
  const std::string dom_file = dir + "/dom.html", png = dir + "/shot.png";
  ASSERT_EQ(std::system((chromium(dir + "/profile1", "--dump-dom " + url) + " >" +
                         xq::test::shell_quote(dom_file) + " 2>/dev/null").c_str()), 0);
  const std::string dom = xq::test::read_file(dom_file);
  ASSERT_GT(dom.size(), 1000u) << dom;
  int charts = 0;
  for (const std::string& id : xq::test::expected_chart_ids()) {
    EXPECT_NE(dom.find("id=\"" + id + "\""), std::string::npos) << id;
    ++charts;
  }
  EXPECT_EQ(charts, 11);
  for (const std::string& t : xq::test::expected_axis_titles())
    EXPECT_NE(dom.find(">" + t + "</text>"), std::string::npos) << t;
  ASSERT_EQ(std::system((chromium(dir + "/profile2", "--screenshot=" + xq::test::shell_quote(png) +
                                  " --window-size=1200,2000 " + url) + " >/dev/null 2>&1").c_str()), 0);
  const xq::test::Pixels shot = xq::test::read_png(xq::test::read_file(png));
  ASSERT_TRUE(shot.error.empty()) << shot.error;
  EXPECT_EQ(shot.width, 1200u);
  EXPECT_EQ(shot.height, 2000u);
  std::set<std::uint32_t> colours;
  std::size_t inked = 0;
  for (std::uint32_t rgb : shot.rgb) {
    if (colours.size() < 1000) colours.insert(rgb);
    inked += rgb != 0xffffff;
  }
  EXPECT_GT(colours.size(), 20u);  // text, axes, several series colours, anti-aliasing
  EXPECT_GT(double(inked) / double(shot.rgb.size()), 0.05);
}

}  // namespace
