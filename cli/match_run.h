// Running games from a command (a match, a tuner): Ctrl-C ends the work
// after the games under way (the result then says interrupted), and the
// previous SIGINT handler is back when it returns or throws.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "lab/games/match.h"

namespace xq::cli {

// Runs `body` with a flag that SIGINT sets; returns whether it was set.
bool run_until_sigint(const std::function<void(const std::atomic<bool>* stop)>& body);

// Progress lines go to stderr, each after `prefix`.
lab::games::MatchResult run_match_until_sigint(const lab::games::MatchConfig& config,
                                               const std::string& prefix);

}  // namespace xq::cli
