#include <stdexcept>
#include <string>

#include "hashing/schemes.h"
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

const BackendInfo& check_pair(std::string_view backend, std::string_view scheme) {
  const BackendInfo& info = find_backend(backend);
  if (!is_known_scheme(scheme)) throw std::invalid_argument(unknown_scheme_message(scheme));
  if (!info.supports(scheme))
    throw std::invalid_argument("backend '" + std::string(backend) + "' cannot use hash scheme '" +
                                std::string(scheme) + "'");
  return info;
}

std::unique_ptr<Backend> make_backend(std::string_view name, const BackendConfig& config) {
  return check_pair(name, config.hash).make(config);
}

}  // namespace xq
