// Temporary file names for tests: one per test binary's process, a tag per
// test file (so two files of one binary never share a name) and a name.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/support/sanitizers.h"

namespace xq::test {

inline std::string temp_path(const std::string& tag, const std::string& name) {
  return ::testing::TempDir() + "xqlab_" + tag + "_" + std::to_string(::getpid()) + "_" + name;
}

// The opening suite's first n positions (data/openings.csv, XQLAB_DATA_DIR),
// written once per process to a temporary suite file; its path.
inline std::string first_openings(int n) {
  const std::string path = temp_path("suite", "openings_" + std::to_string(n) + ".csv");
  std::ifstream in(std::string(XQLAB_DATA_DIR) + "/openings.csv");
  std::ofstream out(path);
  std::string line;
  for (int i = 0; i <= n && std::getline(in, line); ++i) out << line << '\n';  // header + n
  return path;
}

// The end-to-end lab tests' size: the opening suite's 16 positions and the
// lab's default 16 MiB tables, or under AddressSanitizer the suite's first 4
// positions and 1 MiB tables. A lab runs some 10-15 times slower there, and
// the sanitizer checks each code path, not each position; the lab builds
// every search's backend afresh, and each new 16 MiB table (one per rank of
// a distributed backend) is fresh memory that ASan's allocator maps and
// faults in page by page (xqlab lab --simulate --backends mpi-lazy,lazysmp
// --ranks 1,2,4 --threads 1,2 --depth 4: 33 s with 16 MiB, 15 s with 1 MiB,
// 2026-11-29). The uninstrumented run checks the full size.
// lab_size_args() are the lab arguments that pick them (none: the defaults).
inline constexpr int kLabPositions = kAddressSanitized ? 4 : 16;

inline std::vector<std::string> lab_size_args() {
  if (!kAddressSanitized) return {};
  static const std::string path = first_openings(kLabPositions);
  return {"--suite", path, "--hash-mb", "1"};
}

}  // namespace xq::test
