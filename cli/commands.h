// One function per xqlab subcommand. Each returns the process exit status and
// throws UsageError (exit 2, one line on stderr) for bad input.
#pragma once

#include <string>
#include <vector>

namespace xq::cli {

using Argv = std::vector<std::string>;

int cmd_perft(const Argv& args);

}  // namespace xq::cli
