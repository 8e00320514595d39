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

std::vector<SuiteEntry> load_suite(const std::string& path) {
  const CsvTable t = read_csv(path);
  const int fen_col = t.column("fen"), name_col = t.column("name");
  if (fen_col < 0) throw std::invalid_argument(path + ": header has no 'fen' column");
  std::vector<SuiteEntry> out;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
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
  if (out.empty()) throw std::invalid_argument("suite file '" + path + "' holds no positions");
  return out;
}

namespace {

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

std::string default_suite_path() { return data_dir() + "/openings.csv"; }

}  // namespace xq::lab::common
