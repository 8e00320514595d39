// Small text helpers shared by the lab's products.
#pragma once

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace xq::lab::common {

// One number through a printf format ("%.2f"); a zero prints without its sign
// (never "-0.00").
inline std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v == 0 ? 0.0 : v);
  return buf;
}

// "a,b,,c" -> {"a", "b", "", "c"}; "" -> {""}: every item, empty ones kept.
inline std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == ',') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// The whole of `s` as a base-10 int (a sign allowed, as std::stoi reads
// it), or nothing when `s` is empty, has anything after the number or is
// out of int's range: the parse every option and table field of whole
// numbers shares, each then checking its own range.
inline std::optional<int> whole_int(const std::string& s) {
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(s, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != s.size()) return std::nullopt;
  return v;
}

}  // namespace xq::lab::common
