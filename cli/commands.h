// One function per xqlab subcommand. Each returns the process exit status and
// throws UsageError (exit 2, one line on stderr) for bad input.
#pragma once

#include <string>
#include <vector>

#include "board/position.h"

namespace xq::cli {

using Argv = std::vector<std::string>;

int cmd_perft(const Argv& args);
int cmd_stress(const Argv& args);  // hash scheme race stress (hashing/stress.h)
int cmd_list(const Argv& args);    // names of hash schemes (and later backends)
int cmd_ablation(const Argv& args);  // search feature ablation (Tables 4.1/4.2)
int cmd_search(const Argv& args);  // one search by one backend (cli/cmd_search.cpp)
int cmd_lab(const Argv& args);     // backend x scheme x threads time-to-depth lab (cli/lab.h)

// Parses --fen (a FEN or "startpos"); throws UsageError with the FEN problem.
Position parse_position_arg(const std::string& fen);

}  // namespace xq::cli
