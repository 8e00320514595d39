// An engine that is ended takes what it started along (lab/process.h): a
// wrapper script that leaves a background grandchild (`sleep 1000 &`, as a
// wrapper or mpirun leaves its engine or ranks) loses it when the match
// forfeits the engine, when the player is destroyed, and when the program
// running the match dies of a signal or exits.
#include "lab/games/process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include <cerrno>
#include <chrono>
#include <fstream>
#include <thread>

#include "board/position.h"
#include "lab/games/game.h"
#include "lab/games/player.h"
#include "tests/lab/games/games_util.h"
#include "tests/support/files.h"
#include "tests/support/script_engine.h"

namespace xq::lab::games {
namespace {

using namespace std::chrono_literals;

// Orphans come to this process rather than to init (which may never reap
// them in a container, leaving zombies that kill(pid, 0) still finds).
class ProcessGroups : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::access("/bin/sh", X_OK) != 0) GTEST_SKIP() << "no /bin/sh";
#if defined(__linux__)
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  }
};

// True once `pid` no longer exists, reaping it if it came to us; waits up to
// `limit` for that.
bool gone(pid_t pid, std::chrono::milliseconds limit = 3s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  for (;;) {
    ::waitpid(pid, nullptr, WNOHANG);
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(10ms);
  }
}

pid_t read_pid(const std::string& path) {
  pid_t pid = -1;
  std::ifstream(path) >> pid;
  return pid;
}

// A UCI engine behind a wrapper script that first starts a grandchild (its
// pid into `pid_file`) and does `on_go` for every "go". The grandchild holds
// the engine's stdout, as an engine under a wrapper or mpirun's ranks do,
// unless `quiet_grandchild`: then a wrapper that exits closes the pipe.
std::string wrapper_engine(const std::string& name, const std::string& pid_file,
                           const std::string& on_go, bool quiet_grandchild = false) {
  const std::string prelude = std::string(quiet_grandchild ? "sleep 1000 >/dev/null &\n"
                                                          : "sleep 1000 &\n") +
                              "echo $! > '" + pid_file + "'\n";
  return test::script_engine(xq::test::temp_path("process", name + ".sh"), name, on_go, prelude);
}

using test_util::fast;

// The wrapper plays red and does `on_go`; returns the grandchild's pid as
// it stands right after the game, while the player still exists.
struct Forfeit {
  GameRecord g;
  pid_t grandchild;
  bool gone_before_destruction;
};
Forfeit forfeit_with_grandchild(const std::string& name, const std::string& on_go,
                                bool quiet_grandchild = false) {
  const std::string pid_file = xq::test::temp_path("process", name + ".pid");
  const auto wrapper =
      make_player("uci:" + wrapper_engine(name, pid_file, on_go, quiet_grandchild), 2s);
  const pid_t grandchild = read_pid(pid_file);
  EXPECT_GT(grandchild, 0);
  EXPECT_EQ(::kill(grandchild, 0), 0) << "the grandchild runs while the engine plays";
  const auto good = make_player("xqlab", 2s);
  Forfeit f{play_game(*wrapper, *good, "start", Position{}, fast(), {}), grandchild, false};
  f.gone_before_destruction = gone(grandchild);
  return f;
}

TEST_F(ProcessGroups, AHungEngineIsForfeitedWithItsChildren) {
  const Forfeit f = forfeit_with_grandchild("hang", "true");
  EXPECT_NE(f.g.reason.find("forfeits: hangs"), std::string::npos) << f.g.reason;
  EXPECT_TRUE(f.gone_before_destruction) << "grandchild " << f.grandchild << " outlived the forfeit";
}

// The wrapper exits and leaves its grandchild: the group still ends. (Were
// the grandchild holding stdout, the pipe would stay open and the match
// would see a hang instead, which ends the same way.)
TEST_F(ProcessGroups, ACrashedWrapperLeavesNoChildren) {
  const Forfeit f = forfeit_with_grandchild("crash", "exit 3", true);
  EXPECT_NE(f.g.reason.find("crashed (exit status 3)"), std::string::npos) << f.g.reason;
  EXPECT_TRUE(f.gone_before_destruction) << "grandchild " << f.grandchild << " outlived the crash";
}

TEST_F(ProcessGroups, DestroyingAPlayerEndsItsChildren) {
  const std::string pid_file = xq::test::temp_path("process", "idle.pid");
  auto player = make_player("uci:" + wrapper_engine("idle", pid_file, "true"), 2s);
  const pid_t grandchild = read_pid(pid_file);
  ASSERT_GT(grandchild, 0);
  EXPECT_EQ(::kill(grandchild, 0), 0);
  player.reset();
  EXPECT_TRUE(gone(grandchild));
}

// A child that ignores SIGTERM is killed after the grace period.
TEST_F(ProcessGroups, SigtermIgnoredMeansSigkillAfterTheGrace) {
  ChildProcess c({"/bin/sh", "-c", "trap '' TERM; sleep 1000 & echo $!; wait"});
  std::string line;
  ASSERT_EQ(c.read_line(line, ChildProcess::Clock::now() + 5s), ChildProcess::ReadStatus::Line);
  const pid_t grandchild = pid_t(std::stol(line));
  const auto start = std::chrono::steady_clock::now();
  c.kill(100ms);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_FALSE(c.alive());
  EXPECT_EQ(c.exit_description(), "killed by signal " + std::to_string(SIGKILL));
  EXPECT_TRUE(gone(grandchild));
}

// The program running the match (a forked copy of this test) is ended by
// `sig` with no handler of its own, or calls exit(): its engine's group
// goes with it.
pid_t grandchild_after_the_parent_ends(int sig) {
  int p[2];
  if (::pipe(p) != 0) return -1;
  const pid_t match = ::fork();
  if (match == 0) {
    ::close(p[0]);
    for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::signal(s, SIG_DFL);
    auto* c = new ChildProcess({"/bin/sh", "-c", "sleep 1000 & echo $!; exec sleep 1000"});
    std::string line;
    if (c->read_line(line, ChildProcess::Clock::now() + 5s) != ChildProcess::ReadStatus::Line)
      ::_exit(2);
    line += "\n";
    if (::write(p[1], line.data(), line.size()) != ssize_t(line.size())) ::_exit(2);
    if (sig == 0) std::exit(0);  // the ChildProcess is never destroyed
    ::pause();
    ::_exit(3);
  }
  ::close(p[1]);
  char buf[32] = {};
  const auto n = ::read(p[0], buf, sizeof buf - 1);
  ::close(p[0]);
  if (sig != 0) ::kill(match, sig);
  int status = 0;
  ::waitpid(match, &status, 0);
  if (sig != 0) {
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
  } else {
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  }
  return n > 0 ? pid_t(std::atol(buf)) : -1;
}

TEST_F(ProcessGroups, EndedWhenTheMatchDiesOfSigterm) {
  const pid_t g = grandchild_after_the_parent_ends(SIGTERM);
  ASSERT_GT(g, 0);
  EXPECT_TRUE(gone(g));
}

TEST_F(ProcessGroups, EndedWhenTheMatchDiesOfCtrlC) {
  const pid_t g = grandchild_after_the_parent_ends(SIGINT);
  ASSERT_GT(g, 0);
  EXPECT_TRUE(gone(g));
}

TEST_F(ProcessGroups, EndedWhenTheMatchExits) {
  const pid_t g = grandchild_after_the_parent_ends(0);
  ASSERT_GT(g, 0);
  EXPECT_TRUE(gone(g));
}

}  // namespace
}  // namespace xq::lab::games
