// lab's CSV reader and suite loader: quoting, trimming, errors naming the
// file and line, and the shipped suites loading completely; the whole-number
// parse of fields and options (lab/common/text.h).
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "lab/common/csv.h"
#include "lab/common/suite.h"
#include "lab/common/text.h"

namespace xq::lab::common {
namespace {


std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// The message of the std::invalid_argument `f` throws ("" when none).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(LabText, WholeIntTakesAWholeNumberOrNothing) {
  EXPECT_EQ(whole_int("12"), 12);
  EXPECT_EQ(whole_int("-3"), -3);
  EXPECT_EQ(whole_int("0"), 0);
  int refused = 0;
  for (const char* bad : {"", "x", "12x", "1.5", "3 ", "99999999999"}) {
    EXPECT_FALSE(whole_int(bad)) << bad;
    ++refused;
  }
  EXPECT_EQ(refused, 6);
}

TEST(LabCsv, SplitsQuotedFields) {
  EXPECT_EQ(split_csv_line("a,b,,c"), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(split_csv_line("\"x, y\",\"say \"\"hi\"\"\""),
            (std::vector<std::string>{"x, y", "say \"hi\""}));
  EXPECT_EQ(split_csv_line(" a , \"b\" \r"), (std::vector<std::string>{"a", "b"}));
  EXPECT_THROW(split_csv_line("\"open"), std::invalid_argument);
}

TEST(LabCsv, ReadsHeaderRowsAndLineNumbers) {
  const std::string path = write_temp("lab_csv_ok.csv", "name,fen\n\nx,1\ny\n");
  const CsvTable t = read_csv(path);
  EXPECT_EQ(t.header, (std::vector<std::string>{"name", "fen"}));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"y", ""}));  // short rows padded
  EXPECT_EQ(t.line_numbers, (std::vector<int>{3, 4}));
  EXPECT_EQ(t.column("fen"), 1);
  EXPECT_EQ(t.column("nope"), -1);
  EXPECT_EQ(t.where(1), path + ":4");
}

TEST(LabCsv, ErrorsNameTheFileAndLine) {
  const std::string wide = write_temp("lab_csv_wide.csv", "a,b\n1,2,3\n");
  EXPECT_NE(error_of([&] { read_csv(wide); }).find(wide + ":2"), std::string::npos);
  const std::string open = write_temp("lab_csv_open.csv", "a\n\"x\n");
  EXPECT_NE(error_of([&] { read_csv(open); }).find(open + ":2: unterminated"),
            std::string::npos);
  const std::string empty = write_temp("lab_csv_empty.csv", "\n\n");
  EXPECT_NE(error_of([&] { read_csv(empty); }).find("empty"), std::string::npos);
  EXPECT_NE(error_of([] { read_csv("/nonexistent/x.csv"); }).find("/nonexistent/x.csv"),
            std::string::npos);
}

TEST(LabSuite, ShippedSuitesLoadEveryRow) {
  for (const char* name : {"openings.csv", "middlegames.csv"}) {
    const std::string path = data_dir() + "/" + name;
    const CsvTable t = read_csv(path);
    const auto suite = load_suite(path);
    EXPECT_EQ(suite.size(), t.rows.size()) << name;
    EXPECT_GE(suite.size(), 10u) << name;
    EXPECT_EQ(suite.front().name, t.rows.front()[std::size_t(t.column("name"))]);
  }
  EXPECT_EQ(default_suite_path(), data_dir() + "/openings.csv");
}

TEST(LabSuite, RejectsBadSuites) {
  const std::string no_fen = write_temp("lab_suite_nofen.csv", "name\nx\n");
  EXPECT_NE(error_of([&] { load_suite(no_fen); }).find("no 'fen' column"),
            std::string::npos);
  const std::string bad = write_temp("lab_suite_bad.csv", "fen,name\nnot a fen,x\n");
  EXPECT_NE(error_of([&] { load_suite(bad); }).find(bad + ":2: "), std::string::npos);
  const std::string none = write_temp("lab_suite_none.csv", "fen,name\n");
  EXPECT_NE(error_of([&] { load_suite(none); }).find("holds no positions"),
            std::string::npos);
  const std::string unnamed = write_temp(
      "lab_suite_unnamed.csv",
      "fen\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n");
  EXPECT_EQ(load_suite(unnamed).at(0).name, "line 2");
}

}  // namespace
}  // namespace xq::lab::common
