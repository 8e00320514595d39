// Does the choice of parallel backend transfer from one search profile to
// another? For each profile (thesis, modern) and each backend at T threads:
// time to depth (speedup S and search overhead SO against the serial search
// at 1 thread, from `xqlab lab`), Elo at a time control against the same
// profile's serial search at 1 thread, and Elo at a fixed depth (the
// widening that time to depth cannot see). The table ranks the backends by
// each measure within each profile and says, in plain words, where the
// evidence separates two backends and where it does not.
//
// Two backends are "separated" by Elo only when their 95 % intervals do not
// overlap and each rests on at least kMinSeparatingPairs game pairs with
// finite bounds (a few pairs give an interval of zero width, a clean sweep an
// infinite one: neither is evidence), and by time to depth only when their
// paired speedups' spreads do not overlap (the lab's min..max over runs; one
// run: never separated). A ranking whose neighbours are not separated is
// reported as a tie.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/common/stats.h"
#include "lab/games/match_stats.h"
#include "lab/games/recommend.h"

namespace xq::lab::games {

struct TransferRow {
  std::string backend;
  std::optional<LabFigures> lab;                 // absent when the lab did not measure it
  Wdl time_wdl, depth_wdl;                       // T threads' side
  std::optional<common::EloEstimate> time_elo;   // against serial, 1 thread, at the time control
  std::optional<common::EloEstimate> depth_elo;  // the same at the fixed depth
};

struct TransferProfile {
  std::string profile;  // "thesis" or "modern"
  std::vector<TransferRow> rows;
  // The depths this profile's lab searched to and its fixed-depth games
  // played at: per profile, since a modern depth costs a fraction of a
  // thesis depth's nodes (0 = not stated).
  int lab_depth = 0, game_depth = 0;
};

struct TransferTable {
  int threads = 2;
  std::string time_control;  // TimeControl::text() of the timed games
  int games = 0;             // per match
  std::vector<TransferProfile> profiles;
};

// Indices of `rows` ordered best first by the measure (speedup S, Elo at the
// time control, Elo at the fixed depth); rows without the measure last.
enum class Measure { Speedup, TimeElo, DepthElo };
inline constexpr std::int64_t kMinSeparatingPairs = 8;
std::vector<std::size_t> ranking(const std::vector<TransferRow>& rows, Measure m);
// Whether rows a and b are separated by the measure (see above).
bool separated(const TransferRow& a, const TransferRow& b, Measure m);

// The table and the verdict, for a terminal; one JSON object.
std::string transfer_text(const TransferTable& t);
Json transfer_json(const TransferTable& t);

}  // namespace xq::lab::games
