// Position suites: a CSV file (lab/common/csv.h) with a `fen` column and an optional
// `name` column; other columns are ignored.
#pragma once

#include <string>
#include <vector>

#include "board/position.h"

namespace xq::lab::common {

struct SuiteEntry {
  std::string name;  // the `name` field, or "line N" without one
  Position pos;
};

// Every position of the file, in order. Throws std::invalid_argument naming
// the file and line for an unreadable file, a header without `fen`, a bad
// FEN, a position without a legal move, or a file without positions.
std::vector<SuiteEntry> load_suite(const std::string& path);

// The shipped suites' folder (the suites, the simulator's profiles), the
// first of: PREFIX/share/xqlab beside an installed binary (PREFIX/bin/xqlab,
// `cmake --install`); the environment's XQLAB_DATA_DIR; for a binary inside
// its build tree, the source tree's data/; ./data. An installed binary
// never reads the source tree.
std::string data_dir();
// data/openings.csv: the default suite of lab and ablation.
std::string default_suite_path();

}  // namespace xq::lab::common
