// The evaluation's Xiangqi knowledge (board/eval.h knowledge_red, the
// `knowledge` feature of the modern profile): symmetric under a colour flip
// and a file mirror, absent from the thesis's evaluation, and each term
// worth what its weight says in a position built to isolate it.
#include <gtest/gtest.h>

#include <string>

#include "board/eval.h"
#include "board/position.h"
#include "tests/board/board_util.h"
#include "tests/board/csv.h"

namespace xq::test {
namespace {

Value knowledge_of_fen(const std::string& fen) {
  Position pos;
  EXPECT_EQ(pos.set_fen(fen), "") << fen;
  return knowledge_red(pos);
}

TEST(EvalKnowledge, ColourFlipAndFileMirrorAreSymmetric) {
  ASSERT_GE(perft_fens().size(), kPerftFens);
  int checked = 0;
  for (const std::string& fen : perft_fens()) {
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    for (const auto& [flip, mirror] : {std::pair{true, false}, {false, true}, {true, true}}) {
      Position image;
      const std::string other = transform_fen(fen, flip, mirror);
      ASSERT_EQ(image.set_fen(other), "") << other;
      EXPECT_EQ(knowledge_red(image), flip ? -knowledge_red(pos) : knowledge_red(pos)) << fen;
      EXPECT_EQ(evaluate(image, true), evaluate(pos, true)) << fen << " / " << other;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3 * int(perft_fens().size()));
}

// With the thesis's weights and no knowledge terms, the modern evaluation
// (summed from the pieces at every call) is the thesis's (kept by Position).
TEST(EvalKnowledge, WithTheThesisWeightsAndNoTermsTheModernEvaluationIsTheThesis) {
  struct Restore {
    ~Restore() { set_knowledge_params(KnowledgeParams{}); }
  } restore;
  ASSERT_GE(perft_fens().size(), kPerftFens);
  KnowledgeParams plain;
  plain.base = eval_params();
  plain.palace_attack = plain.hollow_cannon = plain.pressing_cannon = plain.cannon_phase = 0;
  plain.tempo = 0;
  int checked = 0, differs = 0;
  for (const std::string& fen : perft_fens()) {
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), "");
    EXPECT_EQ(evaluate(pos, false), evaluate(pos)) << fen;
    differs += evaluate(pos, true) != evaluate(pos);
    set_knowledge_params(plain);
    EXPECT_EQ(evaluate(pos, true), evaluate(pos)) << fen;
    EXPECT_EQ(knowledge_red(pos), 0) << fen;
    set_knowledge_params(KnowledgeParams{});
    ++checked;
  }
  EXPECT_EQ(checked, int(perft_fens().size()));
  EXPECT_GT(differs, 0);  // the modern defaults are not the thesis's
}

// Red: king d0, cannon on c4 or e4 (its own half: one attack unit either
// way); black: king e9, nothing else but what the case adds.
TEST(EvalKnowledge, ACannonFacingTheKingHollowOrWithTwoScreens) {
  const KnowledgeParams& e = knowledge_params();
  // Hollow: nothing between e4 and e9.
  EXPECT_EQ(knowledge_of_fen("4k4/9/9/9/9/4C4/9/9/9/3K5 w - - 0 1") -
                knowledge_of_fen("4k4/9/9/9/9/2C6/9/9/9/3K5 w - - 0 1"),
            e.hollow_cannon);
  // Two screens (a black horse e7 and pawn e6: the same in both positions).
  EXPECT_EQ(knowledge_of_fen("4k4/9/4n4/4p4/9/4C4/9/9/9/3K5 w - - 0 1") -
                knowledge_of_fen("4k4/9/4n4/4p4/9/2C6/9/9/9/3K5 w - - 0 1"),
            e.pressing_cannon);
  // Three screens: no bonus (one would be check).
  EXPECT_EQ(knowledge_of_fen("4k4/4a4/4n4/4p4/9/4C4/9/9/9/3K5 w - - 0 1") -
                knowledge_of_fen("4k4/4a4/4n4/4p4/9/2C6/9/9/9/3K5 w - - 0 1"),
            0);
  // On the king's rank too (a bottom cannon): a9, nothing between.
  EXPECT_EQ(knowledge_of_fen("C3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1") -
                knowledge_of_fen("4k4/C8/9/9/9/9/9/9/9/3K5 w - - 0 1"),
            e.hollow_cannon);  // both across the river: two attack units each
}

TEST(EvalKnowledge, AMissingDefenderCostsPerEnemyAttackUnit) {
  const KnowledgeParams& e = knowledge_params();
  // Red's rook (3 units) against black's full palace, then less an advisor
  // (counts double), then less an elephant too.
  const Value full = knowledge_of_fen("2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
  const Value no_advisor = knowledge_of_fen("2bak1b2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
  const Value neither = knowledge_of_fen("2bak4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
  EXPECT_EQ(full, 0);
  EXPECT_EQ(no_advisor - full, e.palace_attack * 3 * 2 / 2);
  EXPECT_EQ(neither - full, e.palace_attack * 3 * 3 / 2);
  // Without red attackers the palace's guards are worth nothing here.
  EXPECT_EQ(knowledge_of_fen("2bak4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), 0);
}

}  // namespace
}  // namespace xq::test
