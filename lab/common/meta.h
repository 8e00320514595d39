// Where and how a result was produced: every JSON report carries this object
// as "meta" so that a figure can be traced to its command, date, commit and
// machine (the report prints it under every chart).
#pragma once

#include <string>
#include <vector>

#include "lab/common/json.h"

namespace xq::lab::common {

struct RunMeta {
  std::string command;   // the command line, arguments quoted where needed
  std::string date;      // UTC, ISO 8601 ("2026-11-23T15:40:00Z")
  std::string commit;    // `git describe` of the build ("unknown" outside git)
  int nproc = 0;         // hardware threads the process may use
  std::string cpu;       // CPU model name ("unknown" when not readable)
  double load_average = -1;  // 1-minute load average at the start (-1: unknown)
  // How the binary was built: "Release, LTO, -march=native, GNU 12.2.0"
  // (type, link-time optimisation, target, compiler; a sanitizer when used).
  std::string build;
};

// The metadata of this process, now. `args` are the command's arguments
// (argv[0] included).
RunMeta run_meta(const std::vector<std::string>& args);

// Joins arguments into one shell-readable line: an argument with a space or a
// shell metacharacter is single-quoted.
std::string command_line(const std::vector<std::string>& args);

void to_json(Json& j, const RunMeta& m);

// What `xqlab --version` prints, one line: "xqlab 0.1.0 (commit abc1234;
// build Release, LTO, -march=native, GNU 12.2.0; flags -O3 -DNDEBUG ...)"
// -- the version, and the commit and build every JSON `meta` carries, with
// the compiler flags.
std::string version_line();

}  // namespace xq::lab::common
