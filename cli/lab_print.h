// The lab's report as text (figures from lab/timing/summary.h; the JSON
// document is lab/timing/document.h's).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lab/timing/summary.h"

namespace xq::cli {

// The settings of a time-to-depth run (no configurations yet); the second
// form also sets the table size and the --param assignments.
lab::timing::LabSettings lab_settings(const std::string& suite, int depth, int runs);
lab::timing::LabSettings lab_settings(const std::string& suite, int depth, int runs,
                                      std::size_t hash_mb, const std::vector<std::string>& params);

// The suite as the lab's text names it: its path, then " (verdict half)"
// when a half was chosen.
std::string suite_text(const lab::timing::LabSettings& s);

// `fits`: Kuszmaul's model fitted to the backends that count their critical
// path (printed with their W / C rows when there are any).
void print_lab_text(const lab::timing::LabSettings& s, std::size_t positions,
                    const std::vector<lab::timing::LabSummary>& rows,
                    const std::vector<lab::timing::WorkSpanFit>& fits = {});

// `xqlab lab --by COLUMN`: per group of positions, each configuration's S,
// paired S and SO and the idle share of its thread time.
void print_lab_groups(const lab::timing::LabSettings& s, const std::string& column,
                      const std::vector<lab::timing::GroupSummary>& groups);

}  // namespace xq::cli
