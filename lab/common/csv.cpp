#include "lab/common/csv.h"

#include <fstream>
#include <stdexcept>

namespace xq::lab::common {
namespace {

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && s[b] == ' ') ++b;
  return s.substr(b);
}

}  // namespace

int CsvTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return int(i);
  return -1;
}

std::string CsvTable::where(std::size_t row) const {
  return path + ":" + std::to_string(line_numbers.at(row));
}

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') out.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else quoted = false;
    } else if (c == '"' && trim(out.back()).empty()) {
      out.back().clear();
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (quoted) throw std::invalid_argument("unterminated quoted field");
  for (std::string& f : out) f = trim(std::move(f));
  return out;
}

CsvTable read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read CSV file '" + path + "'");
  CsvTable t;
  t.path = path;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (trim(line).empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no);
    std::vector<std::string> fields;
    try {
      fields = split_csv_line(line);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
    if (t.header.empty()) {
      t.header = std::move(fields);
      continue;
    }
    if (fields.size() > t.header.size())
      throw std::invalid_argument(where + ": " + std::to_string(fields.size()) +
                                  " fields, the header names " +
                                  std::to_string(t.header.size()));
    fields.resize(t.header.size());
    t.rows.push_back(std::move(fields));
    t.line_numbers.push_back(line_no);
  }
  if (t.header.empty()) throw std::invalid_argument("CSV file '" + path + "' is empty");
  return t;
}

}  // namespace xq::lab::common
