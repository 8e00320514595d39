// Which parallel backend to ship for a thread count and a time control: the
// evidence of time to depth (speedup and search overhead from `xqlab lab`)
// beside the evidence of games (a round-robin match among the candidates
// with an SPRT per pairing, lab/games/match.h), ranked by match score.
//
// The recommendation is decided only when the leader's SPRT, read from the
// leader's side, accepted "the leader is stronger" (H1) against every other
// candidate; otherwise the ranking is printed as provisional and the report
// says which comparisons are still open.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/games/match.h"

namespace xq::lab::games {

// One configuration's time-to-depth figures, as `xqlab lab --json` gives them.
struct LabFigures {
  std::string backend, hash;
  int threads = 1;
  double speedup = 0, overhead = 0;
  // The paired speedups' range over runs (the lab's "paired_speedup"); 0 when
  // the lab has none (the serial reference).
  double paired_min = 0, paired_max = 0;
  int runs = 0;
};

// Reads `xqlab lab --json` output (one object with "results", or several,
// one per line). Throws std::invalid_argument naming the file when it cannot
// be read or holds no results.
std::vector<LabFigures> read_lab_json(const std::string& path);
// The figures of one lab document (lab/timing/document.h); none when it has
// no "results".
std::vector<LabFigures> lab_figures(const Json& lab_document);

struct Versus {  // the candidate against one opponent, from its side
  std::string opponent;
  Wdl wdl;
  std::optional<common::EloEstimate> elo;
  std::optional<double> llr;
  common::SprtDecision decision = common::SprtDecision::Continue;
};

struct Candidate {
  std::string name, backend;
  std::optional<LabFigures> lab;  // absent when the lab did not measure it
  double points = 0;              // match points
  int games = 0;
  std::vector<Versus> versus;
};

struct Recommendation {
  std::vector<Candidate> ranked;  // best first
  bool decided = false;
  std::string verdict;            // one paragraph, plain words
};

// `backends[i]` is the backend of match engine i; lab rows are matched to
// it by backend name and `threads`.
Recommendation recommend(const MatchConfig& config, const MatchResult& match,
                         const std::vector<std::string>& backends, int threads,
                         const std::vector<LabFigures>& lab);

std::string recommendation_text(const Recommendation& r, const MatchConfig& config, int threads);
Json recommendation_json(const Recommendation& r);

}  // namespace xq::lab::games
