// Minimal strict option parser for the xqlab subcommands: "--name value" and
// "--flag". Unknown options, missing values and malformed numbers raise
// UsageError, which main() turns into a one-line message and exit status 2.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace xq::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // values: options that take a value; flags: options that take none.
  Args(const std::vector<std::string>& argv, const std::set<std::string>& values,
       const std::set<std::string>& flags);

  bool has(const std::string& name) const { return seen_.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  // Integer in [lo, hi]; UsageError names the option otherwise.
  std::int64_t get_int(const std::string& name, std::int64_t fallback, std::int64_t lo,
                       std::int64_t hi) const;
  double get_double(const std::string& name, double fallback, double lo, double hi) const;
  // Comma-separated list ("a,b,c"); empty items are an error.
  std::vector<std::string> get_list(const std::string& name,
                                    const std::vector<std::string>& fallback) const;

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> seen_;
};

// Parses a whole decimal integer in [lo, hi] or throws UsageError naming `what`.
std::int64_t parse_int(const std::string& text, const std::string& what, std::int64_t lo,
                       std::int64_t hi);
// Escapes a string for a JSON string literal (without the quotes).
std::string json_escape(const std::string& s);

}  // namespace xq::cli
