// Running a match from a command: Ctrl-C ends it after the games under way
// (the result then says interrupted), and the previous SIGINT handler is
// back when it returns or throws.
#pragma once

#include <string>

#include "lab/games/match.h"

namespace xq::cli {

// Progress lines go to stderr, each after `prefix`.
lab::games::MatchResult run_match_until_sigint(const lab::games::MatchConfig& config,
                                               const std::string& prefix);

}  // namespace xq::cli
