// Move validation for moves of unknown origin (a transposition-table entry can
// hold any 16 bits): is_pseudo_legal() accepts exactly the moves the generator
// produces, captures + quiets is the whole list, and the legal list is the
// pseudo-legal list filtered by is_legal().
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"
#include "csv.h"

namespace xq::test {
namespace {

template <GenType T>
std::vector<std::uint16_t> generated(const Position& pos) {
  Move moves[kMaxMoves];
  const Move* end = generate<T>(pos, moves);
  std::vector<std::uint16_t> out;
  for (const Move* m = moves; m != end; ++m) out.push_back(m->raw());
  std::sort(out.begin(), out.end());
  return out;
}

// Start, reference positions and positions along a few random games.
std::vector<std::string> sample_fens() {
  std::vector<std::string> fens = {std::string(kStartFen)};
  for (const std::string& f : perft_fens()) fens.push_back(f);
  EXPECT_GE(fens.size(), 1 + kPerftFens);
  std::mt19937 rng(7);
  for (int game = 0; game < 20; ++game) {
    Position pos;
    for (int ply = 0; ply < 120; ++ply) {
      const MoveList legal(pos);
      if (legal.size == 0) break;
      pos.do_move(legal.moves[rng() % unsigned(legal.size)]);
      if (ply % 10 == 9) fens.push_back(pos.fen());
    }
  }
  return fens;
}

TEST(PseudoLegal, AgreesWithGeneratorOnEverySixteenBitValue) {
  for (const std::string& fen : sample_fens()) {
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    const std::vector<std::uint16_t> all = generated<GenType::All>(pos);
    EXPECT_TRUE(std::adjacent_find(all.begin(), all.end()) == all.end()) << fen << ": duplicate move";
    int accepted = 0;
    for (std::uint32_t raw = 0; raw <= 0xFFFF; ++raw) {
      const Move m = Move::from_raw(std::uint16_t(raw));
      const bool listed = std::binary_search(all.begin(), all.end(), std::uint16_t(raw));
      const bool ok = pos.is_pseudo_legal(m);
      accepted += ok;
      if (ok != listed) {
        ADD_FAILURE() << fen << ": raw " << raw << " (" << move_name(m) << ") is_pseudo_legal "
                      << ok << " but generated " << listed;
        return;
      }
    }
    EXPECT_EQ(accepted, int(all.size())) << fen;
  }
}

TEST(PseudoLegal, CapturesPlusQuietsIsAll) {
  for (const std::string& fen : sample_fens()) {
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    const std::vector<std::uint16_t> captures = generated<GenType::Captures>(pos);
    const std::vector<std::uint16_t> quiets = generated<GenType::Quiets>(pos);
    std::vector<std::uint16_t> both = captures;
    both.insert(both.end(), quiets.begin(), quiets.end());
    std::sort(both.begin(), both.end());
    EXPECT_EQ(both, generated<GenType::All>(pos)) << fen;
    for (std::uint16_t raw : captures) EXPECT_TRUE(pos.is_capture(Move::from_raw(raw))) << fen;
    for (std::uint16_t raw : quiets) EXPECT_FALSE(pos.is_capture(Move::from_raw(raw))) << fen;
  }
}

TEST(PseudoLegal, LegalListIsThePseudoLegalListFiltered) {
  for (const std::string& fen : sample_fens()) {
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    std::vector<std::uint16_t> filtered;
    for (std::uint16_t raw : generated<GenType::All>(pos))
      if (pos.is_legal(Move::from_raw(raw))) filtered.push_back(raw);
    std::vector<std::uint16_t> legal;
    for (Move m : MoveList(pos)) legal.push_back(m.raw());
    std::sort(legal.begin(), legal.end());
    EXPECT_EQ(legal, filtered) << fen;
    for (std::uint16_t raw : legal)
      EXPECT_EQ(pos.parse_move(move_name(Move::from_raw(raw))), Move::from_raw(raw)) << fen;
  }
}

TEST(PseudoLegal, MoveBitsRoundTrip) {
  for (int from = 0; from < kSquares; ++from)
    for (int to = 0; to < kSquares; ++to) {
      const Move m{Square(from), Square(to)};
      EXPECT_EQ(index(m.from()), from);
      EXPECT_EQ(index(m.to()), to);
      EXPECT_EQ(m.is_ok(), from != to);
      EXPECT_EQ(m.raw() >> 14, 0);
    }
  EXPECT_FALSE(Move::none().is_ok());
  EXPECT_EQ(move_name(Move::none()), "0000");
}

}  // namespace
}  // namespace xq::test
