// Evaluation terms after the seed thesis (ch. 5.4): material, piece-square
// tables and mobility per piece type. The thesis's own figures were not
// available to us; the values below are this project's defaults (EvalParams,
// eval.h; each a tunable parameter), chosen by the usual Xiangqi reasoning and
// recorded in docs/DESIGN-NOTES.md:
//  * material: rook 600, cannon 285, horse 270, advisor 120, elephant 120,
//    pawn 30 (a pawn gains most of its worth from the piece-square table once
//    it crosses the river);
//  * horse: weak on the edge and the back rank, strongest on the squares that
//    attack the enemy palace;
//  * pawn: nothing at home, a jump on crossing the river, most near the
//    enemy palace, less on the last rank where it can only move sideways;
//  * rook: small bonuses for the enemy half and for the ribs (d/f files);
//  * cannon: central and back-rank (palace-facing) positions;
//  * king, advisor, elephant: small bonuses for their defensive home squares.
#include "board/eval.h"

#include <array>

#include "board/tables.h"

namespace xq {
namespace {

using Table = std::array<std::array<int, kFiles>, kRanks>;

// Tables are written as seen by red with rank 9 (the enemy back rank) on the
// first line; lookups flip them for black.
constexpr Table kHorse = {{
    {4, 8, 16, 12, 4, 12, 16, 8, 4},
    {4, 10, 28, 16, 8, 16, 28, 10, 4},
    {12, 14, 16, 20, 18, 20, 16, 14, 12},
    {8, 24, 18, 24, 20, 24, 18, 24, 8},
    {6, 16, 14, 18, 16, 18, 14, 16, 6},
    {4, 12, 16, 14, 12, 14, 16, 12, 4},
    {2, 6, 8, 6, 10, 6, 8, 6, 2},
    {4, 2, 8, 8, 4, 8, 8, 2, 4},
    {0, 2, 4, 4, -2, 4, 4, 2, 0},
    {0, -4, 0, 0, 0, 0, 0, -4, 0},
}};

constexpr Table kPawn = {{
    {0, 3, 6, 9, 12, 9, 6, 3, 0},
    {18, 36, 56, 80, 120, 80, 56, 36, 18},
    {14, 26, 42, 60, 80, 60, 42, 26, 14},
    {10, 20, 30, 34, 40, 34, 30, 20, 10},
    {6, 12, 18, 18, 20, 18, 18, 12, 6},
    {2, 0, 8, 0, 8, 0, 8, 0, 2},
    {0, 0, -2, 0, 4, 0, -2, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
}};

constexpr Table kRook = {{
    {14, 14, 12, 18, 16, 18, 12, 14, 14},
    {16, 20, 18, 24, 26, 24, 18, 20, 16},
    {12, 12, 12, 18, 18, 18, 12, 12, 12},
    {12, 18, 16, 22, 22, 22, 16, 18, 12},
    {12, 14, 12, 18, 18, 18, 12, 14, 12},
    {12, 16, 14, 20, 20, 20, 14, 16, 12},
    {6, 10, 8, 14, 14, 14, 8, 10, 6},
    {4, 8, 6, 14, 12, 14, 6, 8, 4},
    {8, 4, 8, 16, 8, 16, 8, 4, 8},
    {-2, 10, 6, 14, 12, 14, 6, 10, -2},
}};

constexpr Table kCannon = {{
    {6, 4, 0, -10, -12, -10, 0, 4, 6},
    {2, 2, 0, -4, -14, -4, 0, 2, 2},
    {2, 2, 0, -10, -8, -10, 0, 2, 2},
    {0, 0, -2, 4, 10, 4, -2, 0, 0},
    {0, 0, 0, 2, 8, 2, 0, 0, 0},
    {-2, 0, 4, 2, 6, 2, 4, 0, -2},
    {0, 0, 0, 2, 4, 2, 0, 0, 0},
    {4, 0, 8, 6, 10, 6, 8, 0, 4},
    {0, 2, 4, 6, 6, 6, 4, 2, 0},
    {0, 0, 2, 6, 6, 6, 2, 0, 0},
}};

constexpr Table kHome = {{  // king, advisor and elephant: defensive squares
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, -2, 0, 0, 0, -2, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {-2, 0, 0, -8, 6, -8, 0, 0, -2},
    {0, 0, 0, -6, 4, -6, 0, 0, 0},
    {0, 0, 2, 2, 6, 2, 2, 0, 0},
}};

constexpr std::array<const Table*, kPieceTypes> kTablesByType = {
    nullptr, &kHome, &kHome, &kHome, &kHorse, &kRook, &kCannon, &kPawn};

struct PsqTable {
  std::array<std::array<Value, kSquares>, kPieceCodes> v{};
};

constexpr PsqTable build_psq(const EvalParams& e) {
  PsqTable t;
  for (int c = 0; c < kColors; ++c)
    for (int pt = 1; pt < kPieceTypes; ++pt)
      for (int s = 0; s < kSquares; ++s) {
        const int rank = rank_of(Square(s)), file = file_of(Square(s));
        const int rel_rank = c == 0 ? rank : 9 - rank;  // rank from own side
        const int row = 9 - rel_rank;                   // row in the tables above
        const int col = c == 0 ? file : 8 - file;
        t.v[index(make_piece(Color(c), PieceType(pt)))][s] =
            e.piece[pt] + (*kTablesByType[pt])[row][col] * e.psq_percent[pt] / 100;
      }
  return t;
}

// Built at compile time for the defaults; set_eval_params() rebuilds it.
constinit EvalParams g_params{};
constinit PsqTable g_psq = build_psq(EvalParams{});
// The modern profile's (set_knowledge_params()).
constinit KnowledgeParams g_knowledge{};
constinit PsqTable g_knowledge_psq = build_psq(KnowledgeParams{}.base);

int horse_mobility(const Position& pos, Square s) {
  int n = 0;
  for (const tables::Step& st : tables::kTables.horse[index(s)])
    n += pos.piece_on(st.block) == Piece::None;
  return n;
}

// Squares a rook (or a cannon's non-capturing moves) can slide to.
int slide_mobility(const Position& pos, Square s) {
  int n = 0;
  for (const tables::Ray& ray : tables::kTables.rays[index(s)])
    for (const Square* sq = ray.squares.data(); *sq != Square::None; ++sq) {
      ++n;
      if (pos.piece_on(*sq) != Piece::None) break;
    }
  return n;
}

}  // namespace

const EvalParams& eval_params() { return g_params; }

void set_eval_params(const EvalParams& params) {
  g_params = params;
  g_params.piece[index(PieceType::King)] = 0;  // never traded
  g_psq = build_psq(g_params);
}

const KnowledgeParams& knowledge_params() { return g_knowledge; }

void set_knowledge_params(const KnowledgeParams& params) {
  g_knowledge = params;
  g_knowledge.base.piece[index(PieceType::King)] = 0;
  g_knowledge_psq = build_psq(g_knowledge.base);
}

Value piece_value(PieceType t) { return g_params.piece[index(t)]; }

Value psq_value(Piece p, Square s) { return g_psq.v[index(p)][index(s)]; }

Value mobility_red(const Position& pos) {
  const EvalParams& e = g_params;
  Value total = 0;
  for (Color c : {Color::Red, Color::Black}) {
    Value v = 0;
    const Square* list = pos.pieces(c);
    for (int i = 0; i < pos.piece_count(c); ++i) {
      const Square s = list[i];
      switch (type_of(pos.piece_on(s))) {
        case PieceType::Horse: v += e.horse_mobility * horse_mobility(pos, s); break;
        case PieceType::Rook: v += e.rook_mobility * slide_mobility(pos, s); break;
        case PieceType::Cannon: v += e.cannon_mobility * slide_mobility(pos, s); break;
        default: break;
      }
    }
    total += c == Color::Red ? v : -v;
  }
  return total;
}

namespace {

// Pieces strictly between a and b, which share a file or a rank.
int pieces_between(const Position& pos, Square a, Square b) {
  const int fa = file_of(a), ra = rank_of(a), fb = file_of(b), rb = rank_of(b);
  const int df = (fb > fa) - (fb < fa), dr = (rb > ra) - (rb < ra);
  int n = 0;
  for (int f = fa + df, r = ra + dr; f != fb || r != rb; f += df, r += dr)
    n += pos.piece_on(make_square(f, r)) != Piece::None;
  return n;
}

// What colour c's pieces add against the other side, and c's phase terms;
// with `full`, also their material, squares and mobility under the modern
// weights (one walk of the piece list for the whole modern evaluation).
template <bool full>
Value knowledge_of(const Position& pos, Color c, int on_board) {
  const KnowledgeParams& e = g_knowledge;
  const Color them = ~c;
  const Square king = pos.king_square(them);
  Value v = 0;
  int attack = 0;
  const Square* list = pos.pieces(c);
  for (int i = 0; i < pos.piece_count(c); ++i) {
    const Square s = list[i];
    const Piece p = pos.piece_on(s);
    const bool across = !own_side(c, s);
    if constexpr (full) v += g_knowledge_psq.v[index(p)][index(s)];
    switch (type_of(p)) {
      case PieceType::Rook:
        attack += 3;
        if constexpr (full) v += e.base.rook_mobility * slide_mobility(pos, s);
        break;
      case PieceType::Horse:
        attack += across ? 2 : 1;
        v -= e.cannon_phase * (on_board - 20) / 2;
        if constexpr (full) v += e.base.horse_mobility * horse_mobility(pos, s);
        break;
      case PieceType::Cannon:
        attack += across ? 2 : 1;
        v += e.cannon_phase * (on_board - 20);
        if constexpr (full) v += e.base.cannon_mobility * slide_mobility(pos, s);
        if (file_of(s) == file_of(king) || rank_of(s) == rank_of(king)) {
          const int between = pieces_between(pos, s, king);
          if (between == 0) v += e.hollow_cannon;
          else if (between == 2) v += e.pressing_cannon;
        }
        break;
      case PieceType::Pawn: attack += across; break;
      default: break;
    }
  }
  if (attack > 12) attack = 12;
  const int missing = 2 * (2 - pos.count(them, PieceType::Advisor)) +
                      (2 - pos.count(them, PieceType::Elephant));
  return v + e.palace_attack * attack * missing / 2;
}

template <bool full>
Value knowledge_red_of(const Position& pos) {
  const int on_board = pos.piece_count(Color::Red) + pos.piece_count(Color::Black);
  return knowledge_of<full>(pos, Color::Red, on_board) -
         knowledge_of<full>(pos, Color::Black, on_board);
}

}  // namespace

Value knowledge_red(const Position& pos) { return knowledge_red_of<false>(pos); }

Value evaluate(const Position& pos) {
  const Value red = pos.psq_red() + mobility_red(pos);
  return pos.side_to_move() == Color::Red ? red : -red;
}

Value evaluate_modern(const Position& pos) {
  const Value red = knowledge_red_of<true>(pos);
  return (pos.side_to_move() == Color::Red ? red : -red) + g_knowledge.tempo;
}

}  // namespace xq
