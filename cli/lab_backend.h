// Shared by `xqlab search` and `xqlab lab`: building a backend from command
// line names, with the registry's std::invalid_argument turned into the
// UsageError that makes a one-line message and exit status 2.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "cli/args.h"
#include "parallel/backend.h"

namespace xq::cli {

inline std::unique_ptr<Backend> make_backend_or_usage(const std::string& name,
                                                      const BackendConfig& config) {
  try {
    return make_backend(name, config);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// Checks a backend name and a (backend, scheme) pair without building anything.
inline void check_backend_pair(const std::string& name, const std::string& scheme) {
  try {
    check_pair(name, scheme);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

}  // namespace xq::cli
