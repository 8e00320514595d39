// The one CSV reader of the project (suites, reference data, benchmarks and
// tests all read through it): a header line naming the columns, then one
// record a line. Fields may be double-quoted; a quoted field can hold commas,
// and "" inside it is a literal quote. Spaces and a trailing CR around a field
// are trimmed; blank lines are skipped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace xq::lab::common {

struct CsvTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as long as the header
  std::vector<int> line_numbers;               // the file line of each row

  // Index of a column, or -1.
  int column(std::string_view name) const;
  // "path:line" of a row, for error messages.
  std::string where(std::size_t row) const;
};

// Splits one record; throws std::invalid_argument on an unterminated quote.
std::vector<std::string> split_csv_line(std::string_view line);

// Reads a whole file. Throws std::invalid_argument naming the file (and the
// line) when it cannot be read, has no header, or a record is malformed or
// has more fields than the header.
CsvTable read_csv(const std::string& path);

}  // namespace xq::lab::common
