// The engine's tunable parameters by name: the evaluation's weights
// (board/eval.h EvalParams: piece values but the king's, the piece-square
// tables' scale per piece type, the mobility weights) and the modern
// profile's search constants (search/options.h SearchTuning). Each has a
// range and a default; `xqlab list` prints them, the engine offers each as an
// option, a match sets them per engine, and `evolve` / `spsa` tune them.
//
// A parameters file holds one "name value" per line (blank lines and
// "# ..." comments allowed); the parameters it does not name keep their
// defaults.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "board/eval.h"
#include "search/options.h"

namespace xq {

struct Tunables {
  EvalParams eval;
  KnowledgeParams knowledge;  // the modern profile's evaluation
  SearchTuning search;
  bool operator==(const Tunables&) const = default;
};

struct TunableParam {
  std::string_view name;
  // "eval" (the thesis's evaluation), "knowledge" (the modern profile's
  // evaluation, read only with the knowledge feature) or "search" (the
  // modern profile's search constants).
  std::string_view group;
  int min = 0, max = 0;
  std::string_view help;
  int& (*ref)(Tunables&);

  int get(const Tunables& t) const { return ref(const_cast<Tunables&>(t)); }
  int default_value() const { return get(Tunables{}); }
  // Whether the weight is the evaluation's (set_eval_params() or
  // set_knowledge_params(): one set per process).
  bool sets_eval() const { return group == "eval" || group == "knowledge"; }
  std::string range_text() const;
};

// Every tunable parameter, evaluation first, in a fixed order (the order of
// a vector that evolve and spsa tune).
std::span<const TunableParam> tunable_params();
// nullptr for an unknown name (exact match).
const TunableParam* find_tunable(std::string_view name);

// Sets one parameter from its text. Throws std::invalid_argument with one
// line (an unknown name lists the known ones; a value that is not an integer
// or is outside the range says so); on error nothing changes.
void set_tunable(Tunables& t, std::string_view name, std::string_view value);

// Reads a parameters file's text over `base`. Throws std::invalid_argument
// with one line naming the line number and what is wrong; a parameter named
// twice is an error.
Tunables parse_tunables(std::string_view text, const Tunables& base = Tunables{});
// Reads a parameters file. Throws std::invalid_argument with one line ("FILE:
// line N: ..." or that it cannot be read).
Tunables load_tunables(const std::string& path);
// Every parameter, one "name value" line each, in tunable_params() order;
// parse_tunables() reads it back exactly.
std::string format_tunables(const Tunables& t);
// "name=value,..." of the parameters that differ from the defaults ("" for
// none): how a match or a report names a tuned engine.
std::string tunables_diff(const Tunables& t);

}  // namespace xq
