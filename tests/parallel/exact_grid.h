// What the parallel tests share: the contract's positions (the opening
// suite plus random playouts), exact-mode options (DESIGN.md §4), and the
// serial references, computed once per test process.
#pragma once

#include <map>
#include <tuple>
#include <vector>

#include "parallel/backend.h"
#include "tests/board/csv.h"
#include "tests/support/positions.h"

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

// Serial alpha-beta (or PVS) values of `ps` in exact mode, computed once per
// process for each (list, depth, algorithm); `ps` must outlive the process's
// tests (a static).
inline const std::vector<Value>& serial_values(const std::vector<Position>& ps, Depth depth,
                                               Algorithm a = Algorithm::AlphaBeta) {
  static std::map<std::tuple<const void*, Depth, Algorithm>, std::vector<Value>> cache;
  auto& values = cache[{&ps, depth, a}];
  if (values.empty()) {
    BackendConfig c;
    c.hash_mib = 1;
    auto serial = make_backend("serial", c);
    Observer quiet;
    for (const Position& p : ps) values.push_back(serial->search(p, exact_options(depth, a), quiet).score);
  }
  return values;
}

}  // namespace xq::test
