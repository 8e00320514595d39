#include "lab/common/suite.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "board/movegen.h"
#include "lab/common/csv.h"
#include "xqlab_build.h"

#ifndef XQLAB_DATA_DIR
#define XQLAB_DATA_DIR "data"
#endif

namespace xq::lab::common {

namespace {

// The indices of the rows of `t` whose `half` field is `half` (every row
// for "all"; a file without the column is one whole unless `half_given`).
std::vector<std::size_t> rows_of_half(const CsvTable& t, const std::string& path, std::string half,
                                      bool half_given) {
  const int half_col = t.column("half");
  if (half_col < 0 && !half_given) half = "all";
  if (half != "all" && half != "tune" && half != "verdict")
    throw std::invalid_argument("unknown half '" + half + "' (tune, verdict or all)");
  if (half != "all" && half_col < 0)
    throw std::invalid_argument(path + ": header has no 'half' column (a book's halves: tune, "
                                "verdict; any suite: all)");
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    if (half != "all") {
      const std::string& h = t.rows[i][std::size_t(half_col)];
      if (h != "tune" && h != "verdict")
        throw std::invalid_argument(t.where(i) + ": half '" + h + "' is neither tune nor verdict");
      if (h != half) continue;
    }
    rows.push_back(i);
  }
  if (rows.empty())
    throw std::invalid_argument("suite file '" + path + "' holds no positions" +
                                (half == "all" ? std::string() : " in half '" + half + "'"));
  return rows;
}

std::vector<SuiteEntry> load_rows(const std::string& path, const std::string& half, bool half_given) {
  const CsvTable t = read_csv(path);
  const int fen_col = t.column("fen"), name_col = t.column("name");
  if (fen_col < 0) throw std::invalid_argument(path + ": header has no 'fen' column");
  std::vector<SuiteEntry> out;
  for (const std::size_t i : rows_of_half(t, path, half, half_given)) {
    const std::vector<std::string>& row = t.rows[i];
    SuiteEntry e;
    e.name = name_col >= 0 && !row[std::size_t(name_col)].empty()
                 ? row[std::size_t(name_col)]
                 : "line " + std::to_string(t.line_numbers[i]);
    if (const std::string err = e.pos.set_fen(row[std::size_t(fen_col)]); !err.empty())
      throw std::invalid_argument(t.where(i) + ": " + err);
    if (MoveList(e.pos).size == 0)
      throw std::invalid_argument(t.where(i) + ": position has no legal move");
    out.push_back(std::move(e));
  }
  return out;
}

// The folder of the running binary ("" when /proc cannot say).
std::string executable_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

bool has_data(const std::string& dir) { return std::ifstream(dir + "/openings.csv").good(); }

bool inside(const std::string& path, const std::string& dir) {
  return path.size() >= dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         (path.size() == dir.size() || path[dir.size()] == '/');
}

}  // namespace

std::string data_dir() {
  const std::string exe = executable_dir();
  if (!exe.empty()) {
    const std::string share =
        (std::filesystem::path(exe) / ".." / "share" / "xqlab").lexically_normal().string();
    if (has_data(share)) return share;
  }
  if (const char* env = std::getenv("XQLAB_DATA_DIR"); env && *env) return env;
  if (!exe.empty() && inside(exe, XQLAB_BUILD_TREE) && has_data(XQLAB_DATA_DIR))
    return XQLAB_DATA_DIR;
  return "data";
}

std::vector<SuiteEntry> load_suite(const std::string& path) { return load_rows(path, "all", true); }

std::vector<std::string> suite_column(const std::string& path, const std::string& column,
                                      const std::string& half) {
  const CsvTable t = read_csv(path);
  const int col = t.column(column);
  if (col < 0)
    throw std::invalid_argument(path + ": header has no '" + column + "' column to group by");
  std::vector<std::string> out;
  for (const std::size_t i : rows_of_half(t, path, half, true))
    out.push_back(t.rows[i][std::size_t(col)]);
  return out;
}

std::vector<SuiteEntry> load_book(const std::string& path, const std::string& half,
                                  bool half_given) {
  return load_rows(path, half, half_given);
}

std::string default_suite_path() { return data_dir() + "/openings.csv"; }
std::string default_book_path() { return data_dir() + "/book.csv"; }

}  // namespace xq::lab::common
