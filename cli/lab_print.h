// The lab's report as text and JSON (figures from lab/timing/summary.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lab/records/json.h"
#include "lab/timing/summary.h"

namespace xq::cli {

// The settings of a time-to-depth run (no configurations yet); the second
// form also sets the table size and the --param assignments.
lab::LabSettings lab_settings(const std::string& suite, int depth, int runs);
lab::LabSettings lab_settings(const std::string& suite, int depth, int runs, std::size_t hash_mb,
                              const std::vector<std::string>& params);

void print_lab_text(const lab::LabSettings& s, std::size_t positions,
                    const std::vector<lab::LabSummary>& rows);
// The summary document (without "meta" and the per-position figures, which
// the command adds).
Json lab_json(const lab::LabSettings& s, std::size_t positions,
              const std::vector<lab::LabSummary>& rows);

}  // namespace xq::cli
