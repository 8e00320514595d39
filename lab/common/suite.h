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

// The games' opening book (data/book.csv, scripts/make_tuning_openings.py
// --book): a suite whose `half` column puts each opening in the tuners'
// half ("tune") or the verdicts' half ("verdict"). `half` "all" takes every
// row of any suite; "tune" or "verdict" the rows of that half. A file
// without the column is one whole: every row when `half_given` is false
// (a command's default half), std::invalid_argument (one line) when the
// user asked for a half; also for an unknown half.
std::vector<SuiteEntry> load_book(const std::string& path, const std::string& half,
                                  bool half_given);

// The `column` field of every position of the suite's `half` ("all": every
// row), in order (what load_book(path, half, true) returns): the labels of
// `xqlab lab --by COLUMN`. Throws std::invalid_argument (one line) when the
// header has no such column, and as load_book for the half.
std::vector<std::string> suite_column(const std::string& path, const std::string& column,
                                      const std::string& half = "all");

// The shipped suites' folder (the suites, the simulator's profiles), the
// first of: PREFIX/share/xqlab beside an installed binary (PREFIX/bin/xqlab,
// `cmake --install`); the environment's XQLAB_DATA_DIR; for a binary inside
// its build tree, the source tree's data/; ./data. An installed binary
// never reads the source tree.
std::string data_dir();
// data/openings.csv: the default suite of lab and ablation.
std::string default_suite_path();
// data/book.csv: the default book of the games (match, recommend, transfer,
// evolve, spsa).
std::string default_book_path();

}  // namespace xq::lab::common
