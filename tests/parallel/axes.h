// Each axis once (DESIGN.md "Grow by addition"): the suites that run every
// backend run it with its default scheme, and every scheme with two
// reference backends -- one that splits (ybwc) and one whose threads share
// the table alone (lazysmp) -- so that a new backend adds its own cases and
// a new scheme two. The cross products (every backend with every scheme it
// runs on) are the FullGrid suites, under the ctest label `full`
// (`.ci/run --full`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hashing/schemes.h"
#include "parallel/backend.h"

namespace xq::test {

inline constexpr std::string_view kReferenceBackends[] = {"ybwc", "lazysmp"};

inline bool reference_backend(std::string_view backend) {
  for (std::string_view r : kReferenceBackends)
    if (r == backend) return true;
  return false;
}

// The schemes the axis suites run `backend` with: its default, or every
// scheme it runs on for a reference backend (all of them with `full`).
inline std::vector<std::string> axis_schemes(std::string_view backend, bool full = false) {
  const BackendInfo& b = find_backend(backend);
  std::vector<std::string> out;
  for (std::string_view s : kSchemeNames)
    if (b.supports(s) && (full || reference_backend(backend) || s == b.default_hash))
      out.emplace_back(s);
  return out;
}

}  // namespace xq::test
