#include "cli/match_run.h"

#include <atomic>
#include <csignal>
#include <cstdio>

#include "cli/usage_error.h"

namespace xq::cli {
namespace {

std::atomic<bool> g_match_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
extern "C" void on_match_sigint(int) { g_match_stop.store(true, std::memory_order_relaxed); }

}  // namespace

std::optional<lab::games::TimeControl> game_limit(const std::string& tc, std::int64_t movetime,
                                                  int depth, std::uint64_t nodes) {
  if (int(!tc.empty()) + int(movetime > 0) + int(depth > 0) + int(nodes > 0) > 1)
    throw UsageError("give one of --tc, --movetime, --depth and --nodes");
  lab::games::TimeControl c;
  if (!tc.empty()) c = lab::games::parse_time_control(tc);
  else if (movetime > 0) c.movetime_ms = movetime;
  else if (depth > 0) c.depth = depth;
  else if (nodes > 0) c.nodes = nodes;
  else return std::nullopt;
  return c;
}

bool run_until_sigint(const std::function<void(const std::atomic<bool>* stop)>& body) {
  g_match_stop.store(false);
  const auto previous = std::signal(SIGINT, on_match_sigint);
  try {
    body(&g_match_stop);
  } catch (...) {
    std::signal(SIGINT, previous);
    throw;
  }
  // Stopped, the flag-only handler stays until the process ends: a second
  // SIGINT (timeout(1) sends one to the child and another to its process
  // group; Ctrl-C pressed twice) must not kill the process while it writes
  // its summary and files.
  const bool stopped = g_match_stop.load();
  if (!stopped) std::signal(SIGINT, previous);
  return stopped;
}

lab::games::MatchResult run_match_until_sigint(const lab::games::MatchConfig& config,
                                               const std::string& prefix) {
  lab::games::MatchResult r;
  run_until_sigint([&](const std::atomic<bool>* stop) {
    r = lab::games::run_match(
        config,
        [&prefix](const std::string& line) {
          std::fprintf(stderr, "%s%s\n", prefix.c_str(), line.c_str());
        },
        stop);
  });
  return r;
}

}  // namespace xq::cli
