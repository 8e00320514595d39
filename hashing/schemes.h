// The list of hash schemes: the one place a scheme is named (DESIGN.md "Grow
// by addition": a scheme is its header plus one entry in SchemeTables). Its
// name, summary and every property come from its table type; the names,
// the listing and visit_scheme below are derived from the list. Code that is
// templated on the table (a search, a stress run, a benchmark) is
// instantiated once per scheme through visit_scheme, at the top of a run, so
// the hot path never dispatches on the scheme.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "hashing/atomic16.h"
#include "hashing/faulty.h"
#include "hashing/mutex_table.h"
#include "hashing/packed.h"
#include "hashing/perthread.h"
#include "hashing/sandwich.h"
#include "hashing/spinlock.h"
#include "hashing/tbbspin.h"
#include "hashing/unprotected.h"
#include "hashing/xor_table.h"

namespace xq {

// A list of table types, and what can be done with one.
template <class... T>
struct TableList {
  static constexpr std::size_t kSize = sizeof...(T);
  static constexpr std::array<std::string_view, sizeof...(T)> names() { return {T::kName...}; }
  template <class F>
  static void for_each(F&& f) {
    (f(std::type_identity<T>{}), ...);
  }
};
template <class... A, class... B>
constexpr TableList<A..., B...> operator+(TableList<A...>, TableList<B...>) {
  return {};
}
// The tables of `List` for which Keep<T>::value holds, in order.
template <template <class> class Keep, class List>
struct FilterTables;
template <template <class> class Keep, class... T>
struct FilterTables<Keep, TableList<T...>> {
  using type =
      decltype((TableList<>{} + ... + std::conditional_t<Keep<T>::value, TableList<T>, TableList<>>{}));
};

// Every real scheme, safe ones first; then packed, whose 16-bit key check
// lets false matches through (the price it pays for half again as many
// entries); the unprotected one last (a baseline that lets torn entries
// through, never for real searches).
using SchemeTables = TableList<PerThreadTable, SpinlockTable, MutexTable, TbbSpinTable, XorTable,
                               SandwichTable, Atomic16Table, PackedTable, UnprotectedTable>;
// Test only: fault injection. Never in kSchemeNames, so the lab, the stress
// tool and the parameterised tests never run them; backends accept them by name.
using TestSchemeTables = TableList<FaultyTable>;

inline constexpr auto kSchemeNames = SchemeTables::names();
inline constexpr std::string_view kUnprotectedScheme = UnprotectedTable::kName;
inline constexpr auto kTestSchemeNames = TestSchemeTables::names();

constexpr bool is_unprotected_scheme(std::string_view name) { return name == kUnprotectedScheme; }
constexpr bool is_scheme_name(std::string_view name) {
  for (std::string_view n : kSchemeNames)
    if (n == name) return true;
  return false;
}

constexpr bool is_test_scheme_name(std::string_view name) {
  for (std::string_view n : kTestSchemeNames)
    if (n == name) return true;
  return false;
}
// A scheme a backend can be built with: a real one or a test-only one.
constexpr bool is_known_scheme(std::string_view name) {
  return is_scheme_name(name) || is_test_scheme_name(name);
}

namespace scheme_detail {
template <class... T>
constexpr std::string_view summary_in(TableList<T...>, std::string_view name) {
  const std::array<std::string_view, sizeof...(T)> names{T::kName...}, lines{T::kSummary...};
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return lines[i];
  return {};
}
}  // namespace scheme_detail

// One line per scheme for listings.
constexpr std::string_view scheme_summary(std::string_view name) {
  const std::string_view s = scheme_detail::summary_in(SchemeTables{}, name);
  return s.empty() ? scheme_detail::summary_in(TestSchemeTables{}, name) : s;
}

inline std::string known_schemes_text() {
  std::string s;
  for (std::string_view n : kSchemeNames) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

// The one wording of the error for a scheme name that is not in the list.
inline std::string unknown_scheme_message(std::string_view name) {
  return "unknown hash scheme '" + std::string(name) + "' (known: " + known_schemes_text() + ")";
}

namespace scheme_detail {
template <class F, class T, class... Rest>
decltype(auto) visit_each(std::string_view name, F& f) {
  if (name == T::kName) return f(std::type_identity<T>{});
  if constexpr (sizeof...(Rest) > 0) {
    return visit_each<F, Rest...>(name, f);
  } else {
    throw std::invalid_argument(unknown_scheme_message(name));
  }
}
template <class F, class... T>
decltype(auto) visit_in(TableList<T...>, std::string_view name, F& f) {
  return visit_each<F, T...>(name, f);
}
}  // namespace scheme_detail

// Calls f(std::type_identity<Table>{}) for the scheme called `name` (a real
// or a test scheme); every call must return the same type. Throws
// std::invalid_argument for unknown names.
template <class F>
decltype(auto) visit_scheme(std::string_view name, F&& f) {
  return scheme_detail::visit_in(SchemeTables{} + TestSchemeTables{}, name, f);
}

}  // namespace xq
