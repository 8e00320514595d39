// The one way tests run the xqlab binary: arguments passed without a shell
// (each quoted), stdout and stderr captured separately, a time limit, and the
// exit status. JSON output is parsed with nlohmann.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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
};

inline XqlabRun run_xqlab(const std::vector<std::string>& args, RunLimits limits = {}) {
  static int counter = 0;
  std::string base = ::testing::TempDir();
  base += "xqlab_run_";
  base += std::to_string(::getpid());
  base += '_';
  base += std::to_string(counter++);
  std::string cmd = "timeout ";
  cmd += std::to_string(limits.seconds);
  cmd += ' ';
  cmd += shell_quote(XQLAB_BINARY);
  for (const std::string& a : args) {
    cmd += ' ';
    cmd += shell_quote(a);
  }
  cmd += " >";
  cmd += shell_quote(base + ".out");
  cmd += " 2>";
  cmd += shell_quote(base + ".err");
  if (limits.input.empty()) {
    cmd += " </dev/null";
  } else {
    std::ofstream(base + ".in", std::ios::binary) << limits.input;
    cmd += " <";
    cmd += shell_quote(base + ".in");
  }
  if (limits.interrupt_after_first_line) {
    // Polls every 50 ms for the first line (or the watched file's lines),
    // then sends SIGINT and reports the program's own exit status (timeout's
    // 124 if it never wrote one).
    std::string script = cmd;
    script += " & pid=$!; i=0; while ";
    if (limits.interrupt_file.empty()) {
      script += "[ ! -s ";
      script += shell_quote(base + ".out");
      script += " ]";
    } else {
      script += "[ \"$(cat ";
      script += shell_quote(limits.interrupt_file);
      script += " 2>/dev/null | wc -l)\" -lt ";
      script += std::to_string(limits.interrupt_lines);
      script += " ]";
    }
    script += " && kill -0 $pid 2>/dev/null && [ $i -lt ";
    script += std::to_string(limits.seconds * 20);
    script += " ]; do sleep 0.05; i=$((i+1)); done; kill -INT $pid 2>/dev/null; wait $pid";
    cmd = "sh -c ";
    cmd += shell_quote(script);
  }
  const int raw = std::system(cmd.c_str());
  XqlabRun r;
  if (raw != -1 && WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  r.out = read_file(base + ".out");
  r.err = read_file(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  std::remove((base + ".in").c_str());
  return r;
}

// A user error: status 2, exactly one line on stderr, nothing on stdout.
inline void expect_one_line_error(const XqlabRun& r, const std::string& what) {
  EXPECT_EQ(r.status, 2) << what << "; stderr: " << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << what << "; stderr: " << r.err;
  EXPECT_TRUE(!r.err.empty() && r.err.back() == '\n') << what;
  EXPECT_EQ(r.out, "") << what;
}

}  // namespace xq::test
