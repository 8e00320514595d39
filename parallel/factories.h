// Factory functions of the backends, one pair per backend file; the registry
// (registry.cpp) lists them. A new backend adds its pair here and one line in
// the registry.
#pragma once

#include <memory>
#include <string_view>

#include "parallel/backend.h"

namespace xq {

std::unique_ptr<Backend> make_serial_backend(const BackendConfig& config);
bool serial_supports(std::string_view scheme);

std::unique_ptr<Backend> make_pvsplit_backend(const BackendConfig& config);
bool pvsplit_supports(std::string_view scheme);

std::unique_ptr<Backend> make_ybwc_backend(const BackendConfig& config);
bool ybwc_supports(std::string_view scheme);

}  // namespace xq
