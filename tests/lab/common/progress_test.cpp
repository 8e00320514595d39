// Progress lines: the estimate, the text, and what each mode writes, with
// the keep-alive lines of a long unit.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "lab/common/progress.h"

namespace xq::lab::common {
namespace {


std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += char(c);
  return s;
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(Progress, EtaScalesElapsedByWhatIsLeft) {
  EXPECT_LT(eta_seconds(0, 10, 5), 0);  // no estimate before the first unit
  EXPECT_DOUBLE_EQ(eta_seconds(2, 10, 6), 24);
  EXPECT_DOUBLE_EQ(eta_seconds(10, 10, 6), 0);
  EXPECT_EQ(duration_text(42), "42 s");
  EXPECT_EQ(duration_text(185), "3 min 05 s");
  EXPECT_EQ(duration_text(3720), "1 h 02 min");
  EXPECT_EQ(progress_line("lab", "ybwc/xor/2t", 3, 12, 30),
            "lab: ybwc/xor/2t  [3/12, elapsed 30 s, left 1 min 30 s]");
  EXPECT_EQ(progress_line("lab", "x", 0, 12, 1), "lab: x  [0/12, elapsed 1 s, left ?]");
}

TEST(Progress, LinesModeWritesOneLinePerUnit) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("job", 3, Progress::Mode::lines, f);
    p.working("first");  // only a terminal shows what runs now
    p.done("first");
    p.done("second");
    p.done("third");
    p.finish();
  }
  const std::string s = contents(f);
  std::fclose(f);
  EXPECT_EQ(count(s, "\n"), 3) << s;
  EXPECT_EQ(count(s, "\r"), 0) << s;
  EXPECT_NE(s.find("job: third  [3/3,"), std::string::npos) << s;
}

TEST(Progress, TerminalModeRedrawsOneLine) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("job", 2, Progress::Mode::terminal, f);
    p.working("a");
    p.done("a");
    p.done("b");
  }  // finishing ends the line
  const std::string s = contents(f);
  std::fclose(f);
  EXPECT_EQ(count(s, "\r\033[K"), 3) << s;
  EXPECT_EQ(count(s, "\n"), 1) << s;
  EXPECT_EQ(s.back(), '\n');
  EXPECT_NE(s.find("[2/2,"), std::string::npos) << s;
}

TEST(Progress, QuietWritesNothing) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("job", 2, true, f);
    p.working("a");
    p.done("a");
    p.done("b");
    EXPECT_EQ(p.completed(), 2u);
  }
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}

TEST(Progress, KeepAliveWritesALineWhileAUnitRuns) {
  const std::string path =
      ::testing::TempDir() + "xqlab_progress_" + std::to_string(::getpid()) + ".log";
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::string s;
  {
    Progress p("job", 2, Progress::Mode::lines, f);
    p.keep_alive(0.02);
    p.working("a long unit");
    // The line comes from the keep-alive thread within a few intervals; wait
    // for it (up to 10 s on a loaded machine) rather than for a fixed time.
    for (int i = 0; i < 1000 && s.find("job: a long unit") == std::string::npos; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      std::ifstream in(path);
      std::ostringstream read;
      read << in.rdbuf();
      s = read.str();
    }
    p.done("first");
    p.finish();
  }
  std::fclose(f);
  EXPECT_NE(s.find("job: a long unit  [0/2, elapsed "), std::string::npos) << s;
  // Without keep_alive, lines mode writes a line per finished unit only (see
  // LinesModeWritesOneLinePerUnit).
  std::remove(path.c_str());
}

}  // namespace
}  // namespace xq::lab::common
