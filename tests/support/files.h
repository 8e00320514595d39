// Temporary file names for tests: one per test binary's process, a tag per
// test file (so two files of one binary never share a name) and a name.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

namespace xq::test {

inline std::string temp_path(const std::string& tag, const std::string& name) {
  return ::testing::TempDir() + "xqlab_" + tag + "_" + std::to_string(::getpid()) + "_" + name;
}

}  // namespace xq::test
