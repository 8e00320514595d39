// The command line this process was started with, for the "meta" object of
// every JSON report (lab/common/meta.h). main() records it before parsing.
#pragma once

#include <string>
#include <vector>

namespace xq::cli {

inline std::vector<std::string>& invocation() {
  static std::vector<std::string> args;
  return args;
}

}  // namespace xq::cli
