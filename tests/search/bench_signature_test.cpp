// Single-threaded determinism: the "bench signature" (Stockfish's idea) is the
// total node count of fixed-depth searches over a fixed set of positions. Two
// runs must give the same signature, the same best moves and the same scores,
// whether one backend is reused (clear() between positions) or a fresh one is
// built each time. The signature is printed so a change in search behaviour
// shows up as a changed number.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "parallel/backend.h"

namespace xq {
namespace {

// The start position and the FEN column (the last) of the opening suite.
std::vector<Position> bench_positions() {
  std::vector<Position> out(1);
  std::ifstream in(std::string(XQLAB_DATA_DIR) + "/openings.csv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    Position p;
    if (line.empty()) continue;
    const std::string fen = line.substr(line.rfind(',') + 1);
    EXPECT_EQ(p.set_fen(fen), "") << fen;
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

void expect_deterministic(Algorithm a, Depth depth) {
  SearchOptions opt;
  opt.algorithm = a;
  opt.limits.depth = depth;
  const Bench first = run_bench(opt, false);
  const Bench second = run_bench(opt, false);
  const Bench fresh = run_bench(opt, true);
  std::printf("bench signature (%s, depth %d, %zu positions): %llu nodes\n", algorithm_name(a),
              depth, first.moves.size(), static_cast<unsigned long long>(first.signature));
  EXPECT_GT(first.moves.size(), 10u);
  EXPECT_EQ(first.signature, second.signature);
  EXPECT_EQ(first.signature, fresh.signature);
  EXPECT_EQ(first.moves, second.moves);
  EXPECT_EQ(first.moves, fresh.moves);
  EXPECT_EQ(first.scores, second.scores);
  EXPECT_EQ(first.scores, fresh.scores);
}

TEST(BenchSignature, PvsDepth5) { expect_deterministic(Algorithm::Pvs, 5); }
TEST(BenchSignature, AlphaBetaDepth4) { expect_deterministic(Algorithm::AlphaBeta, 4); }
TEST(BenchSignature, MtdfDepth4) { expect_deterministic(Algorithm::Mtdf, 4); }
TEST(BenchSignatureSlow, PvsDepth7) { expect_deterministic(Algorithm::Pvs, 7); }
TEST(BenchSignatureSlow, MtdfDepth6) { expect_deterministic(Algorithm::Mtdf, 6); }

}  // namespace
}  // namespace xq
