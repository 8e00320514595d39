// The list of hash schemes and the one place that maps a scheme name to its
// table type. Code that is templated on the table (a search, a stress run, a
// benchmark) is instantiated once per scheme through visit_scheme, at the top
// of a run, so the hot path never dispatches on the scheme.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "hashing/faulty.h"
#include "hashing/mutex_table.h"
#include "hashing/perthread.h"
#include "hashing/sandwich.h"
#include "hashing/spinlock.h"
#include "hashing/tbbspin.h"
#include "hashing/unprotected.h"
#include "hashing/xor_table.h"

namespace xq {

// Every scheme, safe ones first; kUnprotectedScheme is the one that lets torn
// entries through (a baseline, never for real searches).
inline constexpr std::array<std::string_view, 7> kSchemeNames = {
    PerThreadTable::kName, SpinlockTable::kName, MutexTable::kName, TbbSpinTable::kName,
    XorTable::kName,       SandwichTable::kName, UnprotectedTable::kName};
inline constexpr std::string_view kUnprotectedScheme = UnprotectedTable::kName;

// Test only: fault injection. Never in kSchemeNames, so the lab, the stress
// tool and the parameterised tests never run them; backends accept them by name.
inline constexpr std::array<std::string_view, 1> kTestSchemeNames = {FaultyTable::kName};

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

// One line per scheme for listings.
constexpr std::string_view scheme_summary(std::string_view name) {
  if (name == PerThreadTable::kName) return "one table per thread (XOR-checked), probe reads all";
  if (name == SpinlockTable::kName) return "spinlock word per bucket (exchange + pause)";
  if (name == MutexTable::kName) return "striped std::mutex";
  if (name == TbbSpinTable::kName) return "striped tbb::spin_mutex";
  if (name == XorTable::kName) return "lockless, check word = key ^ data (Hyatt-Mann)";
  if (name == SandwichTable::kName) return "lockless, check words at both ends (ElephantEye-style)";
  if (name == UnprotectedTable::kName) return "UNSAFE baseline: no check, torn entries accepted";
  if (name == FaultyTable::kName)
    return "test only: fault injection (xor, a share of probes answered with random words)";
  return "";
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

// Calls f(std::type_identity<Table>{}) for the scheme called `name`; every call
// must return the same type. Throws std::invalid_argument for unknown names.
template <class F>
decltype(auto) visit_scheme(std::string_view name, F&& f) {
  if (name == PerThreadTable::kName) return std::forward<F>(f)(std::type_identity<PerThreadTable>{});
  if (name == SpinlockTable::kName) return std::forward<F>(f)(std::type_identity<SpinlockTable>{});
  if (name == MutexTable::kName) return std::forward<F>(f)(std::type_identity<MutexTable>{});
  if (name == TbbSpinTable::kName) return std::forward<F>(f)(std::type_identity<TbbSpinTable>{});
  if (name == XorTable::kName) return std::forward<F>(f)(std::type_identity<XorTable>{});
  if (name == SandwichTable::kName) return std::forward<F>(f)(std::type_identity<SandwichTable>{});
  if (name == UnprotectedTable::kName)
    return std::forward<F>(f)(std::type_identity<UnprotectedTable>{});
  if (name == FaultyTable::kName) return std::forward<F>(f)(std::type_identity<FaultyTable>{});
  throw std::invalid_argument(unknown_scheme_message(name));
}

}  // namespace xq
