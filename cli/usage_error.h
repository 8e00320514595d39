// Bad input found by the command layer itself (beyond what CLI11 and the
// libraries check): main() prints it as one line and exits with status 2.
#pragma once

#include <stdexcept>

namespace xq::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The user asked a long run to stop (Ctrl-C): main() prints the message as
// one line and exits with status 130.
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace xq::cli
