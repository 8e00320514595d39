// Does the choice of parallel backend transfer from one search profile to
// another? For each profile (thesis, modern) and each backend at T threads:
// time to depth (speedup S and search overhead SO against the serial search
// at 1 thread, from `xqlab lab`), Elo at a time control against the same
// profile's serial search at 1 thread, and Elo at a fixed depth (the
// widening that time to depth cannot see). The table ranks the backends by
// each measure within each profile and says, in plain words, where the
// evidence separates two backends and where it does not.
//
// The Elo-equivalent time factor of a backend (how much more time the
// serial search at 1 thread needs to play as well as the backend at T
// threads) comes from the profile's Elo per doubling: a match of the serial
// search at twice the clock against itself at the clock, in the same run.
// With Elo linear in the logarithm of time, a backend E Elo above the
// serial search is worth 2^(E / E_doubling) times its time; its interval
// carries the uncertainty of both E and E_doubling (the delta method,
// common::time_factor_interval). A factor above 2
// extrapolates past the doubling measured. No factor when the doubling is
// not measurably positive (its lower bound at or below 0, or fewer than
// kMinSeparatingPairs pairs).
//
// Two backends are "separated" by Elo only when their 95 % intervals do not
// overlap and each rests on at least kMinSeparatingPairs game pairs with
// finite bounds (pairs that all scored alike give no interval, "not
// estimable", a clean sweep an infinite one: neither is evidence), and by time to depth only when their
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
  // The serial search at 1 thread with twice the clock against itself.
  Wdl doubling_wdl;
  std::optional<common::EloEstimate> doubling;
};

struct TimeFactor {
  double factor = 1, lower = 1, upper = 1;  // bounds may be infinite
};
// Why there is no factor is the doubling's (see above) or the row's (no
// timed games).
std::optional<TimeFactor> time_factor(const TransferRow& row, const TransferProfile& p);

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
