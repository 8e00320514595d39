// Running games from a command (a match, a tuner): Ctrl-C ends the work
// after the games under way (the result then says interrupted), and the
// previous SIGINT handler is back when it returns or throws.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "lab/games/match.h"

namespace xq::cli {

// A game's limit per move from --tc, --movetime, --depth and --nodes (at
// most one, else a UsageError); nullopt when none was given, so that the
// command applies its own default.
std::optional<lab::games::TimeControl> game_limit(const std::string& tc, std::int64_t movetime,
                                                  int depth, std::uint64_t nodes);

// Runs `body` with a flag that SIGINT sets; returns whether it was set.
bool run_until_sigint(const std::function<void(const std::atomic<bool>* stop)>& body);

// Progress lines go to stderr, each after `prefix`.
lab::games::MatchResult run_match_until_sigint(const lab::games::MatchConfig& config,
                                               const std::string& prefix);

}  // namespace xq::cli
