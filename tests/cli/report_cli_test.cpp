// `xqlab report` on real runs: every chart with its axis titles, the meta
// under each chart, absent inputs and unmeasured figures named, bad input as
// one line, the summary, progress lines of lab; and the page in a real
// browser (headless Chromium): the DOM has every chart and axis title, and
// the screenshot is not blank.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "parallel/backend.h"
#include "tests/cli/report_inputs.h"
#include "tests/support/run_xqlab.h"

namespace {

using nlohmann::json;
using xq::test::read_file;
using xq::test::report_inputs;
using xq::test::XqlabRun;

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

std::string all_inputs_page(const std::string& out) {
  const auto& in = report_inputs();
  const XqlabRun r = xq::test::run_xqlab({"report", "--out", out, in.lab, in.stress, in.marks,
                                          in.ablation, in.match});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "report: " + out + "/report.html\n");
  return read_file(out + "/report.html");
}

// The CTest fixture of the report tests (tests/cli/report_inputs.h): makes
// their inputs once, in the directory ctest names.
TEST(ReportInputs, Make) {
  const std::string dir = xq::test::shared_report_inputs_dir();
  if (dir.empty())
    GTEST_SKIP() << "XQLAB_REPORT_INPUTS is not set (ctest sets it): each report test makes "
                    "its own inputs";
  const xq::test::ReportInputs r = xq::test::report_input_names(dir);
  ASSERT_TRUE(xq::test::make_report_inputs(r));
  for (const std::string& f : {r.lab, r.stress, r.ablation, r.marks, r.match})
    EXPECT_FALSE(read_file(f).empty()) << f;
}

TEST(ReportCli, LabJsonCarriesMetaAndPositions) {
  const json j = json::parse(read_file(report_inputs().lab));
  for (const char* key : {"command", "date", "commit", "nproc", "cpu", "load_average", "build"})
    EXPECT_TRUE(j.at("meta").contains(key)) << key;
  const int positions = j.at("positions");
  int checked = 0;
  for (const json& r : j.at("results")) {
    ASSERT_EQ(r.at("positions").size(), std::size_t(positions));
    for (const json& p : r.at("positions")) {
      ASSERT_EQ(p.at("run_seconds").size(), 2u);  // --runs 2
      ASSERT_EQ(p.at("run_nodes").size(), 2u);
      const double t = p.at("seconds"), serial = p.at("serial_seconds");
      EXPECT_NEAR(p.at("speedup").get<double>(), serial / t, 1e-9 * serial / t);
      EXPECT_FALSE(p.at("fen").get<std::string>().empty());
      ++checked;
    }
  }
  EXPECT_EQ(checked, positions * int(j.at("results").size()));
  EXPECT_GT(checked, 0);
}

// Whether the lab's backends measure where their threads' time went.
bool lab_has_time_shares() {
  const json j = json::parse(read_file(report_inputs().lab));
  for (const json& r : j.at("results"))
    if (r.at("backend") != "serial" && r.contains("time")) return true;
  return false;
}

// Whether a configuration of the lab counted its critical path: then the
// work-and-span figure (W/C beside the burdened W/(C+Kb)) is on the page.
bool lab_has_work_span() {
  const json j = json::parse(read_file(report_inputs().lab));
  for (const json& r : j.at("results"))
    if (r.contains("work_span")) return true;
  return false;
}

// The groups of declared counters the lab's configurations show
// (search/counters.h): a figure each.
int lab_counter_groups() {
  const json j = json::parse(read_file(report_inputs().lab));
  std::set<std::string> groups;
  for (const json& r : j.at("results"))
    for (const json& c : r.at("counters")) groups.insert(c.at("group").get<std::string>());
  return int(groups.size());
}

