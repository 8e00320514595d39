// The one way tests run the xqlab binary: arguments passed without a shell,
// stdout and stderr captured separately, a time limit, and the exit status.
// JSON output is parsed with nlohmann.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace xq::test {

struct XqlabRun {
  int status = -1;  // exit status, or -1 when the process did not exit normally
  std::string out, err;

  // stdout parsed as one JSON document; a test failure (and null) otherwise.
  nlohmann::json json() const {
    try {
      return nlohmann::json::parse(out);
    } catch (const nlohmann::json::exception& e) {
      ADD_FAILURE() << "stdout is not JSON (" << e.what() << "): " << out.substr(0, 400);
      return nullptr;
    }
  }
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A command line with more arguments after it.
inline std::vector<std::string> with(std::vector<std::string> args,
                                     const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char ch : s) n += ch == '\n';
  return n;
}

struct RunLimits {
  int seconds = 120;  // killed (SIGTERM) after this long
  // When set: SIGINT as soon as the program has written its first line to
  // stdout (or after `seconds`, if it never does), and the status is the
  // program's own. Keyed to output rather than to a time, so the test means
  // the same on a fast build and under a sanitizer.
  bool interrupt_after_first_line = false;
  // With interrupt_after_first_line: wait instead until this file holds
  // `interrupt_lines` lines (a journal the program appends to).
  std::string interrupt_file;
  int interrupt_lines = 1;
  // The program's standard input (a protocol session); empty: /dev/null.
  std::string input;
  // The program run, when not xqlab itself (a launcher such as mpiexec,
  // given xqlab among its arguments).
  std::string program;
  // The working directory it starts in (empty: the test's own).
  std::string cwd;
  // NAME=VALUE pairs added to (or replacing those of) its environment.
  std::vector<std::string> env;
};

// With interrupt_after_first_line: whether the program has written what the
// interrupt waits for (its first line, or interrupt_lines lines of
// interrupt_file).
inline bool ready_to_interrupt(const RunLimits& limits, const std::string& out_path) {
  if (limits.interrupt_file.empty()) {
    struct stat st {};
    return ::stat(out_path.c_str(), &st) == 0 && st.st_size > 0;
  }
  return count_lines(read_file(limits.interrupt_file)) >= limits.interrupt_lines;
}

// Runs the binary with `args` (no shell: each argument reaches it as it is),
// stdin from limits.input (or /dev/null), stdout and stderr to files. After
// limits.seconds it is sent SIGTERM (SIGKILL 5 s later) and the status is
// 124, as timeout(1) reports it. With interrupt_after_first_line it gets
// SIGINT once stdout is not empty, or interrupt_file holds interrupt_lines
// lines (or at the time limit), and the status is its own.
inline XqlabRun run_xqlab(const std::vector<std::string>& args, RunLimits limits = {}) {
  static int counter = 0;
  const std::string base = ::testing::TempDir() + "xqlab_run_" + std::to_string(::getpid()) + "_" +
                           std::to_string(counter++);
  const std::string out_path = base + ".out", err_path = base + ".err", in_path = base + ".in";
  if (!limits.input.empty()) std::ofstream(in_path, std::ios::binary) << limits.input;
  std::vector<std::string> argv_s{limits.program.empty() ? std::string(XQLAB_BINARY)
                                                         : limits.program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The environment, built before fork (the child may only exec).
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('=') + 1);
    bool replaced = false;
    for (const std::string& x : limits.env) replaced = replaced || x.rfind(key, 0) == 0;
    if (!replaced) env_s.push_back(entry);
  }
  env_s.insert(env_s.end(), limits.env.begin(), limits.env.end());
  std::vector<char*> envp;
  for (std::string& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  XqlabRun r;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork failed";
    return r;
  }
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    const int in = ::open(limits.input.empty() ? "/dev/null" : in_path.c_str(), O_RDONLY);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 ||
        ::dup2(err, 2) < 0)
      ::_exit(127);
    if (!limits.cwd.empty() && ::chdir(limits.cwd.c_str()) != 0) ::_exit(127);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(limits.seconds);
  bool interrupted = false, timed_out = false;
  Clock::time_point killed_at{};
  int raw = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &raw, WNOHANG);
    if (done == pid) break;
    if (done < 0) {
      raw = -1;
      break;
    }
    const Clock::time_point now = Clock::now();
    if (limits.interrupt_after_first_line && !interrupted) {
      if (ready_to_interrupt(limits, out_path) || now >= deadline) {
        ::kill(pid, SIGINT);
        interrupted = true;
      }
    } else if (!timed_out && now >= deadline) {
      ::kill(pid, SIGTERM);
      timed_out = true;
      killed_at = now;
    } else if (timed_out && now >= killed_at + std::chrono::seconds(5)) {
      ::kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (timed_out)
    r.status = 124;
  else if (raw != -1 && WIFEXITED(raw))
    r.status = WEXITSTATUS(raw);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  std::remove(in_path.c_str());
  return r;
}

// A user error: status 2, exactly one line on stderr, nothing on stdout.
inline void expect_one_line_error(const XqlabRun& r, const std::string& what) {
  EXPECT_EQ(r.status, 2) << what << "; stderr: " << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << what << "; stderr: " << r.err;
  EXPECT_TRUE(!r.err.empty() && r.err.back() == '\n') << what;
  EXPECT_EQ(r.out, "") << what;
}

// run_xqlab with the default limits, for tests that only pass arguments.
inline XqlabRun xqlab(const std::vector<std::string>& args) { return run_xqlab(args); }

}  // namespace xq::test
