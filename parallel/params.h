// Backend parameters settable by name ("--param min_split_depth=2"): one
// descriptor per parameter, with its range, what it means, which backends read
// it, and how it is read from and written to a BackendConfig. A new backend
// adds its parameters to the table in params.cpp and nothing else: the command
// line, `xqlab list` and every JSON report take them from here.
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

struct BackendParam {
  std::string_view name;
  std::string_view summary;
  std::vector<std::string_view> backends;  // who reads it
  // An integer parameter has min <= value <= max; an enumerated one names its
  // choices and stores the index of the chosen one.
  std::int64_t min = 0, max = 0;
  std::vector<std::string_view> choices;
  std::int64_t (*get)(const BackendConfig&);
  void (*set)(BackendConfig&, std::int64_t);

  bool enumerated() const { return !choices.empty(); }
  // The current value as text ("4", "dynamic").
  std::string value_text(const BackendConfig& c) const;
  // "2..64" or "static|dynamic".
  std::string range_text() const;
};

// Every parameter, in a fixed order.
const std::vector<BackendParam>& backend_params();
// Throws std::invalid_argument ("unknown parameter 'x' (known: ...)").
const BackendParam& find_param(std::string_view name);
// Applies "NAME=VALUE"; throws std::invalid_argument naming the parameter
// and its range for an unknown name or a bad value.
void set_param(BackendConfig& config, std::string_view assignment);

}  // namespace xq
