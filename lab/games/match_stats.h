// Match results as the statistics see them: game scores, win/draw/loss
// counts, pentanomial counts over colour-reversed game pairs, and the --sprt
// option's parameters. The Elo and SPRT maths over these counts is in
// lab/common/stats.h. Every score is from one engine's point of view (1 win,
// 0.5 draw, 0 loss).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/common/stats.h"

namespace xq::lab::games {

enum class GameScore : std::uint8_t { Loss = 0, Draw = 1, Win = 2 };

struct Wdl {
  std::int64_t wins = 0, draws = 0, losses = 0;
  std::int64_t games() const { return wins + draws + losses; }
};

Wdl wdl_of(const std::vector<GameScore>& games);
// Games 2k and 2k+1 form pair k (the same opening, colours reversed); an
// odd last game has no partner yet and is not counted.
common::Penta penta_of(const std::vector<GameScore>& games);
// The Elo of a pairing whose pair k was played from opening k mod
// `openings` (the match's order): the pentanomial estimate while no opening
// repeats (pairs <= openings), the bootstrap over openings once one does
// (common::elo_estimate_clustered). std::nullopt without a complete pair.
std::optional<common::EloEstimate> elo_of(const std::vector<GameScore>& games,
                                          std::size_t openings);
// Where the interval came from: "pentanomial", "clustered by opening" or
// "not estimable" (the JSON's "elo_interval").
std::string interval_kind(const common::EloEstimate& e);

// "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized" as words or one
// string, keys in any order, missing keys at their defaults above; throws
// std::invalid_argument for an unknown key, a bad number or bad values.
// The "key=value" items of option words given either one item a word or
// several in one word separated by spaces.
std::vector<std::string> option_items(const std::vector<std::string>& words);
common::SprtParams parse_sprt(const std::vector<std::string>& words);

}  // namespace xq::lab::games
