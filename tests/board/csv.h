// Reading the reference CSV files the board tests are driven by: a header line
// naming the columns, then one record a line. Fields may be double-quoted (a
// quoted field can hold commas; "" inside it is a literal quote).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace xq::test {

using CsvRecord = std::map<std::string, std::string>;

inline std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        fields.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  if (quoted) throw std::runtime_error("unterminated quote in CSV line: " + line);
  return fields;
}

// Reads a whole CSV file into records keyed by the header's column names.
// Throws std::runtime_error when the file is missing, has no header or no
// record, or a line is malformed: a data-driven test never sees an empty list.
inline std::vector<CsvRecord> read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + " is empty");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::vector<std::string> header = split_csv_line(line);
  std::vector<CsvRecord> out;
  int number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> fields = split_csv_line(line);
    if (fields.size() != header.size())
      throw std::runtime_error(path + ":" + std::to_string(number) + " has " +
                               std::to_string(fields.size()) + " fields, expected " +
                               std::to_string(header.size()));
    CsvRecord rec;
    for (std::size_t i = 0; i < header.size(); ++i) rec[header[i]] = fields[i];
    out.push_back(std::move(rec));
  }
  if (out.empty()) throw std::runtime_error(path + " has a header but no records");
  return out;
}

// One row of the perft reference table.
struct PerftRow {
  int index = 0;  // 0-based record number in the file
  std::string fen;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::string source;
};

// How gtest shows a row (test lists, failures, ctest's test properties).
inline void PrintTo(const PerftRow& row, std::ostream* os) {
  *os << "depth " << row.depth << " of " << row.fen << " = " << row.nodes << " (" << row.source
      << ")";
}

// What the reference files hold today. Suites assert they ran at least this
// many cases, so a truncated file fails instead of testing less.
constexpr std::size_t kPerftRows = 135;      // tests/data/perft.csv
constexpr std::size_t kPerftFens = 30;       // its distinct FENs
constexpr std::size_t kOpeningRecords = 16;  // data/openings.csv

inline const std::string& perft_csv_path() {
  static const std::string path = std::string(XQLAB_TEST_DATA_DIR) + "/perft.csv";
  return path;
}

inline const std::string& openings_csv_path() {
  static const std::string path = std::string(XQLAB_DATA_DIR) + "/openings.csv";
  return path;
}

// Reference data is read while gtest builds its parameterised suites, before
// any test runs, so an unreadable file ends the binary with one line on
// stderr (test discovery then fails the build) rather than an empty suite.
template <class Load>
auto load_or_exit(const std::string& path, Load load) {
  try {
    return load(read_csv(path));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cannot use test data %s: %s\n", path.c_str(), e.what());
    std::exit(1);
  }
}

// A file of stored search values, columns fen, depth, value: (FEN, depth)
// -> value (tests/data/exact_values.csv, minimax_values.csv).
using StoredValues = std::map<std::pair<std::string, int>, int>;

inline StoredValues read_stored_values(const std::string& path) {
  StoredValues v;
  for (const CsvRecord& r : read_csv(path)) v[{r.at("fen"), std::stoi(r.at("depth"))}] = std::stoi(r.at("value"));
  return v;
}

// All rows of perft.csv, in file order.
inline const std::vector<PerftRow>& perft_rows() {
  static const std::vector<PerftRow> rows =
      load_or_exit(perft_csv_path(), [](const std::vector<CsvRecord>& records) {
        std::vector<PerftRow> out;
        for (const CsvRecord& rec : records) {
          PerftRow row;
          row.index = int(out.size());
          row.fen = rec.at("fen");
          row.depth = std::stoi(rec.at("depth"));
          row.nodes = std::stoull(rec.at("nodes"));
          row.source = rec.at("source");
          out.push_back(row);
        }
        return out;
      });
  return rows;
}

// Distinct FENs of the perft table, in first-seen order.
inline std::vector<std::string> perft_fens() {
  std::vector<std::string> out;
  for (const PerftRow& row : perft_rows()) {
    bool seen = false;
    for (const std::string& f : out) seen = seen || f == row.fen;
    if (!seen) out.push_back(row.fen);
  }
  return out;
}

}  // namespace xq::test
