// A UCI engine as a shell script, for the tests of what drives engines (the
// match, the referee, process groups): it answers the handshake and runs
// `on_go` for every "go"; `prelude` runs first (a wrapper's own children).
#pragma once

#include <sys/stat.h>

#include <fstream>
#include <string>

namespace xq::test {

// Writes the script to `path`, executable, and returns the path.
inline std::string script_engine(const std::string& path, const std::string& name,
                                 const std::string& on_go, const std::string& prelude = "") {
  std::ofstream(path) << "#!/bin/sh\n"
                      << prelude
                      << "while read line; do\n"
                         "  case \"$line\" in\n"
                         "    uci) echo 'id name " << name << "'; echo uciok;;\n"
                         "    isready) echo readyok;;\n"
                         "    go*) " << on_go << ";;\n"
                         "    quit) exit 0;;\n"
                         "  esac\n"
                         "done\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

}  // namespace xq::test
