// Backend parameters settable by name ("--param min_split_depth=2"): the
// union of the tables the backends declare in their own files
// (BackendInfo::params), plus the table's replacement policy, with which
// backends read each. The command line, `xqlab list`, every JSON report and
// the README's check take them from here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parallel/backend.h"

namespace xq {

// The most threads a backend accepts (the same bound for every command).
inline constexpr int kMaxBackendThreads = 256;
// Table size bounds in MiB (1 MiB .. 1 TiB); larger than the machine's
// memory is refused when the table is sized.
inline constexpr std::int64_t kMaxHashMib = std::int64_t{1} << 20;

// A parameter as the command line, `xqlab list` and the JSON see it: its
// declaration and the backends that read it.
struct BackendParam : ParamSpec {
  std::vector<std::string_view> backends;  // who reads it ("all": the table's)

  std::int64_t get(const BackendConfig& c) const;
  void set(BackendConfig& c, std::int64_t value) const;
  // The current value as text ("4", "dynamic").
  std::string value_text(const BackendConfig& c) const;
  // "2..64" or "static|dynamic".
  std::string range_text() const;
};

// Every parameter, in registry order (parallel/backends.def), replacement last.
const std::vector<BackendParam>& backend_params();
// Throws std::invalid_argument ("unknown parameter 'x' (known: ...)").
const BackendParam& find_param(std::string_view name);
// Applies "NAME=VALUE"; throws std::invalid_argument naming the parameter
// and its range for an unknown name or a bad value.
void set_param(BackendConfig& config, std::string_view assignment);

}  // namespace xq
