// docs/RESULTS.md generated from docs/targets.json (`xqlab report --index`;
// the schema is docs/results/targets-schema.md): a header on how to read it,
// one section per distinct `section` in first-appearance order, one table
// row per target, and a last line of counts. The output depends on the
// targets and their documents only (no date of generation), so CI can
// compare the committed file with a fresh one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/report/targets_compute.h"

namespace xq::lab::report::targets {

// Every line of the index fits this many characters (a row that does not,
// even with its command and documents moved under keys, is an error).
inline constexpr std::size_t kMaxIndexLine = 400;

// A cited document larger than this is committed gzipped (its name ends in
// ".gz"; docs/results/README.md).
inline constexpr std::uintmax_t kMaxPlainDocumentBytes = 256 * 1024;

struct Target {
  std::string id, section, measures, acceptance, command;
  std::vector<std::string> documents;
  std::string text;             // figure.text: the contract a compute must meet
  std::optional<std::string> date, commit;
  std::string machine;
  bool typed = false;
  Json compute;                 // null: figure.text is printed as it stands
  std::string journal;          // relative to docs/
};

// Parses and checks targets.json (schema 1): every key present with its
// type, ids unique, lengths within the schema's. Throws TargetError naming
// the target (its id, or its position when the id itself is bad).
std::vector<Target> parse_targets(const Json& doc);

// Reads and parses a targets file; TargetError when it is missing or not JSON.
std::vector<Target> read_targets(const std::string& path);

struct IndexCounts {
  int targets = 0, computed = 0, typed = 0;
  int neither = 0;  // no document and no commit: nothing to re-check it by
};

struct ResultsIndex {
  std::string markdown;
  IndexCounts counts;
};

// Checks every target against its documents (each cited document exists
// under the cache's root; a compute yields exactly figure.text) and renders
// the index. Throws TargetError naming the target at the first problem.
ResultsIndex build_results_index(const std::vector<Target>& targets, DocumentCache& cache);

// The first line where `current` and `generated` differ, as one line of text
// naming its number and both versions (cut), or nothing when they are equal.
std::optional<std::string> first_difference(const std::string& current,
                                            const std::string& generated);

}  // namespace xq::lab::report::targets
