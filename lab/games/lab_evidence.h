// What the lab's decisions from documents read (recommend --threads,
// recommend --param-verdict): documents of one file, the time-to-depth
// figures of one configuration in a lab document, whether a document may
// speak for a thread count, and the rule that says one configuration is
// faster than another. Shared by lab/games/recommend_threads.h and
// lab/games/recommend_values.h.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "lab/common/json.h"

namespace xq::lab::games {

struct EvidenceDoc {
  std::string path;
  Json doc;
};

// The documents of one file (.gz too): one JSON object, or one per line.
// Throws std::invalid_argument, naming the file and `what` (the option),
// when it cannot be read or parsed.
std::vector<EvidenceDoc> read_evidence(const std::string& path, const std::string& what);

namespace evidence {

// The significance level of every "separated" in the decisions.
constexpr double kAlpha = 0.05;

// A string or number field, or `absent` / NaN.
std::string text_of(const Json& j, const char* key, const std::string& absent = "");
double num_of(const Json& j, const char* key);

// Whether a document's machine (meta.nproc) had at least p cores: measured
// times and games at p threads count only then (above, the threads were
// time-sliced: a handicap, not the backend).
bool had_the_cores(const Json& doc, int p);

// Whether a lab document can speak for p threads: its profile, a machine
// with at least p cores (measured), a core per logical thread and no
// what-if costs (SIMULATED).
bool speaks_for(const Json& lab, int p, const std::string& profile);

// A SIMULATED sweep run a backend at a time as one document (its paths
// joined by " + ", lab/common/lab_merge.h), so that every family it holds
// competes.
std::vector<EvidenceDoc> merged_sweeps(const std::vector<EvidenceDoc>& labs);

// "backend/hash", or "backend/hash RxT" for a distributed backend's row;
// without the hash ("backend", "backend RxT") when the scheme is what the
// rows are compared by.
std::string name_of(const Json& row, bool with_hash = true);
// Whether a row ran a parameter (lab --vary) away from the document's own
// settings.
bool varied(const Json& lab, const Json& row);
// Threads, times ranks for a distributed backend.
int processors_of(const Json& row);
// "1 thread", "8 threads".
std::string n_threads(int p);

// One backend's time-to-depth figures at p threads in one document.
struct Contender {
  std::string name, backend;
  double speedup = 0, so = 0, lo = NAN, hi = NAN;  // lo, hi: paired spread over runs
  int runs = 0;
  std::vector<double> seconds;  // per position (median over runs)
};

Contender contender_of(const Json& row);
// " [min, max]" of the paired spread over runs, "" with fewer than 2 runs.
std::string spread(const Contender& c);

struct SignCount {
  int faster = 0, slower = 0;
};
// Positions on which `a` took less / more time than `b` (ties dropped).
SignCount sign_count(const Contender& a, const Contender& b);

// Whether `a` is separated from `b`, faster: their paired speedups' spreads
// over runs (at least 2 each) do not overlap, or `a` is faster on more
// positions and the two-sided sign test gives p < kAlpha. `count`, when
// given, receives the positions each way.
bool faster_separated(const Contender& a, const Contender& b, SignCount* count = nullptr);

}  // namespace evidence
}  // namespace xq::lab::games
