// The lab's journal (lab/timing/journal.h): a search reads back exactly as
// it was written, a journal of other settings or with a bad line is refused
// and a torn last line dropped, and a run stopped part way and resumed from
// its journal gives the same searches as one that was never interrupted.
#include "lab/timing/journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "lab/timing/summary.h"
#include "parallel/params.h"
#include "tests/support/files.h"

namespace xq::lab::timing {
namespace {

std::vector<common::SuiteEntry> small_suite() {
  Position other;
  EXPECT_EQ(other.set_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"), "");
  return {{"start", Position()}, {"other", other}, {"start again", Position()}};
}

LabSettings small_settings() {
  LabSettings s;
  s.suite_path = "small.csv";
  s.depth = 3;
  s.runs = 2;
  s.configs = {{"serial", "xor", 1, {}}, {"ybwc", "xor", 1, {}}};
  return s;
}

// What must survive the journal: everything the tables and documents read.
void expect_same(const LabRun& a, const LabRun& b) {
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.run, b.run);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.seconds, b.seconds);
  EXPECT_EQ(a.cpu_seconds, b.cpu_seconds);
  EXPECT_EQ(a.load_average, b.load_average);
  EXPECT_EQ(a.agrees, b.agrees);
  EXPECT_EQ(a.result.best_move, b.result.best_move);
  EXPECT_EQ(a.result.score, b.result.score);
  EXPECT_EQ(a.result.depth, b.result.depth);
  EXPECT_EQ(a.result.completed, b.result.completed);
  // Every counter, core and declared, by name.
  int counters = 0;
  for_each_counter(a.result.stats, [&](const char* name, const auto&) {
    EXPECT_EQ(counter_value(a.result.stats, name), counter_value(b.result.stats, name)) << name;
    ++counters;
  });
  EXPECT_EQ(counters, search_counter_count());
}

// Counters this test declares as a family would (search/counters.h).
const DeclaredCount journal_test_count{{.group = "journal test", .name = "journal_test_count"}};
const DeclaredSeconds journal_test_seconds{{.group = "journal test", .name = "journal_test_seconds",
                                            .unit = "seconds"}};

TEST(LabJournal, ASearchReadsBackExactly) {
  const LabSettings s = small_settings();
  const std::vector<common::SuiteEntry> suite = small_suite();
  LabRun r;
  r.config = 1;
  r.run = 1;
  r.position = 2;
  r.seconds = 0.1 + 1e-17;
  r.cpu_seconds = 1.0 / 3.0;
  r.load_average = -1;
  r.result.best_move = suite[2].pos.parse_move("h2e2");
  ASSERT_TRUE(r.result.best_move);
  r.result.score = -37;
  r.result.depth = 3;
  r.result.completed = true;
  r.result.stats.nodes = 123456789012ULL;
  r.result.stats.qnodes = 42;
  r.result.stats.tt_hits = 7;
  r.result.stats.idle_seconds = 2.0 / 7.0;
  r.result.stats.critical_path = 1000;
  r.result.stats[journal_test_count] = 1234;       // a declared count
  r.result.stats[journal_test_seconds] = 1.0 / 9.0;  // declared seconds
  const std::string line = journal_line(s, r);
  const LabRun back = from_journal_line(line, s, suite);
  expect_same(r, back);
  EXPECT_EQ(journal_line(s, back), line);
  EXPECT_THROW(from_journal_line("{\"config\": \"nope/xor/1t\"}", s, suite), std::invalid_argument);
}

TEST(LabJournal, OtherSettingsAndBadLinesAreRefusedATornLastLineDropped) {
  const LabSettings s = small_settings();
  const std::vector<common::SuiteEntry> suite = small_suite();
  const std::string path = xq::test::temp_path("journal", "torn.journal");
  LabRun r;
  r.result.best_move = suite[0].pos.parse_move("h2e2");
  { const JournalWriter w(path, s, suite, {r}); }
  ASSERT_EQ(read_journal(path, s, suite).size(), 1u);
  std::ofstream(path, std::ios::app) << "{\"config\": \"serial/xor/1t\", \"run\": 1, \"posi";
  EXPECT_EQ(read_journal(path, s, suite).size(), 1u);  // torn: the process died writing it
  std::ofstream(path, std::ios::app) << "\n" << journal_line(s, r) << "\n";
  EXPECT_THROW(read_journal(path, s, suite), std::invalid_argument);  // bad, and not the last
  LabSettings deeper = s;
  deeper.depth = 4;
  { const JournalWriter w(path, s, suite, {}); }
  try {
    read_journal(path, deeper, suite);
    ADD_FAILURE() << "a journal of depth 3 resumed at depth 4";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("depth differs"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

// A journal written before a backend parameter was declared (its settings
// lack it) resumes while the parameter is at its default, and not when the
// run sets it to something else.
TEST(LabJournal, AParameterDeclaredLaterAtItsDefaultDoesNotStopAResume) {
  const LabSettings s = small_settings();
  const std::vector<common::SuiteEntry> suite = small_suite();
  const std::string path = xq::test::temp_path("journal", "older.journal");
  LabRun r;
  r.result.best_move = suite[0].pos.parse_move("h2e2");
  { const JournalWriter w(path, s, suite, {r}); }
  std::string text;
  {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) text += line + "\n";
  }
  // Remove history_share from the header's params, as an older xqlab wrote it.
  const std::string key = "\"history_share\":\"thread\",";
  const std::size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos) << text.substr(0, 400);
  text.erase(at, key.size());
  std::ofstream(path) << text;
  EXPECT_EQ(read_journal(path, s, suite).size(), 1u);
  LabSettings shared = s;
  set_param(shared.base, "history_share=all");
  try {
    read_journal(path, shared, suite);
    ADD_FAILURE() << "a journal without history_share resumed with history_share=all";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("params differs"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

// Serial and ybwc at one thread with a fresh table per search: node counts
// and moves are deterministic, so the interrupted-and-resumed run must give
// exactly the uninterrupted run's searches, in the same order.
TEST(LabJournal, AResumedRunEqualsAnUninterruptedOne) {
  const LabSettings s = small_settings();
  const std::vector<common::SuiteEntry> suite = small_suite();
  const std::vector<LabRun> whole = run_lab(s, suite, {});
  ASSERT_EQ(whole.size(), lab_searches(s, suite.size()));

  const std::string path = xq::test::temp_path("journal", "resume.journal");
  std::atomic<bool> stop{false};
  std::vector<LabRun> first;
  {
    JournalWriter journal(path, s, suite, {});
    LabCallbacks cb;
    int finished = 0;
    cb.on_finished = [&](const LabRun& r) {
      journal.append(r);
      if (++finished == 5) stop = true;  // as a signal handler would
    };
    LabResume resume;
    resume.stop = &stop;
    first = run_lab(s, suite, cb, resume);
  }
  EXPECT_EQ(first.size(), 5u);
  const std::vector<std::string> missing = missing_searches(s, suite.size(), first);
  ASSERT_EQ(missing.size(), 2u);
  // Run 1 searched positions 1 and 2 with both, position 3 with serial only.
  EXPECT_EQ(missing[0], "serial/xor/1t: 3 of 6 searches (run 2: all)");
  EXPECT_EQ(missing[1], "ybwc/xor/1t: 4 of 6 searches (run 1: position 3; run 2: all)");

  LabResume resume;
  resume.done = read_journal(path, s, suite);
  ASSERT_EQ(resume.done.size(), 5u);
  int searched = 0;
  LabCallbacks cb;
  cb.on_finished = [&](const LabRun&) { ++searched; };
  const std::vector<LabRun> resumed = run_lab(s, suite, cb, resume);
  EXPECT_EQ(searched, int(whole.size()) - 5);
  ASSERT_EQ(resumed.size(), whole.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    EXPECT_EQ(resumed[i].config, whole[i].config) << i;
    EXPECT_EQ(resumed[i].run, whole[i].run) << i;
    EXPECT_EQ(resumed[i].position, whole[i].position) << i;
    EXPECT_EQ(resumed[i].result.stats.nodes.load(), whole[i].result.stats.nodes.load()) << i;
    EXPECT_EQ(resumed[i].result.best_move, whole[i].result.best_move) << i;
    EXPECT_EQ(resumed[i].result.score, whole[i].result.score) << i;
    EXPECT_EQ(resumed[i].agrees, whole[i].agrees) << i;
  }
  const std::vector<LabSummary> a = summarise(s, suite.size(), whole);
  const std::vector<LabSummary> b = summarise(s, suite.size(), resumed);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].nodes, b[i].nodes);
    EXPECT_EQ(a[i].overhead, b[i].overhead);
    EXPECT_EQ(a[i].agreement, b[i].agreement);
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace xq::lab::timing
