// What every backend's factory function does before it builds anything:
// validate the configuration, then instantiate the backend's class template
// for the configured scheme's table type through the scheme dispatcher.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "hashing/schemes.h"
#include "parallel/backend.h"

namespace xq {

inline void validate_config(const BackendConfig& c) {
  if (c.threads < 1 || c.threads > 256)
    throw std::invalid_argument("--threads must be between 1 and 256, got " +
                                std::to_string(c.threads));
  if (c.hash_mib == 0) throw std::invalid_argument("hash table size must be at least 1 MiB");
  if (!is_known_scheme(c.hash)) throw std::invalid_argument(unknown_scheme_message(c.hash));
}

// The scheme predicate of a backend that runs with every scheme, real or test.
inline bool every_scheme(std::string_view scheme) { return is_known_scheme(scheme); }

// The scheme predicate of a backend whose helpers are processes: every scheme
// whose locks work across processes (Table::kProcessShared; not mutex).
inline bool process_shared_scheme(std::string_view scheme) {
  return is_known_scheme(scheme) &&
         visit_scheme(scheme, [](auto tag) { return decltype(tag)::type::kProcessShared; });
}

// The scheme predicate of a backend that claims nodes (ABDADA's searcher
// counts): every scheme whose count is shared by all threads, so not perthread.
inline bool counts_searchers_scheme(std::string_view scheme) {
  return is_known_scheme(scheme) &&
         visit_scheme(scheme, [](auto tag) { return decltype(tag)::type::kCountsSearchers; });
}

// Validates c and instantiates BackendT<Table> for the configured scheme.
template <template <class> class BackendT>
std::unique_ptr<Backend> make_for_scheme(const BackendConfig& c) {
  validate_config(c);
  return visit_scheme(c.hash, [&](auto tag) -> std::unique_ptr<Backend> {
    using Table = typename decltype(tag)::type;
    return std::make_unique<BackendT<Table>>(c);
  });
}

}  // namespace xq
