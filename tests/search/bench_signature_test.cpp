// Single-threaded determinism and a stored reference: the "bench signature"
// (Stockfish's idea) is the total node count of fixed-depth searches over a
// fixed set of positions (the start position and the opening suite). Two runs
// must give the same signature, best moves and scores, whether one backend is
// reused (clear() between positions) or a fresh one is built each time; and
// the signature must equal the one stored in tests/data/bench_signature.csv,
// so that any change in search behaviour shows up as a failing test. When a
// change is meant, regenerate the reference (one process, so that the rows
// are rewritten one after another):
//   XQLAB_UPDATE_BENCH_SIGNATURE=1 build/tests/test_search --gtest_filter='BenchSignature*'
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "parallel/backend.h"
#include "tests/board/csv.h"

namespace xq {
namespace {

const std::string& reference_path() {
  static const std::string path = std::string(XQLAB_TEST_DATA_DIR) + "/bench_signature.csv";
  return path;
}

// The start position and every FEN of the opening suite.
std::vector<Position> bench_positions() {
  std::vector<Position> out(1);
  for (const test::CsvRecord& rec : test::read_csv(test::openings_csv_path())) {
    Position p;
    EXPECT_EQ(p.set_fen(rec.at("fen")), "") << rec.at("fen");
    out.push_back(p);
  }
  return out;
}

struct Bench {
  std::uint64_t signature = 0;
  std::vector<Move> moves;
  std::vector<Value> scores;
};

Bench run_bench(const SearchOptions& opt, bool fresh_backend_each_time) {
  Bench b;
  auto backend = make_backend("serial", BackendConfig{});
  for (const Position& pos : bench_positions()) {
    if (fresh_backend_each_time) backend = make_backend("serial", BackendConfig{});
    else backend->clear();
    Observer quiet;
    const SearchResult r = backend->search(pos, opt, quiet);
    EXPECT_FALSE(r.stopped);
    b.signature += r.stats.nodes;
    b.moves.push_back(r.best_move);
    b.scores.push_back(r.score);
  }
  return b;
}

struct Reference {
  std::string algorithm;
  int depth = 0;
  std::size_t positions = 0;
  std::uint64_t nodes = 0;
};

std::vector<Reference> read_reference() {
  std::vector<Reference> out;
  for (const test::CsvRecord& rec : test::read_csv(reference_path()))
    out.push_back({rec.at("algorithm"), std::stoi(rec.at("depth")),
                   std::stoul(rec.at("positions")), std::stoull(rec.at("nodes"))});
  return out;
}

// Replaces (or adds) the row of `now` in the reference file.
void update_reference(const Reference& now) {
  std::vector<Reference> rows = read_reference();
  bool found = false;
  for (Reference& r : rows) {
    if (r.algorithm == now.algorithm && r.depth == now.depth) {
      r = now;
      found = true;
    }
  }
  if (!found) rows.push_back(now);
  std::ofstream file(reference_path(), std::ios::trunc);
  file << "algorithm,depth,positions,nodes\n";
  for (const Reference& r : rows)
    file << r.algorithm << ',' << r.depth << ',' << r.positions << ',' << r.nodes << '\n';
  ASSERT_TRUE(file.good()) << "could not write " << reference_path();
}

void expect_matches_reference(const Reference& now) {
  const char* update = std::getenv("XQLAB_UPDATE_BENCH_SIGNATURE");
  if (update && *update && std::string(update) != "0") {
    update_reference(now);
    std::printf("bench signature (%s, depth %d) written to %s\n", now.algorithm.c_str(),
                now.depth, reference_path().c_str());
    return;
  }
  int matches = 0;
  for (const Reference& ref : read_reference()) {
    if (ref.algorithm != now.algorithm || ref.depth != now.depth) continue;
    ++matches;
    EXPECT_EQ(now.positions, ref.positions) << "the bench position set changed";
    EXPECT_EQ(now.nodes, ref.nodes)
        << "bench signature of " << now.algorithm << " at depth " << now.depth << " changed. "
        << "If the search change is intended, regenerate " << reference_path() << " with\n"
        << "  XQLAB_UPDATE_BENCH_SIGNATURE=1 build/tests/test_search "
           "--gtest_filter='BenchSignature*'\nand commit it with the change.";
  }
  EXPECT_EQ(matches, 1) << reference_path() << " needs exactly one row for " << now.algorithm
                        << " at depth " << now.depth;
}

void expect_deterministic(Algorithm a, Depth depth) {
  SearchOptions opt;
  opt.algorithm = a;
  opt.limits.depth = depth;
  const Bench first = run_bench(opt, false);
  const Bench second = run_bench(opt, false);
  const Bench fresh = run_bench(opt, true);
  std::printf("bench signature (%s, depth %d, %zu positions): %llu nodes\n", algorithm_name(a),
              depth, first.moves.size(), static_cast<unsigned long long>(first.signature));
  EXPECT_GE(first.moves.size(), 1 + test::kOpeningRecords);
  EXPECT_EQ(first.signature, second.signature);
  EXPECT_EQ(first.signature, fresh.signature);
  EXPECT_EQ(first.moves, second.moves);
  EXPECT_EQ(first.moves, fresh.moves);
  EXPECT_EQ(first.scores, second.scores);
  EXPECT_EQ(first.scores, fresh.scores);
  expect_matches_reference({algorithm_name(a), depth, first.moves.size(), first.signature});
}

TEST(BenchSignature, PvsDepth5) { expect_deterministic(Algorithm::Pvs, 5); }
TEST(BenchSignature, AlphaBetaDepth4) { expect_deterministic(Algorithm::AlphaBeta, 4); }
TEST(BenchSignature, MtdfDepth4) { expect_deterministic(Algorithm::Mtdf, 4); }
TEST(BenchSignatureSlow, PvsDepth7) { expect_deterministic(Algorithm::Pvs, 7); }
TEST(BenchSignatureSlow, MtdfDepth6) { expect_deterministic(Algorithm::Mtdf, 6); }

// Every row of the reference is exercised by one of the tests above (a stale
// row would otherwise never be compared).
TEST(BenchSignature, ReferenceHasOneRowPerTest) {
  const std::vector<Reference> rows = read_reference();
  EXPECT_EQ(rows.size(), 5u) << reference_path();
  for (const Reference& r : rows) {
    EXPECT_GT(r.nodes, 0u) << r.algorithm << " " << r.depth;
    EXPECT_GE(r.positions, 1 + test::kOpeningRecords) << r.algorithm << " " << r.depth;
  }
}

}  // namespace
}  // namespace xq
