// Where a table's memory comes from, and the check that it fits.
//
// A table is zero-filled when it is allocated, so one larger than the
// machine's physical memory would page or get the process killed part way
// through; it is refused up front instead.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace xq {

struct PhysicalMemory {
  std::size_t pages = 0;
  std::size_t page_bytes = 0;
  std::size_t bytes() const { return pages * page_bytes; }
};

// Zero pages when the system does not say.
inline PhysicalMemory physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return {};
  return {std::size_t(pages), std::size_t(page)};
}

// Throws std::invalid_argument (one line naming both sizes) when `bytes` of
// table exceed physical memory.
inline void check_fits_in_memory(std::size_t bytes) {
  const PhysicalMemory m = physical_memory();
  if (m.pages == 0 || bytes <= m.bytes()) return;
  throw std::invalid_argument("hash table of " + std::to_string(bytes >> 20) +
                              " MiB exceeds physical memory of " + std::to_string(m.bytes() >> 20) +
                              " MiB (" + std::to_string(m.pages) + " pages x " +
                              std::to_string(m.page_bytes) + " bytes)");
}

// Private: the process's heap. Shared: one anonymous shared mapping
// (MAP_SHARED | MAP_ANONYMOUS) per block, which every process forked after
// the block was made sees at the same address, so the pointers a table keeps
// into it stay valid in each of them. Such a mapping has no name: it goes
// away with the last process that maps it, so a killed process can leak no
// segment (nothing in /dev/shm to clean up).
enum class TableMemory : std::uint8_t { Private, Shared };

// n value-initialised (zeroed) objects of T from the heap or from a shared
// mapping. T must be usable from every process that maps it: no pointer
// into one process's heap, and only address-free (lock-free) atomics.
template <class T>
class TableBlock {
 public:
  // A private block this large or larger is aligned to a 2 MiB huge page and
  // offered to the kernel's transparent huge pages (madvise MADV_HUGEPAGE,
  // which Linux honours when /sys/kernel/mm/transparent_hugepage/enabled
  // says "madvise" or "always"): a 16 MiB table is then 8 page faults
  // instead of 4,096 when it is zeroed, and fewer TLB misses when probed.
  static constexpr std::size_t kHugePage = std::size_t(2) << 20;

  TableBlock() = default;
  // Throws std::bad_alloc when the memory cannot be had.
  TableBlock(std::size_t n, TableMemory where) : n_(n), where_(where) {
    if (where == TableMemory::Private) {
      void* p = ::operator new(allocated(), std::align_val_t(alignment()));
      if (allocated() >= kHugePage) ::madvise(p, allocated(), MADV_HUGEPAGE);  // a hint only
      data_ = static_cast<T*>(p);
    } else {
      static_assert(alignof(T) <= 4096, "a mapping is page-aligned");
      void* p = ::mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      data_ = static_cast<T*>(p);
    }
    std::uninitialized_value_construct_n(data_, n);
  }
  ~TableBlock() { release(); }
  TableBlock(TableBlock&& o) noexcept { swap(o); }
  TableBlock& operator=(TableBlock&& o) noexcept {
    TableBlock(std::move(o)).swap(*this);
    return *this;
  }
  TableBlock(const TableBlock&) = delete;
  TableBlock& operator=(const TableBlock&) = delete;

  T* get() const { return data_; }
  T& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return n_; }
  TableMemory memory() const { return where_; }

 private:
  std::size_t bytes() const { return std::max<std::size_t>(1, n_ * sizeof(T)); }
  // A private block: its alignment and its size, whole huge pages when large.
  std::size_t alignment() const {
    return bytes() >= kHugePage ? kHugePage : std::max<std::size_t>(alignof(T), alignof(std::max_align_t));
  }
  std::size_t allocated() const {
    return bytes() >= kHugePage ? (bytes() + kHugePage - 1) / kHugePage * kHugePage : bytes();
  }
  void swap(TableBlock& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(n_, o.n_);
    std::swap(where_, o.where_);
  }
  void release() noexcept {
    if (data_) {
      std::destroy_n(data_, n_);
      if (where_ == TableMemory::Shared)
        ::munmap(data_, bytes());
      else
        ::operator delete(data_, std::align_val_t(alignment()));
    }
    data_ = nullptr;
    n_ = 0;
  }

  T* data_ = nullptr;
  std::size_t n_ = 0;
  TableMemory where_ = TableMemory::Private;
};

}  // namespace xq
