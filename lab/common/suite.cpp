#include "lab/common/suite.h"

#include <fstream>
#include <stdexcept>

#include "board/movegen.h"
#include "lab/common/csv.h"

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

std::string data_dir() {
  if (std::ifstream(std::string(XQLAB_DATA_DIR) + "/openings.csv")) return XQLAB_DATA_DIR;
  return "data";
}

std::string default_suite_path() { return data_dir() + "/openings.csv"; }

}  // namespace xq::lab::common
