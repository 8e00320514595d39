#include "lab/report/targets_format.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace xq::lab::report::targets {
namespace {

// The N of ".N" at the start of `s` (one or two digits), and what follows.
std::optional<int> spec_decimals(std::string_view s, std::string_view& rest) {
  if (s.size() < 2 || s[0] != '.') return std::nullopt;
  std::size_t i = 1;
  int n = 0;
  while (i < s.size() && i < 3 && s[i] >= '0' && s[i] <= '9') n = n * 10 + (s[i++] - '0');
  if (i == 1) return std::nullopt;
  rest = s.substr(i);
  return n;
}

// "-0.000" and "-0" carry no information a reader wants: the sign goes.
std::string drop_negative_zero(std::string s) {
  if (s.empty() || s[0] != '-') return s;
  for (std::size_t i = 1; i < s.size(); ++i)
    if (s[i] != '0' && s[i] != '.') return s;
  return s.substr(1);
}

std::string fixed_text(double v, int decimals, bool sign) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = drop_negative_zero(buf);
  if (sign && s[0] != '-') s = "+" + s;
  return s;
}

double number_of(const Json& v, std::string_view spec) {
  if (!v.is_number())
    throw TargetError("spec '" + std::string(spec) + "' wants a number, got " + v.dump());
  return v.get<double>();
}

// A whole number, with commas or not. A fraction rounds half away from zero:
// lab documents hold means over runs (work_span.critical_path 11673207.5 is
// recorded as "11,673,208").
std::string integer_text(const Json& v, std::string_view spec, bool commas) {
  const double d = number_of(v, spec);
  if (!(std::fabs(d) < 9.007199254740992e15))
    throw TargetError("spec '" + std::string(spec) + "' wants an integer, got " + v.dump());
  const long long n = v.is_number_integer() && !v.is_number_unsigned() ? v.get<long long>()
                                                                       : std::llround(d);
  std::string digits = std::to_string(n < 0 ? -n : n);
  if (commas)
    for (int i = int(digits.size()) - 3; i > 0; i -= 3) digits.insert(std::size_t(i), ",");
  return (n < 0 ? "-" : "") + digits;
}

}  // namespace

std::string format_value(const Json& value, std::string_view spec) {
  if (spec.empty()) return value.is_string() ? value.get<std::string>() : value.dump();
  if (spec == "d") return integer_text(value, spec, false);
  if (spec == ",d") return integer_text(value, spec, true);
  const bool sign = spec[0] == '+';
  std::string_view rest;
  const std::optional<int> n = spec_decimals(sign ? spec.substr(1) : spec, rest);
  if (n && rest == "f") return fixed_text(number_of(value, spec), *n, sign);
  if (n && rest == "p" && !sign) return fixed_text(number_of(value, spec) * 100, *n, false);
  throw TargetError("unknown spec '" + std::string(spec) +
                    "' (known: none, .Nf, +.Nf, .Np, ,d, d)");
}

const Json* json_at_path(const Json& root, std::string_view path) {
  const Json* at = &root;
  while (true) {
    const std::size_t dot = path.find('.');
    const std::string_view part = path.substr(0, dot);
    if (part.empty()) return nullptr;
    if (at->is_object()) {
      const auto it = at->find(std::string(part));
      if (it == at->end()) return nullptr;
      at = &*it;
    } else if (at->is_array()) {
      std::size_t k = 0;
      for (char c : part) {
        if (c < '0' || c > '9') return nullptr;
        k = k * 10 + std::size_t(c - '0');
        if (k > at->size()) return nullptr;
      }
      if (k >= at->size()) return nullptr;
      at = &(*at)[k];
    } else {
      return nullptr;
    }
    if (dot == std::string_view::npos) return at;
    path.remove_prefix(dot + 1);
  }
}

std::string fill_format(std::string_view format, const PathLookup& lookup) {
  std::string out;
  std::size_t i = 0;
  while (i < format.size()) {
    const std::size_t open = format.find('{', i);
    if (open == std::string_view::npos) {
      out += format.substr(i);
      break;
    }
    out += format.substr(i, open - i);
    const std::size_t close = format.find('}', open);
    if (close == std::string_view::npos)
      throw TargetError("bad placeholder: unclosed '{' in format '" + std::string(format) + "'");
    const std::string_view inner = format.substr(open + 1, close - open - 1);
    const std::size_t colon = inner.find(':');
    const std::string_view path = inner.substr(0, colon);
    const std::string_view spec =
        colon == std::string_view::npos ? std::string_view{} : inner.substr(colon + 1);
    if (path.empty() || path.find('{') != std::string_view::npos)
      throw TargetError("bad placeholder '{" + std::string(inner) + "}'");
    const Json* value = lookup(path);
    if (!value)
      throw TargetError("placeholder '{" + std::string(inner) + "}': no '" + std::string(path) +
                        "' in the selected element");
    try {
      out += format_value(*value, spec);
    } catch (const TargetError& e) {
      throw TargetError("placeholder '{" + std::string(inner) + "}': " + e.what());
    }
    i = close + 1;
  }
  return out;
}

}  // namespace xq::lab::report::targets
