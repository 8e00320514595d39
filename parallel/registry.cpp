#include <stdexcept>
#include <string>

#include "hashing/schemes.h"
#include "parallel/backend.h"

namespace xq {

// One entry per backend, "serial" first; each backend file defines its own.
// A new backend adds its file, one declaration and one list item here.
extern const BackendInfo kSerialBackend, kPvsplitBackend, kYbwcBackend;
extern const BackendInfo kAbdadaSimpleBackend;
extern const BackendInfo kLazySmpBackend;
extern const BackendInfo kDtsBackend;
extern const BackendInfo kAbdadaBackend;

const std::vector<BackendInfo>& backends() {
  static const std::vector<BackendInfo> kBackends = {kSerialBackend, kPvsplitBackend,
                                                     kYbwcBackend, kDtsBackend,
                                                     kAbdadaBackend, kAbdadaSimpleBackend,
                                                     kLazySmpBackend};
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
