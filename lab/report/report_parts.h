// The pieces the report's sections share (lab/report/report.h is the interface).
#pragma once

#include <string>
#include <vector>

#include "lab/common/json.h"

namespace xq::lab::report {

// A number from a document: NaN when the key is absent or not a number, so
// that an absent figure is never mistaken for zero.
double num(const Json& j, const char* key);
std::string str(const Json& j, const char* key);

// "<p class=missing>...": a figure that is not measured or an absent input.
std::string missing(const std::string& what);

// An HTML table; a NaN cell prints "n/a".
struct Table {
  std::vector<std::string> head;
  std::vector<std::vector<std::string>> rows;
};
std::string cell(double v, int digits = 4);
std::string table_html(const Table& t);

// The caption under a chart: command, date, commit and machine of `doc`'s
// "meta" (named as absent when the document has none).
std::string meta_html(const Json& doc);

// <figure id=ID> with heading, the SVG, the caption and the table.
std::string figure(const std::string& id, const std::string& heading, const std::string& svg,
                   const Json& doc, const Table& t, const std::string& note = "");

// Section bodies, one per input kind; `n` numbers repeated kinds (ids get
// "-2", "-3" from the second on).
std::string lab_section(const Json& doc, int n);
std::string stress_section(const std::vector<Json>& docs);
std::string ablation_section(const Json& doc, int n);
std::string match_section(const Json& doc, int n);
// "Which backend for N threads" (`xqlab recommend --threads LIST --json`):
// every backend's speedup against the thread count, measured and SIMULATED
// points as separate curves, and the decision per thread count beneath; or
// (`recommend --param-verdict NAME --json`) which setting per backend and
// thread count, as a table.
std::string recommend_section(const Json& doc, int n);
std::string id_for(const std::string& base, int n);

// Entry-mode stress runs (rounds) of one scheme, thread count, table size
// and replacement merged into one document, in order of first appearance:
// the counts summed, "ops_per_sec" the median of the runs' with
// "ops_per_sec_min", "ops_per_sec_max", "ops_per_sec_samples" and "rounds";
// the first run's "meta".
std::vector<Json> merge_stress_rounds(const std::vector<Json>& runs);

}  // namespace xq::lab::report
