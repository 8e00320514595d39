// Reading the reference CSV files the board tests are driven by: a header line
// naming the columns, then one record a line. Fields may be double-quoted (a
// quoted field can hold commas; "" inside it is a literal quote).
#pragma once

#include <cstdint>
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
// Throws std::runtime_error when the file is missing or a line is malformed.
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

inline const std::string& perft_csv_path() {
  static const std::string path = std::string(XQLAB_SHARED_DATA_DIR) + "/perft.csv";
  return path;
}

inline const std::string& openings_csv_path() {
  static const std::string path = std::string(XQLAB_DATA_DIR) + "/openings.csv";
  return path;
}

// Why perft.csv could not be read ("" when it was).
inline std::string& perft_csv_error() {
  static std::string error;
  return error;
}

// All rows of perft.csv; an unreadable file gives an empty list (a separate
// test asserts the table is present, so the failure is reported, not hidden).
inline const std::vector<PerftRow>& perft_rows() {
  static const std::vector<PerftRow> rows = [] {
    std::vector<PerftRow> out;
    try {
      int i = 0;
      for (const CsvRecord& rec : read_csv(perft_csv_path())) {
        PerftRow row;
        row.index = i++;
        row.fen = rec.at("fen");
        row.depth = std::stoi(rec.at("depth"));
        row.nodes = std::stoull(rec.at("nodes"));
        row.source = rec.at("source");
        out.push_back(row);
      }
    } catch (const std::exception& e) {
      perft_csv_error() = e.what();
      out.clear();
    }
    return out;
  }();
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