TEST(ReportCli, PageHasEveryChartAxisTitleAndMeta) {
  const std::string page = all_inputs_page(::testing::TempDir() + "xqlab_report_all");
  // The time shares' figure and the counters' figures come with the
  // backends the lab ran.
  const int time = int(lab_has_time_shares()) + int(lab_has_work_span()) + lab_counter_groups();
  EXPECT_GE(lab_counter_groups(), 1);
  if (lab_has_work_span()) {
    EXPECT_NE(page.find("W/(C+Kb)"), std::string::npos);
    EXPECT_NE(page.find("K (split points on C)"), std::string::npos);
  }
  for (const std::string& id : xq::test::expected_chart_ids())
    EXPECT_NE(page.find("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"" + id + "\""),
              std::string::npos) << id;
  for (const std::string& t : xq::test::expected_axis_titles())
    EXPECT_NE(page.find(">" + t + "</text>"), std::string::npos) << t;
  // Under every chart: the command and the numbers.
  EXPECT_EQ(count(page, "<figure "), int(xq::test::expected_chart_ids().size()) + time);
  EXPECT_EQ(count(page, "<figcaption>"), count(page, "<table>"));
  // Every input made by the binary has "meta"; the contract-built marks and
  // match documents have none, which the page says under their 3 charts.
  EXPECT_EQ(count(page, "<dt>command</dt>"), 8 + time);
  // ... and how the binary was built, beside the machine.
  EXPECT_EQ(count(page, "<dt>build</dt>"), 8 + time);
  EXPECT_EQ(count(page, "<dt>build</dt><dd>not recorded</dd>"), 0);
  EXPECT_EQ(count(page, "not recorded in this input"), 3);
  EXPECT_NE(page.find("xqlab lab --depth 3 --runs 2"), std::string::npos);
  // Self-contained: nothing fetched, no script.
  for (const char* bad : {"<script", "https://", "@import", "url(", "<link", "<img"})
    EXPECT_EQ(page.find(bad), std::string::npos) << bad;
  EXPECT_EQ(count(page, "http://"), count(page, "http://www.w3.org/2000/svg"));  // namespaces only
  // Where the threads' time went: drawn when measured, otherwise said, not drawn.
  EXPECT_EQ(page.find("id=\"time-shares\"") != std::string::npos, lab_has_time_shares());
  EXPECT_EQ(page.find("not measured in this lab input") != std::string::npos, !lab_has_time_shares());
}

