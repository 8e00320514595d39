// Processes a test leaves behind, and processes a killed parent leaves
// behind: for the tests of worker processes (hashing/processes.h and the
// backends whose helpers are processes).
#pragma once

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace xq::test {

// The pids of this process's children, from /proc (each line of
// /proc/PID/stat names the parent as its fourth field). A zombie (a child
// that ended and was not reaped) counts: it is a leak too.
inline std::vector<pid_t> children() {
  std::vector<pid_t> out;
  DIR* d = ::opendir("/proc");
  if (!d) return out;
  const pid_t self = ::getpid();
  while (const dirent* e = ::readdir(d)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (!end || *end != '\0' || pid <= 0) continue;
    std::ifstream stat("/proc/" + std::string(e->d_name) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const std::size_t close = line.rfind(')');  // the command may hold spaces
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 1));
    char state = 0;
    long ppid = 0;
    rest >> state >> ppid;
    if (ppid == self) out.push_back(pid_t(pid));
  }
  ::closedir(d);
  return out;
}

struct Orphans {
  bool ready = false;  // the doomed parent said it was ready before it was killed
  int left = 0;        // its children that left by themselves and were reaped here
  int stayed = 0;      // those still there after the wait, killed here
};

// Forks a parent that runs doomed(ready_fd): it starts what it starts,
// writes one byte to ready_fd once that runs, and does not return. Kills it
// outright (SIGKILL: no destructor of it runs) once it is ready; meanwhile
// this process is the subreaper of its children, which become this
// process's when it dies, and are reaped here as they leave, for up to
// `seconds`. Those still there then are killed, so that a failure cannot
// hang the test runner (which waits for every holder of its output pipe).
inline Orphans kill_parent_and_reap(const std::function<void(int ready_fd)>& doomed,
                                    double seconds = 10) {
  Orphans out;
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) return out;
  int ready[2];
  if (::pipe(ready) != 0) return out;
  const pid_t parent = ::fork();
  if (parent == 0) {
    ::close(ready[0]);
    doomed(ready[1]);
    ::pause();
    ::_exit(0);
  }
  ::close(ready[1]);
  char c = 0;
  out.ready = parent > 0 && ::read(ready[0], &c, 1) == 1;
  ::close(ready[0]);
  if (parent > 0) {
    ::kill(parent, SIGKILL);
    ::waitpid(parent, nullptr, 0);
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(seconds));
  while (std::chrono::steady_clock::now() < deadline) {
    while (::waitpid(-1, nullptr, WNOHANG) > 0) ++out.left;
    if (children().empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (const pid_t pid : children()) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ++out.stayed;
  }
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
  return out;
}

}  // namespace xq::test
