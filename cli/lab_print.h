// The lab's report as text and JSON (figures from lab/summary.h).
#pragma once

#include <cstddef>
#include <vector>

#include "lab/summary.h"

namespace xq::cli {

void print_lab_text(const lab::LabSettings& s, std::size_t positions,
                    const std::vector<lab::LabSummary>& rows);
void print_lab_json(const lab::LabSettings& s, std::size_t positions,
                    const std::vector<lab::LabSummary>& rows);

}  // namespace xq::cli
