// Tests that run a backend on a hash scheme they name skip, and say why, when
// this build did not compile the backends for that scheme (CMake
// XQLAB_SCHEMES: every scheme by default; the AddressSanitizer lane names
// one of each kind -- xor, perthread, spinlock -- see scripts/asan.sh). The
// table tests and the stress tool use every table whatever the list.
#pragma once

#include <string>
#include <string_view>

#include "parallel/backend.h"

namespace xq::test {

inline std::string scheme_not_built(std::string_view scheme) {
  return "hash scheme '" + std::string(scheme) +
         "' is not compiled into this build's backends (CMake XQLAB_SCHEMES)";
}

}  // namespace xq::test

// In a test body: skip the test unless the backends are built for `scheme`.
#define XQ_SKIP_UNLESS_SCHEME_BUILT(scheme)                                         \
  do {                                                                             \
    if (!::xq::scheme_built(scheme)) GTEST_SKIP() << ::xq::test::scheme_not_built(scheme); \
  } while (0)
