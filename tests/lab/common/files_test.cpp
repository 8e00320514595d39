// Documents replaced atomically (lab/common/files.h): the whole new text or
// the old file, never a truncated one, and no temporary left behind.
#include "lab/common/files.h"
#include "tests/support/files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

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

TEST(LabFiles, GzipPathsAreCompressedOnWritingAndReadBack) {
  const std::string path = xq::test::temp_path("files", "doc.jsonl.gz");
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "{\"game\": " + std::to_string(i) + ", \"result\": \"1-0\"}\n";
  write_file_atomically(path, text);
  const std::string bytes = read(path);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f) << "gzip magic";
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b) << "gzip magic";
  EXPECT_LT(bytes.size() * 10, text.size()) << "repetitive lines compress more than tenfold";
  EXPECT_EQ(read_whole_file(path).value_or(""), text);
  // gzip(1) reads what xqlab wrote, and xqlab what gzip(1) wrote.
  const std::string plain = xq::test::temp_path("files", "by-gzip.jsonl");
  ASSERT_EQ(std::system(("gzip -dc '" + path + "' > '" + plain + "'").c_str()), 0);
  EXPECT_EQ(read(plain), text);
  ASSERT_EQ(std::system(("gzip -9 -f '" + plain + "'").c_str()), 0);
  EXPECT_EQ(read_whole_file(plain + ".gz").value_or(""), text);
  std::remove(path.c_str());
  std::remove((plain + ".gz").c_str());
}

TEST(LabFiles, GzipMembersConcatenateAndBadDataIsAnErrorNamingThePath) {
  const std::string two = gzip_text("first\n", "a") + gzip_text("second\n", "b");
  EXPECT_EQ(gunzip_text(two, "two"), "first\nsecond\n");
  EXPECT_EQ(gunzip_text(gzip_text("", "empty"), "empty"), "");
  const std::string whole = gzip_text(std::string(1000, 'x'), "x");
  const std::pair<std::string, const char*> bad[] = {
      {whole.substr(0, whole.size() / 2), "truncated"},
      {"not gzip at all", "incorrect header check"},
      {"", "truncated"},
      {whole + "garbage after the member", "incorrect header check"},
  };
  int ran = 0;
  for (const auto& [data, why] : bad) {
    try {
      gunzip_text(data, "docs/x.json.gz");
      ADD_FAILURE() << "no error for " << why;
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("'docs/x.json.gz'"), std::string::npos) << what;
      EXPECT_NE(what.find(why), std::string::npos) << what;
    }
    ++ran;
  }
  EXPECT_EQ(ran, 4);
  const std::string path = xq::test::temp_path("files", "plain-named.json.gz");
  std::ofstream(path) << "{\"plain\": true}\n";
  EXPECT_THROW(read_whole_file(path), std::runtime_error) << "a .gz path must hold gzip data";
  std::remove(path.c_str());
  EXPECT_FALSE(read_whole_file(xq::test::temp_path("files", "none.json.gz")).has_value());
}

}  // namespace
}  // namespace xq::lab::common
