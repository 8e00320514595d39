#include "cli/match_run.h"

#include <atomic>
#include <csignal>
#include <cstdio>

namespace xq::cli {
namespace {

std::atomic<bool> g_match_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
extern "C" void on_match_sigint(int) { g_match_stop.store(true, std::memory_order_relaxed); }

}  // namespace

lab::games::MatchResult run_match_until_sigint(const lab::games::MatchConfig& config,
                                               const std::string& prefix) {
  g_match_stop.store(false);
  const auto previous = std::signal(SIGINT, on_match_sigint);
  lab::games::MatchResult r;
  try {
    r = lab::games::run_match(
        config,
        [&prefix](const std::string& line) {
          std::fprintf(stderr, "%s%s\n", prefix.c_str(), line.c_str());
        },
        &g_match_stop);
  } catch (...) {
    std::signal(SIGINT, previous);
    throw;
  }
  // A stopped match keeps the flag-only handler until the process ends: a
  // second SIGINT (timeout(1) sends one to the child and another to its
  // process group; Ctrl-C pressed twice) must not kill the process while it
  // writes its summary and files.
  if (!g_match_stop.load()) std::signal(SIGINT, previous);
  return r;
}

}  // namespace xq::cli
