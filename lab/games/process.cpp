#include "lab/games/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace xq::lab::games {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// The process groups of the children alive, for the exit hook and the signal
// handler (0 = a free slot). Atomics, so the handler may read them. A child
// beyond the last slot is still ended by kill(), only not at a sudden exit.
constexpr int kMaxGroups = 128;
std::atomic<pid_t> g_groups[kMaxGroups];
static_assert(std::atomic<pid_t>::is_always_lock_free, "read from a signal handler");

void remember_group(pid_t pgid) {
  for (auto& g : g_groups) {
    pid_t free = 0;
    if (g.compare_exchange_strong(free, pgid)) return;
  }
}

void forget_group(pid_t pgid) {
  for (auto& g : g_groups) {
    pid_t mine = pgid;
    if (g.compare_exchange_strong(mine, 0)) return;
  }
}

// Async-signal-safe: kill() and atomic loads only.
void kill_all_groups() {
  for (auto& g : g_groups)
    if (const pid_t p = g.load(); p > 0) ::kill(-p, SIGKILL);
}

extern "C" void kill_groups_and_die(int sig) {
  kill_all_groups();
  ::signal(sig, SIG_DFL);
  ::raise(sig);  // delivered when the handler returns: the default action
}

// Takes over SIGINT, SIGTERM and SIGHUP where they still have their default
// action (which would end this program and leave the groups running); called
// at every start, since a caller may have put a default back meanwhile.
void end_groups_at_exit() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(kill_all_groups); });
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    struct sigaction act {};
    act.sa_handler = kill_groups_and_die;
    sigemptyset(&act.sa_mask);
    ::sigaction(sig, &act, nullptr);
  }
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) throw std::invalid_argument("empty engine command");
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  // Tells the parent whether exec failed: closed by a successful exec.
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    // Its own process group (lab/process.h): a Ctrl-C meant for the match
    // must not kill the engine in the middle of a game, and kill() can end
    // everything the engine started.
    ::setpgid(0, 0);
    // Not the parent's handlers before exec (which would reset them anyway):
    // a SIGTERM from kill() after a failed exec must not run the handler that
    // ends every group. An ignored signal stays ignored, as exec keeps it.
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) {
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        ::sigaction(sig, &dfl, nullptr);
      }
    }
    ::dup2(in_pipe[0], 0);
    ::dup2(out_pipe[1], 1);
    ::execvp(args[0], args.data());
    const int e = errno;
    [[maybe_unused]] auto n = ::write(err_pipe[1], &e, sizeof e);
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);  // as the child does, so no kill(-pid) can come before it
  remember_group(pid_);
  end_groups_at_exit();
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  int e = 0;
  const auto n = ::read(err_pipe[0], &e, sizeof e);
  ::close(err_pipe[0]);
  if (n == sizeof e) {
    kill();
    throw std::invalid_argument("cannot start engine '" + argv[0] + "': " + std::strerror(e));
  }
  ::fcntl(from_child_, F_SETFL, ::fcntl(from_child_, F_GETFL) | O_NONBLOCK);
  ::signal(SIGPIPE, SIG_IGN);  // a dead child must not kill the match
}

ChildProcess::~ChildProcess() { kill(); }

bool ChildProcess::send(const std::string& line) {
  if (to_child_ < 0) return false;
  const std::string data = line + "\n";
  std::size_t done = 0;
  while (done < data.size()) {
    const auto n = ::write(to_child_, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return ReadStatus::Line;
    }
    if (from_child_ < 0) return ReadStatus::Closed;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return ReadStatus::Timeout;
    pollfd p{from_child_, POLLIN, 0};
    const int r = ::poll(&p, 1, int(std::min<long long>(left.count(), 1000)));
    if (r < 0 && errno != EINTR) return ReadStatus::Closed;
    if (r <= 0) continue;
    char buf[4096];
    const auto n = ::read(from_child_, buf, sizeof buf);
    if (n > 0) buffer_.append(buf, std::size_t(n));
    else if (n == 0 || (errno != EAGAIN && errno != EINTR)) close_fd(from_child_);
  }
}

void ChildProcess::reap(bool block) {
  if (pid_ <= 0 || exited_) return;
  int st = 0;
  const pid_t r = ::waitpid(pid_, &st, block ? 0 : WNOHANG);
  if (r == pid_) {
    exited_ = true;
    status_ = st;
  }
}

void ChildProcess::kill(std::chrono::milliseconds grace) {
  close_fd(to_child_);
  close_fd(from_child_);
  if (pid_ <= 0 || group_ended_) return;
  group_ended_ = true;
  // The group too when the leader has already exited: a wrapper that crashed
  // may have left its engine behind. The group's id cannot have been reused
  // while any member of it lives.
  ::kill(-pid_, SIGTERM);
  const auto deadline = Clock::now() + grace;
  for (reap(false); !exited_ && Clock::now() < deadline; reap(false))
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ::kill(-pid_, SIGKILL);  // what ignored SIGTERM, or has not finished yet
  if (!exited_) ::kill(pid_, SIGKILL);  // a leader that left its group
  reap(true);
  forget_group(pid_);
}

bool ChildProcess::alive() {
  reap(false);
  return pid_ > 0 && !exited_;
}

std::string ChildProcess::exit_description() {
  reap(false);
  if (!exited_) return "running";
  if (WIFEXITED(status_)) return "exit status " + std::to_string(WEXITSTATUS(status_));
  if (WIFSIGNALED(status_)) return "killed by signal " + std::to_string(WTERMSIG(status_));
  return "ended";
}

}  // namespace xq::lab::games
