// `xqlab report`: one self-contained HTML page (inline SVG and CSS, nothing
// fetched, no script) from the JSON documents that lab, stress, ablation and
// match write. Every chart carries the command, date, commit and machine of
// its input ("meta") and the table of numbers it was drawn from; an input that
// is absent, or a figure an input does not measure, is named on the page.
#pragma once

#include <string>
#include <vector>

#include "lab/common/json.h"

namespace xq::lab::report {

// One input file: its documents (a file holds one JSON document, or one per
// line), or why there are none.
struct ReportInput {
  std::string path;
  bool found = false;
  std::vector<Json> docs;
};

// Reads the files; a missing file is kept with found = false. Throws
// std::invalid_argument naming the file for unparsable or unrecognised
// content (a document that is none of lab, stress, ablation or match).
std::vector<ReportInput> read_report_inputs(const std::vector<std::string>& paths);

// The kind of a document: "lab", "stress", "ablation", "match" or "".
std::string document_kind(const Json& doc);

std::string report_html(const std::vector<ReportInput>& inputs);

// A few lines for a terminal: the lab's size, the best backend per thread
// count with its speedup, the safest fast hash scheme.
std::vector<std::string> report_summary(const std::vector<ReportInput>& inputs);

}  // namespace xq::lab::report
