// A table is zero-filled when it is allocated, so one larger than the
// machine's physical memory would page or get the process killed part way
// through; it is refused up front instead.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <stdexcept>
#include <string>

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

}  // namespace xq
