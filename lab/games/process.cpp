#include "lab/games/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace xq::lab::games {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
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
    // Its own process group: a Ctrl-C meant for the match must not kill the
    // engine in the middle of a game (it quits on EOF when we exit).
    ::setpgid(0, 0);
    ::dup2(in_pipe[0], 0);
    ::dup2(out_pipe[1], 1);
    ::execvp(args[0], args.data());
    const int e = errno;
    [[maybe_unused]] auto n = ::write(err_pipe[1], &e, sizeof e);
    ::_exit(127);
  }
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

void ChildProcess::kill() {
  close_fd(to_child_);
  close_fd(from_child_);
  if (pid_ > 0 && !exited_) {
    reap(false);
    if (!exited_) ::kill(pid_, SIGKILL);
    reap(true);
  }
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
