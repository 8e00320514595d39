#include <stdexcept>
#include <string>

#include "hashing/schemes.h"
#include "parallel/backend.h"
#include "parallel/backend_factory.h"

namespace xq {

// One entry per backend, "serial" first; each backend file defines its own.
// A new backend adds its file and one line to backends.def.
#define XQ_BACKEND(info) extern const BackendInfo info;
#include "parallel/backends.def"
#undef XQ_BACKEND

std::vector<std::string> backend_names() {
  std::vector<std::string> v;
  for (const BackendInfo& b : backends()) v.emplace_back(b.name);
  return v;
}

const std::vector<BackendInfo>& backends() {
#define XQ_BACKEND(info) info,
  static const std::vector<BackendInfo> kBackends = {
#include "parallel/backends.def"
  };
#undef XQ_BACKEND
  return kBackends;
}

bool shows_sharing(Sharing sharing, const SearchStats& s) {
  switch (sharing) {
    case Sharing::Splits: return s.splits > 0;
    case Sharing::Marks: return counter_value(s, "busy_answers") > 0;
    case Sharing::Root: return s.critical_path > 0 && s.critical_path < s.nodes;
    case Sharing::Leaves: return counter_value(s, "leaf_searches") > 0;
    case Sharing::None:
    case Sharing::Table: return false;
  }
  return false;
}

// Built for some backend: what runs_on answers for a backend that runs on
// every table.
bool scheme_built(std::string_view scheme) { return runs_on<EveryTable>(scheme); }

std::string refused_scheme_message(std::string_view scheme) {
  if (scheme_built(scheme))
    return "a backend was asked to run on hash scheme '" + std::string(scheme) +
           "', which it cannot use (xqlab list shows the valid pairs)";
  std::string built;
  for (std::string_view s : kSchemeNames)
    if (scheme_built(s)) built += std::string(built.empty() ? "" : ", ") + std::string(s);
  return "hash scheme '" + std::string(scheme) +
         "' is not built into this xqlab (CMake XQLAB_SCHEMES; built: " + built + ")";
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
  if (!scheme_built(scheme)) throw std::invalid_argument(refused_scheme_message(scheme));
  if (!info.supports(scheme))
    throw std::invalid_argument("backend '" + std::string(backend) + "' cannot use hash scheme '" +
                                std::string(scheme) + "'");
  return info;
}

std::unique_ptr<Backend> make_backend(std::string_view name, const BackendConfig& config) {
  return check_pair(name, config.hash).make(config);
}

}  // namespace xq
