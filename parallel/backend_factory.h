// What every backend's factory function does before it builds anything:
// validate the configuration, then instantiate the backend's class template
// for the configured scheme's table type -- and only for the table types the
// backend runs on and the build compiles in (DESIGN.md "Grow by addition":
// compile what runs). A backend names its tables with one of the Tables
// traits below; `runs_on<Tables>` is its BackendInfo::supports and
// `make_on<BackendT, Tables>` its BackendInfo::make, so a refused pair is
// refused by the registry and never instantiated.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "hashing/schemes.h"
#include "parallel/backend.h"

namespace xq {

// Whether the build compiles the backends for table T: the CMake list
// XQLAB_SCHEMES (every real scheme by default; the sanitizer builds may
// name fewer) arrives as the string XQLAB_SCHEMES_BUILT ("xor,perthread"),
// and XQLAB_TEST_SCHEMES=ON (the test and sanitizer builds) defines
// XQLAB_TEST_SCHEMES_BUILT for the test-only tables. Without a list
// (XQLAB_SCHEMES=all, the default), every real scheme and no test scheme.
constexpr bool scheme_in_list(std::string_view list, std::string_view name) {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (list.substr(0, comma) == name) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}
#ifdef XQLAB_SCHEMES_BUILT
inline constexpr std::string_view kSchemesBuilt = XQLAB_SCHEMES_BUILT;
#else
inline constexpr std::string_view kSchemesBuilt = "";
#endif
#ifdef XQLAB_TEST_SCHEMES_BUILT
inline constexpr bool kTestSchemesBuilt = true;
#else
inline constexpr bool kTestSchemesBuilt = false;
#endif
// Every name of a built list is a real scheme's (CMake passes the list
// unchecked: the names live in hashing/schemes.h alone).
constexpr bool every_scheme_known(std::string_view list) {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (!is_scheme_name(list.substr(0, comma))) return false;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return true;
}
static_assert(every_scheme_known(kSchemesBuilt),
              "XQLAB_SCHEMES names a scheme hashing/schemes.h does not know ('xqlab list')");
template <class T>
inline constexpr bool kBuiltForBackends =
    is_scheme_name(T::kName)
        ? kSchemesBuilt.empty() || scheme_in_list(kSchemesBuilt, T::kName)
        : kTestSchemesBuilt && is_test_scheme_name(T::kName);

// The table types a backend runs on (its design's, before the build's list).
// Every table, real or test.
struct EveryTable {
  template <class T>
  static constexpr bool kRuns = true;
};
// A backend whose helpers are processes: every table whose locks work
// across processes (Table::kProcessShared; not mutex).
struct ProcessSharedTables {
  template <class T>
  static constexpr bool kRuns = T::kProcessShared;
};
// A backend that claims nodes (ABDADA's searcher counts): every table whose
// count is shared by all threads, so not perthread.
struct SearcherCountTables {
  template <class T>
  static constexpr bool kRuns = T::kCountsSearchers;
};

inline void validate_config(const BackendConfig& c) {
  if (c.threads < 1 || c.threads > 256)
    throw std::invalid_argument("--threads must be between 1 and 256, got " +
                                std::to_string(c.threads));
  if (c.hash_mib == 0) throw std::invalid_argument("hash table size must be at least 1 MiB");
  if (!is_known_scheme(c.hash)) throw std::invalid_argument(unknown_scheme_message(c.hash));
}

// BackendInfo::supports of a backend that runs on Tables: the scheme is
// known, the backend's design takes it and the build compiled it.
template <class Tables>
bool runs_on(std::string_view scheme) {
  return is_known_scheme(scheme) && visit_scheme(scheme, [](auto tag) {
           using Table = typename decltype(tag)::type;
           return kBuiltForBackends<Table> && Tables::template kRuns<Table>;
         });
}

// BackendInfo::make: validates c and instantiates BackendT<Table> for the
// configured scheme -- only for the tables runs_on<Tables> accepts.
template <template <class> class BackendT, class Tables>
std::unique_ptr<Backend> make_on(const BackendConfig& c) {
  validate_config(c);
  return visit_scheme(c.hash, [&](auto tag) -> std::unique_ptr<Backend> {
    using Table = typename decltype(tag)::type;
    if constexpr (kBuiltForBackends<Table> && Tables::template kRuns<Table>) {
      return std::make_unique<BackendT<Table>>(c);
    } else {
      throw std::invalid_argument(refused_scheme_message(c.hash));
    }
  });
}

}  // namespace xq
