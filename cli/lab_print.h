// The lab's report as text and JSON (figures from lab/summary.h).
#pragma once

#include <cstddef>
#include <vector>

#include "lab/json.h"
#include "lab/summary.h"

namespace xq::cli {

void print_lab_text(const lab::LabSettings& s, std::size_t positions,
                    const std::vector<lab::LabSummary>& rows);
// The summary document (without "meta" and the per-position figures, which
// the command adds).
Json lab_json(const lab::LabSettings& s, std::size_t positions,
              const std::vector<lab::LabSummary>& rows);

}  // namespace xq::cli
