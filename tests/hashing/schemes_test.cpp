// The scheme list, the name -> type dispatcher, and the packed entry layout.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "tests/hashing/scheme_types.h"

namespace xq::testing {
namespace {

TEST(HashSchemes, NamesAreUniqueAndOneIsUnprotected) {
  std::set<std::string_view> names(kSchemeNames.begin(), kSchemeNames.end());
  EXPECT_EQ(names.size(), kSchemeNames.size());
  int unprotected = 0;
  for (std::string_view n : kSchemeNames) {
    unprotected += is_unprotected_scheme(n);
    EXPECT_FALSE(scheme_summary(n).empty()) << n;
    EXPECT_TRUE(is_scheme_name(n));
  }
  EXPECT_EQ(unprotected, 1);
  EXPECT_NE(kUnprotectedScheme.find("unprotected"), std::string_view::npos);
  EXPECT_FALSE(is_scheme_name("locked"));
}

TEST(HashSchemes, VisitSchemeInstantiatesTheNamedTable) {
  for (std::string_view n : kSchemeNames) {
    const std::string_view got =
        visit_scheme(n, [](auto tag) { return decltype(tag)::type::kName; });
    EXPECT_EQ(got, n);
  }
}

TEST(HashSchemes, VisitSchemeRejectsUnknownNames) {
  try {
    visit_scheme("lockless", [](auto) { return 0; });
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("unknown hash scheme 'lockless'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("xor"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos);
  }
}

TEST(HashPacking, RoundTripsEveryFieldRange) {
  for (int depth = -128; depth <= 127; ++depth)
    for (int b = 0; b < 4; ++b) {
      const TTData d{Move(make_square(depth & 7, 0), make_square(8, 9)),
                     std::int16_t(depth * 250), std::int16_t(-depth * 3), std::int8_t(depth),
                     Bound(b), 0};
      for (const std::uint8_t g : {std::uint8_t{0}, std::uint8_t{1}, std::uint8_t{31}}) {
        const std::uint64_t w = packed::pack(d, g);
        TTData expected = d;
        expected.generation = g;
        EXPECT_EQ(packed::unpack(w), expected);
        EXPECT_TRUE(packed::occupied(w));
        EXPECT_EQ(w & packed::kSearchersMask, 0u);
        EXPECT_EQ(packed::depth_of(w), depth);
      }
    }
}

TEST(HashPacking, BucketsAreOneCacheLine) {
  EXPECT_EQ(sizeof(XorLayout::Bucket), kCacheLine);
  EXPECT_EQ(sizeof(SandwichLayout::Bucket), kCacheLine);
  EXPECT_EQ(sizeof(SpinlockLayout::Bucket), kCacheLine);
  EXPECT_EQ(alignof(UnprotectedLayout::Bucket), kCacheLine);
}

// The unprotected scheme checks nothing: a key beside another entry's data
// (what two racing writers leave behind) loads as a whole, unflagged slot,
// while the xor scheme flags the same mix.
TEST(HashPacking, UnprotectedLayoutFlagsNoMixAndXorDoes) {
  const TTData a = stress_payload(test_key(1)), b = stress_payload(test_key(2));
  UnprotectedLayout::Bucket ub{};
  UnprotectedLayout::save(ub, 0, test_key(1), packed::pack(a, 0));
  UnprotectedLayout::Bucket other{};
  UnprotectedLayout::save(other, 0, test_key(2), packed::pack(b, 0));
  ub.words[1].store(other.words[1].load());  // key 1 beside entry 2's data
  const LoadedSlot u = UnprotectedLayout::load(ub, 0);
  EXPECT_FALSE(u.torn);
  EXPECT_EQ(u.key, test_key(1));
  EXPECT_EQ(packed::unpack(u.data), b);

  XorLayout::Bucket xb{}, xo{};
  XorLayout::save(xb, 0, test_key(1), packed::pack(a, 0));
  XorLayout::save(xo, 0, test_key(2), packed::pack(b, 0));
  xb.words[1].store(xo.words[1].load());
  const LoadedSlot x = XorLayout::load(xb, 0);
  EXPECT_TRUE(x.torn || x.key != test_key(1));
}

TEST(HashPacking, StressPayloadIsAFunctionOfTheKey) {
  EXPECT_EQ(stress_payload(test_key(1)), stress_payload(test_key(1)));
  int equal = 0;
  for (std::uint64_t i = 0; i < 1000; ++i)
    equal += stress_payload_matches(test_key(i), stress_payload(test_key(i + 1)));
  EXPECT_EQ(equal, 0);
  for (std::uint64_t i = 0; i < 1000; ++i) {
    // Every payload survives packing, so a mismatch in a stress run can
    // only come from a race, never from a field the entry cannot hold.
    const TTData d = stress_payload(test_key(i));
    EXPECT_EQ(packed::unpack(packed::pack(d, 0)), d) << i;
    EXPECT_NE(d.bound, Bound::None);
  }
}

}  // namespace
}  // namespace xq::testing
