// Echoing user input in error messages safely: bounded in length, with
// control bytes escaped, so a hostile or corrupt line from a GUI can neither
// flood the log nor reach the terminal as an escape sequence.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace xq {

// 'text' in single quotes, cut after kMaxEcho bytes ("..." marks the cut),
// bytes below 0x20 and 0x7f written as \xNN.
inline std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxEcho = 60;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxEcho; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
      out += buf;
    } else {
      out += char(c);
    }
  }
  if (text.size() > kMaxEcho) out += "...";
  return out + "'";
}

}  // namespace xq
