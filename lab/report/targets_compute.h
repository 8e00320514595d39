// A target's `compute` (docs/results/targets-schema.md): the figure text
// recomputed from the documents xqlab wrote (kinds lab, match, solve, stress).
// The recorded text is the contract: the index generator compares the two.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/report/targets_format.h"

namespace xq::lab::report::targets {

// A document reference of the form `commit:path` (a file that left the tree,
// docs/results/manifest.csv): shown as code text, never opened.
bool is_commit_reference(const std::string& document);

// Documents read once each (several targets cite the same lab document),
// by repository-relative path under `root`.
class DocumentCache {
 public:
  explicit DocumentCache(std::string root) : root_(std::move(root)) {}

  // The file's JSON values: one for a document, one per non-empty line for
  // `.jsonl` (either decompressed when the name ends in `.gz`). Throws
  // TargetError (no target named) when the file is missing, unreadable,
  // not whole gzip data or not JSON.
  const std::vector<Json>& values(const std::string& path);

  // Whether the file exists under the root.
  bool exists(const std::string& path) const;

  // The file's size in bytes (as stored: compressed for `.gz`).
  std::uintmax_t bytes(const std::string& path) const;

 private:
  std::string root_;
  std::map<std::string, std::vector<Json>> read_;
};

// The one element of `array` (a JSON array) whose keys equal every pair of
// `select` (an object; {} matches every element). Throws TargetError when
// none or several match.
const Json& select_one(const Json& array, const Json& select);

// Every element of `values` whose keys equal every pair of `select`.
std::vector<const Json*> select_all(const std::vector<Json>& values, const Json& select);

// The text `compute` yields from `documents`. Throws TargetError (no target
// named) for an unknown kind, a malformed item, a bad placeholder, a
// missing key or a selection that is not exactly one element.
std::string compute_text(const Json& compute, const std::vector<std::string>& documents,
                         DocumentCache& cache);

}  // namespace xq::lab::report::targets
