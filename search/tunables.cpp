#include "search/tunables.h"

#include <array>
#include <charconv>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>

namespace xq {
namespace {

#define XQ_SEARCH(field) [](Tunables& t) -> int& { return t.search.field; }
#define XQ_KN(field) [](Tunables& t) -> int& { return t.knowledge.field; }
// The evaluation's sixteen weights (EvalParams) under a name prefix: the
// thesis's (group eval) and the modern profile's own (group knowledge).
#define XQ_W(FIELD, EXPR) [](Tunables& t) -> int& { return t.FIELD.EXPR; }
#define XQ_VALUE(P, G, H, F, NAME, TYPE, LO, HI)                           \
  TunableParam{P "value_" NAME, G, LO, HI, H NAME "'s material value", \
               XQ_W(F, piece[index(PieceType::TYPE)])}
#define XQ_SQUARES(P, G, H, F, NAME, TYPE)                                               \
  TunableParam{P "psq_" NAME, G, 0, 300, H NAME "'s square bonuses, % of the table", \
               XQ_W(F, psq_percent[index(PieceType::TYPE)])}
#define XQ_MOBILITY(P, G, H, F, NAME, MAX, TEXT) \
  TunableParam{P "mobility_" #NAME, G, 0, MAX, H TEXT, XQ_W(F, NAME##_mobility)}
#define XQ_WEIGHTS(P, G, H, F)                                                    \
  XQ_VALUE(P, G, H, F, "advisor", Advisor, 30, 400),                              \
      XQ_VALUE(P, G, H, F, "elephant", Elephant, 30, 400),                        \
      XQ_VALUE(P, G, H, F, "horse", Horse, 100, 800),                             \
      XQ_VALUE(P, G, H, F, "rook", Rook, 200, 1500),                              \
      XQ_VALUE(P, G, H, F, "cannon", Cannon, 100, 800),                           \
      XQ_VALUE(P, G, H, F, "pawn", Pawn, 10, 150),                                \
      XQ_SQUARES(P, G, H, F, "king", King), XQ_SQUARES(P, G, H, F, "advisor", Advisor), \
      XQ_SQUARES(P, G, H, F, "elephant", Elephant), XQ_SQUARES(P, G, H, F, "horse", Horse), \
      XQ_SQUARES(P, G, H, F, "rook", Rook), XQ_SQUARES(P, G, H, F, "cannon", Cannon),   \
      XQ_SQUARES(P, G, H, F, "pawn", Pawn),                                       \
      XQ_MOBILITY(P, G, H, F, horse, 20, "per square a horse reaches"),           \
      XQ_MOBILITY(P, G, H, F, rook, 10, "per square a rook reaches"),             \
      XQ_MOBILITY(P, G, H, F, cannon, 10, "per square a cannon slides to"),

// Ranges: wide enough for a tuner to find a better value, narrow enough
// that no value breaks the engine (no divisor reaches 0, no margin turns
// the search upside down).
const std::array kParams = {
    XQ_WEIGHTS("", "eval", "", eval)
    XQ_WEIGHTS("modern_", "knowledge", "modern: ", knowledge.base)
    TunableParam{"palace_attack", "knowledge", 0, 20,
                 "modern: per enemy attack unit and missing palace defender",
                 XQ_KN(palace_attack)},
    TunableParam{"hollow_cannon", "knowledge", 0, 200,
                 "modern: a cannon facing the king, none between", XQ_KN(hollow_cannon)},
    TunableParam{"pressing_cannon", "knowledge", 0, 100,
                 "modern: a cannon facing the king, two pieces between", XQ_KN(pressing_cannon)},
    TunableParam{"cannon_phase", "knowledge", 0, 5,
                 "modern: cannon + this x (pieces on the board - 20), horse - half",
                 XQ_KN(cannon_phase)},
    TunableParam{"tempo", "knowledge", 0, 30, "modern: bonus of the side to move", XQ_KN(tempo)},
    TunableParam{"lmr_base", "search", 0, 200, "LMR: reduction's constant, % of a ply",
                 XQ_SEARCH(lmr_base)},
    TunableParam{"lmr_scale", "search", 10, 150, "LMR: % of a ply per log(depth) x log(moves)",
                 XQ_SEARCH(lmr_scale)},
    TunableParam{"lmr_history", "search", 1000, 32000, "LMR: history points per ply",
                 XQ_SEARCH(lmr_history)},
    TunableParam{"rfp_depth", "search", 1, 16, "reverse futility up to this depth",
                 XQ_SEARCH(rfp_depth)},
    TunableParam{"rfp_margin", "search", 20, 400, "reverse futility margin per ply",
                 XQ_SEARCH(rfp_margin)},
    TunableParam{"razor_depth", "search", 1, 6, "razoring up to this depth",
                 XQ_SEARCH(razor_depth)},
    TunableParam{"razor_margin", "search", 50, 1000, "razoring margin's constant",
                 XQ_SEARCH(razor_margin)},
    TunableParam{"razor_per_depth", "search", 0, 600, "razoring margin per ply",
                 XQ_SEARCH(razor_per_depth)},
    TunableParam{"lmp_depth", "search", 1, 16, "move-count pruning up to this depth",
                 XQ_SEARCH(lmp_depth)},
    TunableParam{"lmp_base", "search", 1, 20, "move-count pruning: quiet moves at depth 0",
                 XQ_SEARCH(lmp_base)},
    TunableParam{"futility_depth", "search", 1, 12, "quiet-move futility up to this depth",
                 XQ_SEARCH(futility_depth)},
    TunableParam{"futility_base", "search", 20, 500, "futility margin's constant",
                 XQ_SEARCH(futility_base)},
    TunableParam{"futility_per_depth", "search", 20, 400, "futility margin per ply",
                 XQ_SEARCH(futility_per_depth)},
    TunableParam{"see_capture", "search", 0, 400, "SEE pruning of captures, per ply",
                 XQ_SEARCH(see_capture)},
    TunableParam{"see_quiet", "search", 0, 100, "SEE pruning of quiet moves, per ply squared",
                 XQ_SEARCH(see_quiet)},
    TunableParam{"null_base", "search", 1, 6, "null move: reduction's constant",
                 XQ_SEARCH(null_base)},
    TunableParam{"null_depth_div", "search", 1, 12, "null move: one more ply per this depth",
                 XQ_SEARCH(null_depth_div)},
    TunableParam{"null_eval_div", "search", 30, 600,
                 "null move: one more ply per this margin above beta", XQ_SEARCH(null_eval_div)},
    TunableParam{"null_verify_depth", "search", 2, 64, "null move: verified from this depth",
                 XQ_SEARCH(null_verify_depth)},
    TunableParam{"iir_depth", "search", 2, 16, "internal iterative reduction from this depth",
                 XQ_SEARCH(iir_depth)},
    TunableParam{"probcut_depth", "search", 3, 16, "ProbCut from this depth",
                 XQ_SEARCH(probcut_depth)},
    TunableParam{"probcut_margin", "search", 30, 600, "ProbCut: margin above beta",
                 XQ_SEARCH(probcut_margin)},
    TunableParam{"singular_depth", "search", 4, 20, "singular extension from this depth",
                 XQ_SEARCH(singular_depth)},
    TunableParam{"singular_margin", "search", 0, 10, "singular extension: margin per ply",
                 XQ_SEARCH(singular_margin)},
    TunableParam{"asp_delta", "search", 5, 200, "aspiration window's first half-width",
                 XQ_SEARCH(asp_delta)},
    TunableParam{"asp_thread", "search", 0, 50, "aspiration: more half-width per thread (mod 4)",
                 XQ_SEARCH(asp_thread)},
};

#undef XQ_SEARCH
#undef XQ_KN
#undef XQ_W
#undef XQ_VALUE
#undef XQ_SQUARES
#undef XQ_MOBILITY
#undef XQ_WEIGHTS

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

int parse_int(std::string_view text, bool* ok) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  *ok = !text.empty() && ec == std::errc() && end == text.data() + text.size();
  return v;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::string TunableParam::range_text() const {
  return std::to_string(min) + ".." + std::to_string(max);
}

std::span<const TunableParam> tunable_params() { return kParams; }

const TunableParam* find_tunable(std::string_view name) {
  for (const TunableParam& p : kParams)
    if (p.name == name) return &p;
  return nullptr;
}

void set_tunable(Tunables& t, std::string_view name, std::string_view value) {
  const TunableParam* p = find_tunable(name);
  if (p == nullptr) {
    std::string known;
    for (const TunableParam& q : kParams) known += (known.empty() ? "" : ", ") + std::string(q.name);
    throw std::invalid_argument("unknown tunable parameter " + quoted(name) + " (known: " +
                                known + ")");
  }
  bool ok = false;
  const int v = parse_int(value, &ok);
  if (!ok)
    throw std::invalid_argument("tunable " + std::string(name) + ": " + quoted(value) +
                                " is not an integer");
  if (v < p->min || v > p->max)
    throw std::invalid_argument("tunable " + std::string(name) + ": " + std::to_string(v) +
                                " is outside " + p->range_text());
  p->ref(t) = v;
}

Tunables parse_tunables(std::string_view text, const Tunables& base) {
  Tunables t = base;
  std::set<std::string_view> seen;
  int number = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    ++number;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const std::size_t gap = line.find_first_of(" \t=");
    const std::string_view name = line.substr(0, gap);
    std::string_view value = gap == std::string_view::npos ? "" : line.substr(gap + 1);
    value = trim(value);
    if (!value.empty() && value.front() == '=') value = trim(value.substr(1));
    try {
      if (value.empty()) throw std::invalid_argument("'" + std::string(name) + "' has no value");
      set_tunable(t, name, value);
      if (!seen.insert(find_tunable(name)->name).second)
        throw std::invalid_argument(std::string(name) + " is named twice");
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("line " + std::to_string(number) + ": " + e.what());
    }
  }
  return t;
}

Tunables load_tunables(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read parameters file '" + path + "'");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    return parse_tunables(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

std::string format_tunables(const Tunables& t) {
  std::string out;
  for (const TunableParam& p : kParams)
    out += std::string(p.name) + " " + std::to_string(p.get(t)) + "\n";
  return out;
}

std::string tunables_diff(const Tunables& t) {
  std::string out;
  for (const TunableParam& p : kParams)
    if (p.get(t) != p.default_value())
      out += (out.empty() ? "" : ",") + std::string(p.name) + "=" + std::to_string(p.get(t));
  return out;
}

}  // namespace xq
