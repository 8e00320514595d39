// The table types every parameterised hashing test runs over.
#pragma once

#include <gtest/gtest.h>

#include <type_traits>

#include "hashing/schemes.h"
#include "hashing/stress.h"

namespace xq::testing {

// gtest's type list of a TableList (hashing/schemes.h), so that a scheme
// added to SchemeTables joins every suite below without a line here.
template <class List>
struct GTestTypes;
template <class... T>
struct GTestTypes<TableList<T...>> {
  using type = ::testing::Types<T...>;
};
// The tables of SchemeTables for which Keep<T>::value holds.
template <template <class> class Keep>
using SchemesWhere = typename GTestTypes<typename FilterTables<Keep, SchemeTables>::type>::type;

// Safe: never accepts another position's entry -- neither a torn mix
// (unprotected) nor a false match of a key check shorter than the key (packed).
template <class T>
struct IsSafe : std::bool_constant<!is_unprotected_scheme(T::kName) && T::kKeyCheckBits == 64> {};
template <class T>
struct Any : std::true_type {};

using AllSchemes = SchemesWhere<Any>;
using SafeSchemes = SchemesWhere<IsSafe>;

struct SchemeName {
  template <class T>
  static std::string GetName(int) {
    return std::string(T::kName);
  }
};

// Distinct non-zero keys.
inline Key test_key(std::uint64_t i) { return mix64(i * 0x9E3779B97F4A7C15ULL + 12345) | 1; }

// A table of exactly one bucket, so that every key collides.
template <class Table>
void one_bucket(Table& t, Replacement r) {
  t.configure_bytes(Table::kBucketBytes, 1, r);
  ASSERT_EQ(t.bucket_count(), 1u);
}

inline TTData make_data(int depth, Bound bound = Bound::Lower, std::int16_t value = 7) {
  TTData d;
  d.move = Move(make_square(4, 0), make_square(4, 1));
  d.value = value;
  d.eval = -3;
  d.depth = std::int8_t(depth);
  d.bound = bound;
  return d;
}

}  // namespace xq::testing
