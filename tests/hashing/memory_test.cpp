// TableBlock's private memory: zeroed, aligned for its type, and a block of
// 2 MiB or more aligned to a huge page (the kernel may then back it with
// transparent huge pages: whether it does is the kernel's choice, so only
// the alignment that lets it is asserted here).
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "hashing/memory.h"

namespace xq {
namespace {

struct alignas(64) Line {
  std::uint64_t words[8];
};

template <class T>
bool all_zero(const TableBlock<T>& b) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(b.get());
  for (std::size_t i = 0; i < b.size() * sizeof(T); ++i)
    if (p[i] != 0) return false;
  return true;
}

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

TEST(TableBlock, SmallPrivateBlocksAreZeroedAndAlignedForTheirType) {
  const TableBlock<std::uint64_t> words(1000, TableMemory::Private);
  ASSERT_EQ(words.size(), 1000u);
  EXPECT_TRUE(all_zero(words));
  EXPECT_EQ(address(words.get()) % alignof(std::uint64_t), 0u);
  const TableBlock<Line> lines(100, TableMemory::Private);
  EXPECT_TRUE(all_zero(lines));
  EXPECT_EQ(address(lines.get()) % 64, 0u);
}

TEST(TableBlock, LargePrivateBlocksAreHugePageAligned) {
  constexpr std::size_t kPage = TableBlock<Line>::kHugePage;
  static_assert(kPage == std::size_t(2) << 20);
  // 16 MiB exactly, and a size that is not whole huge pages.
  for (const std::size_t n : {(std::size_t(16) << 20) / sizeof(Line), kPage / sizeof(Line) + 3}) {
    TableBlock<Line> b(n, TableMemory::Private);
    ASSERT_EQ(b.size(), n);
    EXPECT_EQ(address(b.get()) % kPage, 0u) << n;
    EXPECT_TRUE(all_zero(b)) << n;
    b[n - 1].words[7] = 42;  // the last byte is the block's (ASan would say otherwise)
    TableBlock<Line> moved(std::move(b));
    EXPECT_EQ(moved[n - 1].words[7], 42u);
    EXPECT_EQ(b.get(), nullptr);
    EXPECT_EQ(b.size(), 0u);
  }
}

TEST(TableBlock, SharedBlocksAreZeroedAndPageAligned) {
  const TableBlock<Line> b(1000, TableMemory::Shared);
  EXPECT_TRUE(all_zero(b));
  EXPECT_EQ(address(b.get()) % 4096, 0u);
  EXPECT_EQ(b.memory(), TableMemory::Shared);
}

}  // namespace
}  // namespace xq
