#include <stdexcept>
#include <string>

#include "parallel/backend.h"
#include "parallel/factories.h"

namespace xq {

const std::vector<BackendInfo>& backends() {
  static const std::vector<BackendInfo> kBackends = {
      {"serial", "the serial hybrid-PVS engine (reference for every ratio)", "xor",
       serial_supports,
       make_serial_backend},
      {"pvsplit", "OpenMP PV-splitting (seed thesis 4.2): parallel for over a PV node's younger brothers",
       "perthread", pvsplit_supports, make_pvsplit_backend},
      {"ybwc", "young brothers wait: split points on a persistent std::thread pool, helpful master",
       "xor", ybwc_supports, make_ybwc_backend},
  };
  return kBackends;
}

const BackendInfo& find_backend(std::string_view name) {
  std::string known;
  for (const BackendInfo& b : backends()) {
    if (b.name == name) return b;
    known += std::string(known.empty() ? "" : ", ") + std::string(b.name);
  }
  throw std::invalid_argument("unknown backend '" + std::string(name) + "' (known: " + known + ")");
}

std::unique_ptr<Backend> make_backend(std::string_view name, const BackendConfig& config) {
  const BackendInfo& info = find_backend(name);
  if (!info.supports(config.hash))
    throw std::invalid_argument("backend '" + std::string(name) + "' cannot use hash scheme '" +
                                config.hash + "'");
  return info.make(config);
}

}  // namespace xq
