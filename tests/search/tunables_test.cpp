// The tunable parameters (search/tunables.h): names, ranges and defaults;
// setting by name with one-line errors; parameters files that read back
// exactly; and the evaluation's weights (board/eval.h) reaching evaluate()
// and the Position's incremental sums.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "board/eval.h"
#include "board/position.h"
#include "search/tunables.h"

namespace xq {
namespace {

// Puts the default weights back whatever a test did.
struct DefaultEvalAfter {
  ~DefaultEvalAfter() { set_eval_params(EvalParams{}); }
};

TEST(Tunables, NamesAreUniqueAndDefaultsInsideTheirRanges) {
  std::set<std::string_view> names;
  int eval = 0, knowledge = 0, search = 0;
  for (const TunableParam& p : tunable_params()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name << " twice";
    EXPECT_LE(p.min, p.default_value()) << p.name;
    EXPECT_GE(p.max, p.default_value()) << p.name;
    EXPECT_LT(p.min, p.max) << p.name;
    EXPECT_FALSE(p.help.empty()) << p.name;
    EXPECT_EQ(find_tunable(p.name), &p);
    (p.group == "eval" ? eval : p.group == "knowledge" ? knowledge : search) += 1;
    EXPECT_TRUE(p.group == "eval" || p.group == "knowledge" || p.group == "search") << p.name;
    EXPECT_EQ(p.sets_eval(), p.group != "search") << p.name;
  }
  // Six piece values, seven square-table scales, three mobility weights;
  // the modern profile's sixteen of its own and five knowledge weights;
  // every field of SearchTuning.
  EXPECT_EQ(eval, 16);
  EXPECT_EQ(knowledge, 21);
  EXPECT_EQ(search, int(sizeof(SearchTuning) / sizeof(int)));
  EXPECT_EQ(find_tunable("value_king"), nullptr);  // the king is never traded
}

TEST(Tunables, EachNameReachesItsOwnFieldOnly) {
  int checked = 0;
  for (const TunableParam& p : tunable_params()) {
    Tunables t;
    const int v = p.default_value() == p.max ? p.min : p.default_value() + 1;
    set_tunable(t, p.name, std::to_string(v));
    EXPECT_EQ(p.get(t), v) << p.name;
    for (const TunableParam& q : tunable_params())
      if (&q != &p) EXPECT_EQ(q.get(t), q.default_value()) << p.name << " changed " << q.name;
    EXPECT_EQ(tunables_diff(t), std::string(p.name) + "=" + std::to_string(v));
    ++checked;
  }
  EXPECT_EQ(checked, int(tunable_params().size()));
}

TEST(Tunables, BadValuesAreOneLineErrorsThatChangeNothing) {
  int checked = 0;
  for (const auto& [name, value, says] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"value_rookk", "600", "unknown tunable parameter 'value_rookk'"},
           {"value_rook", "six", "is not an integer"},
           {"value_rook", "600x", "is not an integer"},
           {"value_rook", "", "is not an integer"},
           {"value_rook", "199", "outside 200..1500"},
           {"null_depth_div", "0", "outside 1..12"},
           {"lmr_history", "99999999999", "is not an integer"}}) {
    Tunables t;
    try {
      set_tunable(t, name, value);
      ADD_FAILURE() << name << "=" << value << " was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(says), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    EXPECT_EQ(t, Tunables{}) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 7);
}

TEST(Tunables, FilesReadBackExactly) {
  std::mt19937 rng(29);
  int checked = 0;
  for (int round = 0; round < 50; ++round) {
    Tunables t;
    for (const TunableParam& p : tunable_params())
      p.ref(t) = std::uniform_int_distribution<int>(p.min, p.max)(rng);
    EXPECT_EQ(parse_tunables(format_tunables(t)), t);
    ++checked;
  }
  EXPECT_EQ(checked, 50);
  // Comments, blank lines, '=' and CRLF are read; what is not named keeps
  // its default (or the base's value).
  const Tunables t = parse_tunables("# tuned\r\n\nvalue_rook 650\r\nlmr_base=60  # note\n");
  EXPECT_EQ(t.eval.piece[index(PieceType::Rook)], 650);
  EXPECT_EQ(t.search.lmr_base, 60);
  EXPECT_EQ(tunables_diff(t), "value_rook=650,lmr_base=60");
}

TEST(Tunables, FileErrorsNameTheLine) {
  int checked = 0;
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"value_rook 650\nvalue_rook 640\n", "line 2: value_rook is named twice"},
           {"\n\nvalue_pawn\n", "line 3: 'value_pawn' has no value"},
           {"value_pawn 30\nbogus 1\n", "line 2: unknown tunable parameter 'bogus'"},
           {"value_pawn 3\n", "line 1: tunable value_pawn: 3 is outside 10..150"}}) {
    try {
      parse_tunables(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    ++checked;
  }
  EXPECT_EQ(checked, 4);
  EXPECT_THROW(load_tunables("/nonexistent/tuned.txt"), std::invalid_argument);
}

TEST(EvalParams, WeightsReachEvaluateAndTheIncrementalSums) {
  const DefaultEvalAfter restore;
  // Red has a rook more; black to move sees it from the other side.
  Position p;
  ASSERT_EQ(p.set_fen("rnbakab2/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"), "");
  const Value before = evaluate(p);
  const Value red_material = p.material(Color::Red);
  EvalParams e;
  e.piece[index(PieceType::Rook)] += 100;
  e.rook_mobility = 0;
  set_eval_params(e);
  // The position made before still has the old sums until refreshed.
  EXPECT_EQ(p.material(Color::Red), red_material);
  p.refresh_eval();
  EXPECT_EQ(p.material(Color::Red), red_material + 200);
  EXPECT_EQ(p.psq_red(), p.compute_psq_red());
  EXPECT_NE(evaluate(p), before);
  // A position made now agrees with the refreshed one, and moves keep the
  // sums consistent.
  Position q;
  ASSERT_EQ(q.set_fen(p.fen()), "");
  EXPECT_EQ(evaluate(q), evaluate(p));
  EXPECT_EQ(q.psq_red(), p.psq_red());
  const Move m = q.parse_move("b9c7");
  ASSERT_TRUE(m);
  q.do_move(m);
  EXPECT_EQ(q.psq_red(), q.compute_psq_red());
  q.undo_move(m);
  EXPECT_EQ(q.psq_red(), p.psq_red());
  // Back to the defaults: the same value as before.
  set_eval_params(EvalParams{});
  p.refresh_eval();
  EXPECT_EQ(evaluate(p), before);
}

// The modern profile's weights reach its evaluation and nothing else: the
// thesis's evaluation and the incremental sums do not move.
TEST(EvalParams, KnowledgeWeightsReachOnlyTheModernEvaluation) {
  struct Restore {
    ~Restore() { set_knowledge_params(KnowledgeParams{}); }
  } restore;
  Position p;
  ASSERT_EQ(p.set_fen("rnbakab2/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"), "");
  const Value thesis = evaluate(p), modern = evaluate(p, true), psq = p.psq_red();
  Tunables t;
  set_tunable(t, "modern_value_rook", std::to_string(t.knowledge.base.piece[index(PieceType::Rook)] + 100));
  set_knowledge_params(t.knowledge);
  EXPECT_EQ(evaluate(p, true), modern - 100);  // black to move, red a rook more
  EXPECT_EQ(evaluate(p), thesis);
  EXPECT_EQ(p.psq_red(), psq);
  set_tunable(t, "tempo", std::to_string(t.knowledge.tempo + 5));
  set_knowledge_params(t.knowledge);
  EXPECT_EQ(evaluate(p, true), modern - 100 + 5);
  set_knowledge_params(KnowledgeParams{});
  EXPECT_EQ(evaluate(p, true), modern);
}

TEST(EvalParams, ScaleOfZeroLeavesOnlyMaterial) {
  const DefaultEvalAfter restore;
  EvalParams e;
  e.psq_percent.fill(0);
  e.horse_mobility = e.rook_mobility = e.cannon_mobility = 0;
  set_eval_params(e);
  Position p;  // the start position: equal material, so 0 for the side to move
  EXPECT_EQ(evaluate(p), 0);
  EXPECT_EQ(p.psq_red(), 0);
  EXPECT_EQ(psq_value(make_piece(Color::Red, PieceType::Pawn), Square(0)), 30);
}

}  // namespace
}  // namespace xq
