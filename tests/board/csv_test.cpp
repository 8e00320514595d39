// The CSV reader the data-driven tests stand on: a file that is missing,
// empty, header-only or malformed is an error, never an empty list, so no
// suite can shrink to nothing without failing.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "csv.h"

namespace xq::test {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "xqlab_csv_" + name;
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

TEST(Csv, MissingEmptyHeaderOnlyOrMalformedFileIsAnError) {
  const std::string bad[] = {
      ::testing::TempDir() + "xqlab_csv_does_not_exist.csv",
      write_temp("empty.csv", ""),
      write_temp("header_only.csv", "fen,depth,nodes,source\n"),
      write_temp("header_and_blank_lines.csv", "fen,depth\n\n\r\n"),
      write_temp("short_row.csv", "a,b,c\n1,2\n"),
      write_temp("open_quote.csv", "a,b\n\"1,2\n"),
  };
  int ran = 0;
  for (const std::string& path : bad) {
    EXPECT_THROW(read_csv(path), std::runtime_error) << path;
    std::remove(path.c_str());
    ++ran;
  }
  EXPECT_EQ(ran, 6);
}

TEST(Csv, ReadsQuotedFieldsAndCrLf) {
  const std::string path = write_temp("good.csv", "name,fen\r\n\"a, \"\"b\"\"\",x y\r\nc,d\n");
  const std::vector<CsvRecord> rows = read_csv(path);
  std::remove(path.c_str());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("name"), "a, \"b\"");
  EXPECT_EQ(rows[0].at("fen"), "x y");
  EXPECT_EQ(rows[1].at("fen"), "d");
}

}  // namespace
}  // namespace xq::test
