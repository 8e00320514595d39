// What the parallel tests share: the contract's positions (the opening
// suite plus random playouts), exact-mode options (DESIGN.md §4), and the
// serial references. In exact mode the root value is the minimax value of the
// depth-limited tree, whatever the algorithm, so the references of the grids
// are stored once in tests/data/exact_values.csv (FEN, depth, value; written
// and checked by ExactValuesSlow.StoredValuesAreTheSerialValues) instead of
// being searched again by every test process; a position the file lacks is
// searched, once per process.
#pragma once

#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "parallel/backend.h"
#include "tests/board/csv.h"
#include "tests/support/positions.h"
#include "tests/support/sanitizers.h"

namespace xq::test {

inline SearchOptions exact_options(Depth depth, Algorithm a = Algorithm::Pvs) {
  SearchOptions o;
  o.exact = true;
  o.algorithm = a;
  o.limits.depth = depth;
  return o;
}

// The opening suite plus `randoms` positions from random playouts of 16-55
// plies (quiet, tactical and in-check positions alike).
inline std::vector<Position> contract_positions(int randoms) {
  std::vector<Position> out;
  for (const CsvRecord& rec : read_csv(openings_csv_path())) {
    Position p;
    if (p.set_fen(rec.at("fen")).empty()) out.push_back(p);
  }
  for (const Position& p : random_positions(randoms, 2026, 16, 40)) out.push_back(p);
  return out;
}

// A grid's positions as its test searches them: all of them, or under
// AddressSanitizer every `step`-th from the first (a search runs some 5-20
// times slower there, and the sanitizer looks for memory errors on each code
// path, not at each position; the uninstrumented run checks every value).
// With the openings first and the random playouts last, a step that lands on
// both keeps one of each kind.
inline std::vector<Position> fewer_under_asan(const std::vector<Position>& all, std::size_t step) {
  if (!kAddressSanitized) return all;
  std::vector<Position> some;
  for (std::size_t i = 0; i < all.size(); i += step) some.push_back(all[i]);
  return some;
}

// The opening suite plus `randoms` positions after random games of 24 plies
// (the split backends' exact grid, tests/parallel/pvsplit_ybwc_test.cpp).
inline std::vector<Position> split_grid_positions(int randoms) {
  std::vector<Position> out = contract_positions(0);
  for (const Position& p : random_positions(randoms, 11, 24)) out.push_back(p);
  return out;
}

// The backends whose threads book their time in parts that add up to their
// span (BackendInfo::expect.books_split_time), in registry order; with
// `simulable`, only those the simulated machine runs.
inline std::vector<std::string> time_booking_backends(bool simulable) {
  std::vector<std::string> out;
  for (const BackendInfo& b : backends())
    if (b.expect.books_split_time && (!simulable || b.simulable)) out.emplace_back(b.name);
  return out;
}

inline std::string exact_values_path() {
  return std::string(XQLAB_TEST_DATA_DIR) + "/exact_values.csv";
}

// (FEN, depth) -> the serial exact value, as stored.
inline const StoredValues& stored_values() {
  static const StoredValues values = read_stored_values(exact_values_path());
  return values;
}

// The serial exact value of one position, searched (alpha-beta).
inline Value search_serial_value(const Position& p, Depth depth) {
  BackendConfig c;
  c.hash_mib = 1;
  auto serial = make_backend("serial", c);
  Observer quiet;
  return serial->search(p, exact_options(depth, Algorithm::AlphaBeta), quiet).score;
}

// The serial exact values of `ps` at `depth`: stored, or searched once per
// process for each list; `ps` must outlive the process's tests (a static).
inline const std::vector<Value>& serial_values(const std::vector<Position>& ps, Depth depth) {
  static std::map<std::pair<const void*, Depth>, std::vector<Value>> cache;
  auto& values = cache[{&ps, depth}];
  if (values.empty()) {
    for (const Position& p : ps) {
      const auto it = stored_values().find({p.fen(), int(depth)});
      values.push_back(it != stored_values().end() ? it->second : search_serial_value(p, depth));
    }
  }
  return values;
}

}  // namespace xq::test
