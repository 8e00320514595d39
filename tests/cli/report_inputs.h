// The inputs of the report tests: a tiny real lab run (depth 3, two runs, 1
// and 2 threads, kLabPositions openings), real stress runs of two schemes
// and a real two-position ablation through the binary; a busy-mark stress
// document and a match document written to their JSON contracts (the
// commands that write them are optional for the report).
//
// Made once per ctest run, not once per test: the test ReportInputs.Make is
// a CTest fixture (tests/CMakeLists.txt) that writes them into the directory
// named by XQLAB_REPORT_INPUTS, and every report test requires it, so ctest
// runs it first and, should it fail, runs none of them. A report test run
// by hand, without that variable (or before the fixture has finished),
// makes its own inputs in a directory of its process, as every test once did.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/run_xqlab.h"

namespace xq::test {

struct ReportInputs {
  std::string dir, lab, stress, ablation, marks, match;
};

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The file names of the inputs in `dir` (ending in '/').
inline ReportInputs report_input_names(const std::string& dir) {
  return {dir, dir + "lab.json", dir + "stress.json", dir + "ablation.json", dir + "marks.json",
          dir + "match.json"};
}

// Written last by make_report_inputs(): the inputs in that directory are whole.
inline std::string report_inputs_done(const ReportInputs& r) { return r.dir + "done"; }

// Runs the binary for the inputs and writes them all into r.dir; false (and
// a test failure) when a command failed.
inline bool make_report_inputs(const ReportInputs& r) {
  std::system(("mkdir -p " + shell_quote(r.dir)).c_str());
  std::remove(report_inputs_done(r).c_str());
  const XqlabRun lab = run_xqlab(with({"lab", "--depth", "3", "--runs", "2", "--threads", "1,2",
                                       "--json-file", r.lab, "--quiet"},
                                      lab_size_args()));
  EXPECT_EQ(lab.status, 0) << lab.err;
  std::string stress;
  bool ok = lab.status == 0;
  for (const char* scheme : {"xor", "unprotected"}) {
    const XqlabRun s = run_xqlab({"stress", "--hash", scheme, "--threads", "2", "--seconds",
                                  "0.2", "--json", "--quiet"});
    EXPECT_EQ(s.status, 0) << s.err;
    ok = ok && s.status == 0;
    stress += s.out;
  }
  write_text(r.stress, stress);
  const XqlabRun abl = run_xqlab({"ablation", "--depths", "1..2", "--positions", "2",
                                  "--configs", "ab,pvs", "--json", "--quiet"});
  EXPECT_EQ(abl.status, 0) << abl.err;
  ok = ok && abl.status == 0;
  write_text(r.ablation, abl.out);
  write_text(r.marks, R"({"mode":"marks","hash":"xor","threads":2,"ops":100000000,)"
                      R"("seconds":1.0,"lost_updates":42,"lost_per_1e8":42,"underflows":0,"leaks":0})"
                      "\n");
  write_text(r.match, R"({"match":{"tc":"10+0.1","games":40,"engines":[{"name":"a","spec":"x"},)"
                      R"({"name":"b","spec":"y"}],"pairings":[{"a":"a","b":"b","wins":14,)"
                      R"("draws":16,"losses":10,"penta":[1,4,8,5,2],"elo":34.9,)"
                      R"("elo_ci":[-40.2,110.0],"los":0.81,"sprt":{"model":"normalized",)"
                      R"("elo0":0,"elo1":10,"alpha":0.05,"beta":0.05,"llr":0.9,)"
                      R"("lower":-2.94,"upper":2.94,"decision":null},)"
                      R"("llr_by_games":[[10,0.1],[20,0.4],[30,0.2],[40,0.9]]}]}})");
  if (ok) write_text(report_inputs_done(r), "");
  return ok;
}

// The directory the fixture writes to; empty when the test runs by hand.
inline std::string shared_report_inputs_dir() {
  const char* d = std::getenv("XQLAB_REPORT_INPUTS");
  return d && *d ? std::string(d) + "/" : std::string();
}

inline const ReportInputs& report_inputs() {
  static const ReportInputs in = [] {
    const std::string shared = shared_report_inputs_dir();
    if (!shared.empty()) {
      const ReportInputs r = report_input_names(shared);
      if (::access(report_inputs_done(r).c_str(), F_OK) == 0) return r;
    }
    const ReportInputs r = report_input_names(::testing::TempDir() + "xqlab_report_" +
                                              std::to_string(::getpid()) + "/");
    make_report_inputs(r);
    return r;
  }();
  return in;
}

// Every chart of a page made from all the inputs, and the axis titles.
inline const std::vector<std::string>& expected_chart_ids() {
  static const std::vector<std::string> ids = {
      "speedup", "efficiency", "overhead", "nps", "positions", "hash-throughput",
      "hash-errors", "hash-marks", "ablation", "match-elo", "match-llr"};
  return ids;
}

inline const std::vector<std::string>& expected_axis_titles() {
  static const std::vector<std::string> t = {
      "threads", "speedup (serial time / time)", "efficiency (speedup / threads)",
      "nodes / serial nodes", "nodes per second", "configuration",
      "speedup on one position (serial time / time)", "hash scheme",
      "events per 1e8 operations (log)", "lost updates per 1e8 operations (log)",
      "Elo of a over b", "games played", "LLR", "pairing (a vs b)"};
  return t;
}

}  // namespace xq::test
