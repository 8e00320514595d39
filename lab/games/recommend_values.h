// Which setting of a backend parameter to ship, from documents alone
// (`xqlab recommend --param-verdict NAME`): per backend and thread count,
// the rows that ran NAME with `lab --vary` against the same backend's row
// at the document's defaults, decided by the rule of every decision from
// documents (lab/games/lab_evidence.h: evidence::faster_separated).
// NAME "hash" asks the same of the table: per backend, every other scheme
// the document ran against the reference scheme's row, their times paired
// by run (`xqlab recommend --param-verdict hash`).
#pragma once

#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/games/lab_evidence.h"

namespace xq::lab::games {

// The scheme `xqlab lab` runs without --hash: the reference of the verdict
// on "hash".
inline constexpr const char* kReferenceScheme = "xor";

// Which setting of a backend parameter the documents support, per backend
// and thread count: the rows that ran `name` with `lab --vary` against the
// same document's row at its defaults, by recommend_threads.h's rule (measured where the
// machine had the cores, else SIMULATED; the deepest document). A setting
// other than the default is shipped only when it is separated from the
// default, faster; of several, the fastest. "keep" otherwise: an undecided
// comparison never moves a default.
struct ValueDecision {
  std::string backend;  // backend/hash (for "hash": the backend)
  int threads = 0;
  std::string kind;      // "measured" or "SIMULATED"
  std::string decision;  // "keep history_share=thread" or "ship history_share=all ..."
  bool changed = false;  // a setting other than the default is shipped
  std::string evidence;  // kind, depth, positions x runs, file
  std::string figure;    // each setting's S against the default's, sign test
};
std::vector<ValueDecision> recommend_values(const std::vector<int>& threads,
                                            const std::string& profile, const std::string& name,
                                            const std::vector<EvidenceDoc>& labs);
std::string values_text(const std::vector<ValueDecision>& rows, const std::string& profile,
                        const std::string& name);
Json values_json(const std::vector<ValueDecision>& rows, const std::string& profile,
                 const std::string& name);

}  // namespace xq::lab::games
