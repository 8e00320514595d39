// The lab document: the one writer of `xqlab lab --json` / --json-file (the
// input of `xqlab report` and `xqlab recommend --lab-json`). One JSON object:
//   {"meta", "suite", "positions", "depth", "runs", "hash_mb", "cores",
//    "speedup_definition", "note", "params", "results"}
// with one result per configuration (the figures of lab/timing/summary.h),
// each with its per-position figures (lab/timing/positions.h).
#pragma once

#include <cstddef>
#include <vector>

#include "lab/common/json.h"
#include "lab/common/meta.h"
#include "lab/common/suite.h"
#include "lab/timing/runner.h"
#include "lab/timing/summary.h"

namespace xq::lab::timing {

void to_json(Json& j, const LabSummary& r);

// The summary without "meta" and the per-position figures.
Json lab_summary_json(const LabSettings& s, std::size_t positions,
                      const std::vector<LabSummary>& rows);

// The figures per group of positions (summarise_by): {"column", "groups":
// [{"label", "positions" (numbered from 1), "results"}]}.
Json groups_json(const std::string& column, const std::vector<GroupSummary>& groups);

// The whole document.
Json lab_document(const common::RunMeta& meta, const LabSettings& s,
                  const std::vector<common::SuiteEntry>& suite, const std::vector<LabRun>& runs,
                  const std::vector<LabSummary>& rows);

}  // namespace xq::lab::timing
