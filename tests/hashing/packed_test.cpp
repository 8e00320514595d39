// The packed scheme's own properties: what a MiB holds, the 16-bit check
// that passes a mix of two stores by, and the false-match rate of that
// check against what it predicts (a whole-key check lets none through).
// Its table behaviour is in the parameterised suites with every scheme.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hashing/schemes.h"
#include "hashing/stress.h"
#include "tests/support/run_xqlab.h"

namespace xq::testing {
namespace {

template <class T>
constexpr std::size_t entries_per_mib() {
  return (std::size_t{1} << 20) / T::kBucketBytes * T::kBucketSlots;
}

TEST(Packed, HoldsHalfAgainAsManyEntriesPerMiBWithASixteenBitCheck) {
  EXPECT_EQ(entries_per_mib<PackedTable>(), 98304u);
  EXPECT_EQ(entries_per_mib<XorTable>(), 65536u);
  EXPECT_EQ(PackedTable::kKeyCheckBits, 16);
  EXPECT_EQ(XorTable::kKeyCheckBits, 64);
  EXPECT_EQ(Atomic16Table::kKeyCheckBits, 64);
}

// A reader that meets one store's check word beside another store's data
// word sees neither key.
TEST(Packed, AMixOfTwoStoresMatchesNeitherKey) {
  PackedLayout::Bucket b{};
  const Key a = 0x1234'0000'0000'0001ULL, c = 0xBEEF'0000'0000'0001ULL;
  const std::uint64_t da = packed::pack(stress_payload(a), 0);
  const std::uint64_t dc = packed::pack(stress_payload(c), 0);
  ASSERT_NE(PackedLayout::fold(da), PackedLayout::fold(dc));
  PackedLayout::save(b, 3, a, da);
  EXPECT_EQ(PackedLayout::load(b, 3).key, a & PackedLayout::kKeyMask);
  EXPECT_EQ(PackedLayout::load(b, 3).data, da);
  b.data[3].store(dc, std::memory_order_relaxed);  // c's data word landed, not yet its check
  const LoadedSlot mix = PackedLayout::load(b, 3);
  EXPECT_NE(mix.key, a & PackedLayout::kKeyMask);
  EXPECT_NE(mix.key, c & PackedLayout::kKeyMask);
  PackedLayout::save(b, 3, c, dc);
  EXPECT_EQ(PackedLayout::load(b, 3).key, c & PackedLayout::kKeyMask);
}

// A full table probed for 2,000,000 keys it never held: the 16-bit check
// lets through about fill x 6 / 65,536 of them (about 183); a binomial count
// of that mean stays within +-40 % with probability far above 1 - 1e-6.
// The whole-key schemes let none through.
TEST(Packed, FalseMatchesComeAtTheRateItsCheckPredicts) {
  StressConfig c;
  c.entries = 98304;  // 1 MiB of packed buckets
  c.max_ops = 2000000;
  const FalseMatchResult p = run_false_match<PackedTable>(c);
  EXPECT_EQ(p.probes, 2000000u);
  EXPECT_EQ(p.entries, 98304u);
  EXPECT_GT(p.fill, 0.95);
  EXPECT_GT(p.expected(), 150.0);
  EXPECT_GT(double(p.false_matches), 0.6 * p.expected()) << p.false_matches;
  EXPECT_LT(double(p.false_matches), 1.4 * p.expected()) << p.false_matches;
  c.entries = 65536;
  const FalseMatchResult x = run_false_match<XorTable>(c);
  EXPECT_EQ(x.probes, 2000000u);
  EXPECT_EQ(x.false_matches, 0u);
  const FalseMatchResult s = run_false_match<Atomic16Table>(c);
  EXPECT_EQ(s.false_matches, 0u);
}

TEST(PackedCli, FalseMatchModeWritesOneLinePerScheme) {
  const test::XqlabRun r =
      test::run_xqlab({"stress", "--hash", "packed,xor", "--mode", "false-matches", "--ops",
                       "200000", "--entries", "6144", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<nlohmann::json> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].at("hash"), "packed");
  EXPECT_EQ(lines[0].at("key_bits"), 16);
  EXPECT_EQ(lines[0].at("probes"), 200000);
  EXPECT_EQ(lines[1].at("hash"), "xor");
  EXPECT_EQ(lines[1].at("false_matches"), 0);
}

TEST(PackedCli, FalseMatchModeRefusesThreadsInOneLine) {
  const test::XqlabRun r = test::run_xqlab(
      {"stress", "--hash", "packed", "--mode", "false-matches", "--threads", "4"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "xqlab stress: stress --mode false-matches runs one thread; --threads and "
            "--processes do not apply\n");
}

}  // namespace
}  // namespace xq::testing
