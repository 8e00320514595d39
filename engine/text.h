// Echoing user input in error messages safely: bounded in length, with
// control bytes escaped, so a hostile or corrupt line from a GUI can neither
// flood the log nor reach the terminal as an escape sequence.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace xq {

// Appends c, or \xNN for bytes below 0x20 and 0x7f.
inline void append_printable(std::string& out, char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (c >= 0x20 && c != 0x7f) {
    out += ch;
    return;
  }
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
  out += buf;
}

// 'text' in single quotes, cut after 60 bytes ("..." marks the cut).
inline std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxEcho = 60;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxEcho; ++i) append_printable(out, text[i]);
  if (text.size() > kMaxEcho) out += "...";
  return out + "'";
}

// A message from a lower layer that may echo input, made printable and cut
// to at most 200 bytes.
inline std::string one_line(std::string_view text) {
  constexpr std::size_t kMaxLine = 200;
  std::string out;
  for (const char ch : text) {
    std::string piece;
    append_printable(piece, ch);
    if (out.size() + piece.size() > kMaxLine - 3) return out + "...";
    out += piece;
  }
  return out;
}

}  // namespace xq
