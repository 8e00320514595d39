// A child process spoken to over pipes, line by line (an external engine):
// fork/exec with stdin and stdout redirected, nonblocking reads with poll()
// and a deadline, kill on demand, and the exit status reaped. stderr is
// inherited, so an engine's own complaints reach the user.
//
// The child leads a process group of its own, and everything it starts (a
// wrapper script's engine, mpirun's ranks) stays in that group unless it
// moves out deliberately. kill() ends the whole group: SIGTERM, a grace
// period for the leader to exit, then SIGKILL to whatever is left. Being
// outside the terminal's foreground group, the engines do not see the
// terminal's Ctrl-C: the match ends them itself — by kill() when it stops,
// and, for the groups still alive when the program exits or is ended by
// SIGINT, SIGTERM or SIGHUP left at their default action, by a SIGKILL to
// every group from an exit hook and a signal handler installed with the
// first child (a disposition someone else set is left alone).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace xq::lab::games {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  enum class ReadStatus { Line, Timeout, Closed };

  // Starts argv[0] (looked up in PATH) with the arguments. Throws
  // std::invalid_argument when it cannot be started (no such program).
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();  // kills and reaps
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes one line (a newline is appended). False when the pipe is closed.
  bool send(const std::string& line);
  // The next line (without the newline or a trailing '\r') before
  // `deadline`; Closed once the child has closed its stdout.
  ReadStatus read_line(std::string& line, Clock::time_point deadline);
  // Closes the pipes, ends the process group (SIGTERM; SIGKILL once the
  // leader has exited or `grace` has passed) and reaps the leader. Idempotent.
  void kill(std::chrono::milliseconds grace = kDefaultGrace);
  static constexpr std::chrono::milliseconds kDefaultGrace{250};
  // Whether the child still runs (reaps it if it has exited).
  bool alive();
  // "exit status N", "killed by signal N" or "running".
  std::string exit_description();
  // The child's process id, which is also its process group's (-1: none).
  pid_t pid() const { return pid_; }

 private:
  void reap(bool block);

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
  bool exited_ = false;
  bool group_ended_ = false;
  int status_ = 0;
};

}  // namespace xq::lab::games
