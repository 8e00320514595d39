// Which backend for N threads, from documents alone: per thread count one
// decision -- a backend, "undecided between A and B", or "no evidence" --
// and the evidence it rests on, never mixing profiles, depths or kinds of
// evidence in one row.
//
// The evidence, per thread count p and the profile asked for:
//  - measured time to depth: a lab document measured (mode "measured") on a
//    machine with at least p hardware threads (its meta.nproc); above that
//    the operating system time-slices the threads and the times are no speed;
//  - SIMULATED time to depth beyond: a simulated lab document with a core per
//    logical thread (--sim-cores 0 or at least p), labelled SIMULATED;
//  - Elo where games exist: a `xqlab transfer` document whose threads are p
//    (each backend's Elo against the profile's serial search at 1 thread, at
//    a time control), and a `xqlab match --json` document with a pairing of
//    two xqlab backends at p threads in the profile (head to head; the
//    pairing with the most games); games count, as measured times do, only
//    when their machine had at least p cores.
// The documents of one SIMULATED sweep run a backend at a time are read as
// one (lab/common/lab_merge.h). Time to depth decides when measured evidence
// exists, else SIMULATED; among
// the documents of that kind the deepest search decides (then the most
// positions x runs), its own depth named. The games confirm, overturn or
// (where time to depth is missing or undecided) make the decision: when
// both decide and disagree, the row is undecided and says why.
//
// Separated (decided): the leader's and the runner-up's paired speedups'
// spreads over runs (or seeds) do not overlap (at least 2 runs: the rule of
// `transfer`), or the leader's time is lower on enough of the positions for
// a two-sided sign test at p < 0.05 (8 of 8 positions; 13 of 16); Elo: the
// 95 % intervals do not overlap, each on at least kMinSeparatingPairs
// pairs; head to head: the interval of the pairing's Elo excludes 0, on at
// least 2 x kMinSeparatingPairs games. Each undecided row names the cheapest next measurement that could
// decide it: more positions (how many, if the leader keeps winning them),
// more games (how many, if the gap holds), or a run on a machine with at
// least p cores (bench/scaling.sh).
#pragma once

#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/games/lab_evidence.h"

namespace xq::lab::games {

struct ThreadsDecision {
  int threads = 0;
  std::string kind;      // "measured", "SIMULATED", "games" or "none"
  std::string decision;  // a backend, "undecided between A and B", "no evidence"
  bool decided = false;
  std::string evidence;  // kind, depth, size (positions, runs or seeds, games), document
  std::string figure;    // what decides: S and sign test, or Elo
  std::string games;     // the Elo evidence beside time to depth ("" when none)
  std::string next;      // the cheapest next measurement ("" when decided)
  // Every backend's speedup and search overhead at this thread count in the
  // document that decided (time to depth only): the curves of the report's
  // "Which backend for N threads".
  struct Point {
    std::string name;
    double speedup = 0, overhead = 0;
  };
  std::vector<Point> points;
};

// `labs`: lab documents (measured or simulated); `games`: transfer and
// match documents. Throws std::invalid_argument on a document of another kind.
std::vector<ThreadsDecision> recommend_threads(const std::vector<int>& threads,
                                               const std::string& profile,
                                               const std::vector<EvidenceDoc>& labs,
                                               const std::vector<EvidenceDoc>& games);

std::string threads_text(const std::vector<ThreadsDecision>& rows, const std::string& profile);
Json threads_json(const std::vector<ThreadsDecision>& rows, const std::string& profile);

}  // namespace xq::lab::games
