// Board micro-benchmarks: move generation (captures, quiets, legal),
// make/unmake, static evaluation and perft from the start position.
// Positions: 0 start, 1 a middlegame (forum perft position), 2 a tactical
// middlegame with many captures, 3 a sparse endgame.
#include <benchmark/benchmark.h>

#include <array>
#include <string_view>

#include "board/eval.h"
#include "board/movegen.h"
#include "board/position.h"

namespace {

constexpr std::array<std::string_view, 4> kFens = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
};

xq::Position position_arg(benchmark::State& state) {
  xq::Position pos;
  if (pos.set_fen(kFens[std::size_t(state.range(0))]) != "") state.SkipWithError("bad FEN");
  return pos;
}

template <xq::GenType T>
void BM_Generate(benchmark::State& state) {
  const xq::Position pos = position_arg(state);
  xq::Move moves[xq::kMaxMoves];
  std::int64_t n = 0;
  for (auto _ : state) {
    xq::Move* end = xq::generate<T>(pos, moves);
    benchmark::DoNotOptimize(end);
    benchmark::ClobberMemory();
    n += end - moves;
  }
  state.SetItemsProcessed(n);  // moves generated
}
BENCHMARK_TEMPLATE(BM_Generate, xq::GenType::Captures)->DenseRange(0, 3);
BENCHMARK_TEMPLATE(BM_Generate, xq::GenType::Quiets)->DenseRange(0, 3);
BENCHMARK_TEMPLATE(BM_Generate, xq::GenType::All)->DenseRange(0, 3);

void BM_GenerateLegal(benchmark::State& state) {
  const xq::Position pos = position_arg(state);
  xq::Move moves[xq::kMaxMoves];
  std::int64_t n = 0;
  for (auto _ : state) {
    xq::Move* end = xq::generate_legal(pos, moves);
    benchmark::DoNotOptimize(end);
    benchmark::ClobberMemory();
    n += end - moves;
  }
  state.SetItemsProcessed(n);
}
BENCHMARK(BM_GenerateLegal)->DenseRange(0, 3);

// One do_move + undo_move pair per legal move of the position.
void BM_MakeUnmake(benchmark::State& state) {
  xq::Position pos = position_arg(state);
  const xq::MoveList list(pos);
  for (auto _ : state) {
    for (xq::Move m : list) {
      pos.do_move(m);
      benchmark::DoNotOptimize(pos.key());
      pos.undo_move(m);
    }
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * list.size);
}
BENCHMARK(BM_MakeUnmake)->DenseRange(0, 3);

// is_pseudo_legal + is_legal on every generated move: the cost of validating
// a move taken from the transposition table.
void BM_ValidateMove(benchmark::State& state) {
  const xq::Position pos = position_arg(state);
  xq::Move moves[xq::kMaxMoves];
  const xq::Move* end = xq::generate<xq::GenType::All>(pos, moves);
  for (auto _ : state) {
    int ok = 0;
    for (const xq::Move* m = moves; m != end; ++m) ok += pos.is_pseudo_legal(*m) && pos.is_legal(*m);
    benchmark::DoNotOptimize(ok);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * (end - moves));
}
BENCHMARK(BM_ValidateMove)->DenseRange(0, 3);

void BM_Evaluate(benchmark::State& state) {
  const xq::Position pos = position_arg(state);
  for (auto _ : state) benchmark::DoNotOptimize(xq::evaluate(pos));
  state.SetItemsProcessed(std::int64_t(state.iterations()));
}
BENCHMARK(BM_Evaluate)->DenseRange(0, 3);

void BM_InCheckAfterMove(benchmark::State& state) {
  xq::Position pos = position_arg(state);
  const xq::MoveList list(pos);
  for (auto _ : state) {
    int checks = 0;
    for (xq::Move m : list) {
      pos.do_move(m);
      checks += pos.in_check();
      pos.undo_move(m);
    }
    benchmark::DoNotOptimize(checks);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * list.size);
}
BENCHMARK(BM_InCheckAfterMove)->Arg(0)->Arg(2);

// A split or join copies a position. A middlegame position reached by
// `tail` reversible plies (knight shuttles) after the FEN, the state a
// helper copies at a split point that many plies after the last capture.
xq::Position position_with_tail(int tail) {
  xq::Position pos;
  if (pos.set_fen(kFens[1]) != "") return pos;
  const char* shuttle[] = {"b0b1", "i9h9", "b1b0", "h9i9"};
  for (int i = 0; i < tail; ++i) {
    const xq::Move m = pos.parse_move(shuttle[i % 4]);
    if (!m) break;  // reversible_plies() then falls short: the benchmark says so
    pos.do_move(m);
  }
  return pos;
}

// The plain copy: board and the whole kMaxHistory state array (~16 KiB).
void BM_PositionCopyFull(benchmark::State& state) {
  const xq::Position src = position_with_tail(int(state.range(0)));
  if (src.reversible_plies() != state.range(0)) state.SkipWithError("tail not reached");
  xq::Position dst;
  for (auto _ : state) {
    dst = src;
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()));
}
BENCHMARK(BM_PositionCopyFull)->Arg(0)->Arg(8)->Arg(40)->Arg(200);

// Position::copy_from: the board and the states since the last capture.
void BM_PositionCopyCheap(benchmark::State& state) {
  const xq::Position src = position_with_tail(int(state.range(0)));
  if (src.reversible_plies() != state.range(0)) state.SkipWithError("tail not reached");
  xq::Position dst;
  for (auto _ : state) {
    dst.copy_from(src);
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()));
}
BENCHMARK(BM_PositionCopyCheap)->Arg(0)->Arg(8)->Arg(40)->Arg(200);

// Perft from the start position; items = leaf nodes counted.
void BM_PerftStart(benchmark::State& state) {
  xq::Position pos;
  const int depth = int(state.range(0));
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes += xq::perft(pos, depth);
  state.SetItemsProcessed(std::int64_t(nodes));
}
BENCHMARK(BM_PerftStart)->Arg(3)->Arg(4)->Unit(benchmark::kMillisecond);

}  // namespace