TEST(ReportCli, TimeSharesDrawnWhenMeasured) {
  json j = json::parse(read_file(report_inputs().lab));
  int with_time = 0;
  for (json& r : j.at("results"))
    if (r.at("backend") != "serial") {
      r["time"] = {{"search", 1.5}, {"idle", 0.4}, {"lock", 0.1}};  // copy not measured
      ++with_time;
    }
  ASSERT_GT(with_time, 0);
  const std::string dir = ::testing::TempDir() + "xqlab_report_time";
  xq::test::write_text(dir + "_lab.json", j.dump());
  const XqlabRun r = xq::test::run_xqlab({"report", "--out", dir, dir + "_lab.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(dir + "/report.html");
  EXPECT_NE(page.find("id=\"time-shares\""), std::string::npos);
  EXPECT_EQ(count(page, "class=\"bar\" data-value=\"75\""), with_time);  // 1.5 of 2 s searching
  EXPECT_EQ(count(page, ">n/a</text>"), with_time);  // copy: absent, not zero
}

// A simulated rank sweep: a distributed backend's speedup curve per threads
// per rank against ranks x threads, its configurations named R x T, and the
// wire's figure (absent from a lab without distributed backends).
TEST(ReportCli, RankSweepDrawsRankCurvesAndTheWire) {
  const std::string dir = ::testing::TempDir() + "xqlab_report_ranks";
  // The registry's first distributed backend the simulated machine runs.
  std::string dist;
  for (const xq::BackendInfo& b : xq::backends())
    if (b.distributed && b.simulable && dist.empty()) dist = b.name;
  ASSERT_FALSE(dist.empty());
  const XqlabRun lab = xq::test::run_xqlab(xq::test::with(
      {"lab", "--simulate", "--backends", dist, "--ranks", "1,2", "--threads", "1",
       "--depth", "3", "--runs", "1", "--quiet", "--json-file", dir + "_lab.json"},
      xq::test::lab_size_args()));
  ASSERT_EQ(lab.status, 0) << lab.err;
  const XqlabRun r = xq::test::run_xqlab({"report", "--out", dir, dir + "_lab.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(dir + "/report.html");
  EXPECT_NE(page.find("threads (ranks x threads per rank)"), std::string::npos);
  EXPECT_NE(page.find(dist + "/xor/1t per rank"), std::string::npos);
  EXPECT_NE(page.find("counters: wire"), std::string::npos);
  EXPECT_NE(page.find(dist + "/xor/2x1t"), std::string::npos);
  EXPECT_NE(page.find("SIMULATED"), std::string::npos);
  const std::string plain = all_inputs_page(::testing::TempDir() + "xqlab_report_plain");
  EXPECT_EQ(plain.find("the wire between ranks"), std::string::npos);
}

// A SIMULATED sweep run a backend at a time (bench/many_cores.sh) is one lab
// section whose chart holds every backend's curve, its caption every
// document's command; the model's limits are written beside the curves.
TEST(ReportCli, SimulatedSweepDocumentsAreOneChart) {
  const std::string dir = ::testing::TempDir() + "xqlab_report_sweep";
  std::vector<std::string> docs;
  for (const char* b : {"ybwc", "lazysmp"}) {
    docs.push_back(dir + "_" + b + ".json");
    const XqlabRun lab = xq::test::run_xqlab(xq::test::with(
        {"lab", "--simulate", "--backends", std::string("serial,") + b, "--threads", "1,2,16",
         "--depth", "3", "--runs", "1", "--quiet", "--json-file", docs.back()},
        xq::test::lab_size_args()));
    ASSERT_EQ(lab.status, 0) << lab.err;
  }
  const XqlabRun r = xq::test::run_xqlab({"report", "--out", dir, docs[0], docs[1]});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(dir + "/report.html");
  EXPECT_EQ(count(page, "<section class=\"lab\""), 1);
  EXPECT_NE(page.find("ybwc/xor (SIMULATED)/2t"), std::string::npos);
  EXPECT_NE(page.find("lazysmp/xor (SIMULATED)/2t"), std::string::npos);
  EXPECT_NE(page.find("<dt>merged from</dt>"), std::string::npos);
  EXPECT_NE(page.find("--backends serial,lazysmp"), std::string::npos);
  EXPECT_NE(page.find("no caches, no memory bandwidth, no NUMA"), std::string::npos);
  // What limits the speedup at the most threads (16 and 2 here): idle, sync
  // and search overhead with the table's fill, which every row carries.
  EXPECT_NE(page.find("id=\"fig-limits\""), std::string::npos);
  EXPECT_NE(page.find("<th>table fill (permille)</th>"), std::string::npos);
  for (const std::string& d : docs) {
    const json doc = json::parse(read_file(d));  // named: a range-for over a temporary's member dangles
    for (const json& row : doc.at("results"))
      EXPECT_TRUE(row.contains("hashfull") && row["hashfull"].get<double>() >= 0) << row;
  }
}

// "Which backend for N threads": `recommend --threads LIST --json` as a
// report input draws the speedups behind each decision (SIMULATED ones
// dashed and named so) and the decisions beneath.
TEST(ReportCli, WhichBackendForNThreadsFromARecommendDocument) {
  const std::string dir = ::testing::TempDir() + "xqlab_report_which";
  const std::string lab = dir + "_lab-SIMULATED.json", rec = dir + "_recommend.json";
  const XqlabRun l = xq::test::run_xqlab(xq::test::with(
      {"lab", "--simulate", "--backends", "serial,ybwc,lazysmp", "--threads", "2,4", "--depth", "3",
       "--runs", "1", "--quiet", "--json-file", lab},
      xq::test::lab_size_args()));
  ASSERT_EQ(l.status, 0) << l.err;
  const XqlabRun r = xq::test::run_xqlab({"recommend", "--threads", "2,4,64", "--lab-json", lab, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ofstream(rec) << r.out;
  const XqlabRun page_run = xq::test::run_xqlab({"report", "--out", dir, rec});
  ASSERT_EQ(page_run.status, 0) << page_run.err;
  const std::string page = read_file(dir + "/report.html");
  EXPECT_NE(page.find("<h2>Which backend for N threads (thesis profile)</h2>"), std::string::npos);
  EXPECT_NE(page.find("id=\"which-backend\""), std::string::npos);
  EXPECT_NE(page.find("ybwc (SIMULATED)"), std::string::npos);
  EXPECT_NE(page.find("lazysmp (SIMULATED)"), std::string::npos);
  EXPECT_NE(page.find("<td>no evidence</td>"), std::string::npos);  // 64 threads
  EXPECT_NE(page.find("bench/many_cores.sh with THREADS=64"), std::string::npos);
  // Which setting of a parameter: a lab that varied history_share, its verdict as a table.
  const std::string varied = dir + "_vary-SIMULATED.json", values = dir + "_values.json";
  const XqlabRun v = xq::test::run_xqlab(xq::test::with(
      {"lab", "--simulate", "--backends", "serial,ybwc", "--threads", "2", "--vary",
       "history_share=thread,all", "--depth", "3", "--runs", "1", "--quiet", "--json-file", varied},
      xq::test::lab_size_args()));
  ASSERT_EQ(v.status, 0) << v.err;
  const XqlabRun verdict = xq::test::run_xqlab(
      {"recommend", "--threads", "2", "--param-verdict", "history_share", "--lab-json", varied, "--json"});
  ASSERT_EQ(verdict.status, 0) << verdict.err;
  std::ofstream(values) << verdict.out;
  ASSERT_EQ(xq::test::run_xqlab({"report", "--out", dir + "_v", values}).status, 0);
  const std::string vpage = read_file(dir + "_v/report.html");
  EXPECT_NE(vpage.find("<h2>Which history_share for each backend and thread count (thesis profile)</h2>"),
            std::string::npos);
  EXPECT_NE(vpage.find("<td>ybwc/xor</td><td>2</td>"), std::string::npos) << vpage;
}

// Which hash scheme: a SIMULATED lab of two schemes, the verdict against
// xor's row (paired by seed) in text and as a report table. spinlock and xor
// are built into every lane's xqlab (the sanitizer lanes build a few schemes).
TEST(ReportCli, HashSchemeVerdictIsATable) {
  const std::string dir = ::testing::TempDir() + "xqlab_report_hash_verdict";
  const std::string lab = dir + "_lab-SIMULATED.json", values = dir + "_values.json";
  const XqlabRun v = xq::test::run_xqlab(xq::test::with(
      {"lab", "--simulate", "--backends", "serial,ybwc", "--hash", "spinlock,xor", "--threads", "2",
       "--depth", "3", "--runs", "2", "--quiet", "--json-file", lab},
      xq::test::lab_size_args()));
  ASSERT_EQ(v.status, 0) << v.err;
  const XqlabRun text = xq::test::run_xqlab(
      {"recommend", "--threads", "1,2", "--param-verdict", "hash", "--lab-json", lab});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("Which hash scheme for each backend and thread count"), std::string::npos);
  EXPECT_NE(text.out.find("serial, "), std::string::npos) << text.out;  // 1 thread
  EXPECT_NE(text.out.find("ybwc, "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("time of hash=xor over each scheme's, paired by run; hash=spinlock "),
            std::string::npos)
      << text.out;
  const XqlabRun verdict = xq::test::run_xqlab(
      {"recommend", "--threads", "2", "--param-verdict", "hash", "--lab-json", lab, "--json"});
  ASSERT_EQ(verdict.status, 0) << verdict.err;
  std::ofstream(values) << verdict.out;
  ASSERT_EQ(xq::test::run_xqlab({"report", "--out", dir, values}).status, 0);
  const std::string page = read_file(dir + "/report.html");
  EXPECT_NE(page.find("<h2>Which hash scheme for each backend and thread count (thesis profile)</h2>"),
            std::string::npos);
  EXPECT_NE(page.find("against the same backend's xor row"), std::string::npos);
  EXPECT_NE(page.find("(SIMULATED)"), std::string::npos);
}

TEST(ReportCli, MissingInputsAreNamed) {
  const std::string dir = ::testing::TempDir() + "xqlab_report_missing";
  const std::string absent = dir + "_nosuch.json";
  const XqlabRun r = xq::test::run_xqlab({"report", "--out", dir, report_inputs().lab, absent});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(absent), std::string::npos) << r.err;
  const std::string page = read_file(dir + "/report.html");
  EXPECT_NE(page.find(absent + "</code>: <span class=\"missing\">missing"), std::string::npos);
  EXPECT_NE(page.find("Hash schemes: no stress input"), std::string::npos);
  EXPECT_NE(page.find("Matches: no match input"), std::string::npos);
  EXPECT_EQ(page.find("id=\"hash-errors\""), std::string::npos);
  // No inputs at all: the usual names in --out, each named as missing.
  const std::string empty = ::testing::TempDir() + "xqlab_report_empty";
  const XqlabRun e = xq::test::run_xqlab({"report", "--out", empty});
  ASSERT_EQ(e.status, 0) << e.err;
  const std::string epage = read_file(empty + "/report.html");
  for (const char* name : {"lab.json", "stress.json", "ablation.json", "match.json"})
    EXPECT_NE(epage.find(std::string(name) + "</code>: <span class=\"missing\">"), std::string::npos)
        << name;
  EXPECT_NE(epage.find("Lab comparison: no lab input"), std::string::npos);
}

TEST(ReportCli, BadInputIsOneLine) {
  const std::string bad = ::testing::TempDir() + "xqlab_report_bad.json";
  xq::test::write_text(bad, "{\"results\": [1, 2");
  xq::test::expect_one_line_error(
      xq::test::run_xqlab({"report", "--out", ::testing::TempDir() + "x", bad}), "truncated");
  xq::test::write_text(bad, "{\"something\": 1}\n");
  xq::test::expect_one_line_error(
      xq::test::run_xqlab({"report", "--out", ::testing::TempDir() + "x", bad}), "unknown kind");
  xq::test::expect_one_line_error(xq::test::run_xqlab({"report", bad}), "no --out");
}

TEST(ReportCli, SummaryNamesBestBackendsAndSafestScheme) {
  const auto& in = report_inputs();
  const XqlabRun r = xq::test::run_xqlab({"report", "--summary", "--out",
                                          ::testing::TempDir() + "xqlab_report_sum", in.lab,
                                          in.stress});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(xq::test::count_lines(r.out), 5) << r.out;  // lab, 1 and 2 threads, hash, path
  const json j = json::parse(read_file(in.lab));
  EXPECT_NE(r.out.find("lab: " + std::to_string(j.at("results").size()) +
                       " configurations, depth 3, 2 runs, " + std::to_string(int(j.at("positions"))) +
                       " positions"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("best at 1 thread: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("best at 2 threads: "), std::string::npos) << r.out;
  // Only xor and the unsafe baseline ran: xor is the safe one whatever the counts.
  EXPECT_NE(r.out.find("safest fast hash scheme: xor ("), std::string::npos) << r.out;
}

TEST(ReportCli, LabProgressIsOneLinePerPassOrNothing) {
  const XqlabRun r = xq::test::run_xqlab({"lab", "--depth", "1", "--runs", "2", "--backends",
                                          "serial,ybwc", "--threads", "2", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(r.err, "lab: run "), 4) << r.err;  // 2 configurations x 2 runs
  EXPECT_NE(r.err.find("[4/4, elapsed "), std::string::npos) << r.err;
  const XqlabRun q = xq::test::run_xqlab({"lab", "--depth", "1", "--runs", "2", "--backends",
                                          "serial,ybwc", "--threads", "2", "--json", "--quiet"});
  ASSERT_EQ(q.status, 0) << q.err;
  EXPECT_EQ(count(q.err, "lab: run "), 0) << q.err;
}

}  // namespace
