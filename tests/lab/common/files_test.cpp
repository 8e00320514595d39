// Documents replaced atomically (lab/common/files.h): the whole new text or
// the old file, never a truncated one, and no temporary left behind.
#include "lab/common/files.h"
#include "tests/support/files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace xq::lab::common {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

TEST(LabFiles, WriteAtomicallyReplacesTheWholeFile) {
  const std::string path = xq::test::temp_path("files", "doc.json");
  std::ofstream(path) << "{\"old\": true}\n";
  const std::string text = "{\"new\": [" + std::string(100000, '1') + "]}\n";
  write_file_atomically(path, text);
  EXPECT_EQ(read(path), text);
  EXPECT_FALSE(exists(path + ".tmp"));
  std::remove(path.c_str());
}

TEST(LabFiles, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  // A directory cannot be replaced by a file: the rename fails after the
  // temporary was written.
  const std::string dir = xq::test::temp_path("files", "dir");
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  std::ofstream(dir + "/inside") << "kept\n";
  EXPECT_THROW(write_file_atomically(dir, "text\n"), std::runtime_error);
  EXPECT_EQ(read(dir + "/inside"), "kept\n");
  EXPECT_FALSE(exists(dir + ".tmp"));
  // No directory for the temporary: nothing is written anywhere.
  const std::string nowhere = xq::test::temp_path("files", "missing/doc.json");
  try {
    write_file_atomically(nowhere, "text\n");
    ADD_FAILURE() << "no error for " << nowhere;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(nowhere + ".tmp"), std::string::npos) << e.what();
  }
  std::remove((dir + "/inside").c_str());
  ::rmdir(dir.c_str());
}

TEST(LabFiles, CheckWritableTouchesNothing) {
  const std::string path = xq::test::temp_path("files", "checked.json");
  check_writable(path);
  EXPECT_FALSE(exists(path));
  EXPECT_FALSE(exists(path + ".tmp"));
  EXPECT_THROW(check_writable(xq::test::temp_path("files", "missing/doc.json")), std::runtime_error);
}

}  // namespace
}  // namespace xq::lab::common
