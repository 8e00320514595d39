#include "cli/args.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace xq::cli {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& values,
           const std::set<std::string>& flags) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + a + "'");
    std::string name = a.substr(2);
    std::string value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    if (seen_.count(name)) throw UsageError("option --" + name + " given twice");
    if (values.count(name)) {
      if (!inline_value) {
        if (i + 1 >= argv.size()) throw UsageError("option --" + name + " needs a value");
        value = argv[++i];
      }
      values_[name] = value;
    } else if (flags.count(name)) {
      if (inline_value) throw UsageError("option --" + name + " takes no value");
    } else {
      throw UsageError("unknown option '--" + name + "'");
    }
    seen_.insert(name);
  }
}

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::int64_t parse_int(const std::string& text, const std::string& what, std::int64_t lo,
                       std::int64_t hi) {
  if (text.empty()) throw UsageError(what + " needs a number, got ''");
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE)
    throw UsageError(what + " needs a whole number, got '" + text + "'");
  if (v < lo || v > hi)
    throw UsageError(what + " must be between " + std::to_string(lo) + " and " +
                     std::to_string(hi) + ", got " + text);
  return v;
}

std::int64_t Args::get_int(const std::string& name, std::int64_t fallback, std::int64_t lo,
                           std::int64_t hi) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  return parse_int(it->second, "--" + name, lo, hi);
}

double Args::get_double(const std::string& name, double fallback, double lo, double hi) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || *end != '\0' || errno == ERANGE || !(v >= lo && v <= hi))
    throw UsageError("--" + name + " must be a number between " + std::to_string(lo) +
                     " and " + std::to_string(hi) + ", got '" + it->second + "'");
  return v;
}

std::vector<std::string> Args::get_list(const std::string& name,
                                        const std::vector<std::string>& fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  std::vector<std::string> out;
  std::string item;
  for (char c : it->second + ",") {
    if (c == ',') {
      if (item.empty()) throw UsageError("--" + name + " has an empty item in '" + it->second + "'");
      out.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  return out;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out;
}

}  // namespace xq::cli
