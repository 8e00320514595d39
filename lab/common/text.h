// Small text helpers shared by the lab's products.
#pragma once

#include <cstdio>
#include <string>

namespace xq::lab::common {

// One number through a printf format ("%.2f"); a zero prints without its sign
// (never "-0.00").
inline std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v == 0 ? 0.0 : v);
  return buf;
}

}  // namespace xq::lab::common
