#include "lab/report/report.h"

#include <cmath>
#include <fstream>
#include <optional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "lab/common/files.h"
#include "lab/common/lab_merge.h"
#include "lab/report/report_parts.h"
#include "lab/report/svg.h"

namespace xq::lab::report {
namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.4 "DejaVu Sans",Arial,sans-serif;margin:24px auto;max-width:1000px;color:#222}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;margin-top:32px}
h3{font-size:15px;margin:8px 0}
figure{margin:16px 0 28px;padding:8px;border:1px solid #e4e4e4;background:#fff}
svg.chart{display:block;max-width:100%;height:auto;font-size:12px}
.axis-title{font-size:13px;fill:#222}.tick-label,.cat-label{fill:#444;font-size:11px}
.legend-label{font-size:12px;fill:#222}.ref-label{font-size:11px;fill:#555}
.na-label{font-size:11px;fill:#a00}
table{border-collapse:collapse;font-size:12px;margin-top:6px;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:2px 6px;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:0 10px;font-size:12px;margin:4px 0}
dl.meta dt{color:#666}dl.meta dd{margin:0}
.missing{color:#a00;font-style:italic}.note{font-size:12px;color:#555}
)";

// One document per line, or the whole file as one document.
std::vector<Json> parse_docs(const std::string& path, const std::string& text) {
  std::vector<Json> docs;
  try {
    docs.push_back(Json::parse(text));
    return docs;
  } catch (const Json::exception&) {
  }
  std::istringstream in(text);
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      docs.push_back(Json::parse(line));
    } catch (const Json::exception&) {
      throw std::invalid_argument("report input '" + path + "' line " + std::to_string(line_no) +
                                  " is not JSON");
    }
  }
  if (docs.empty()) throw std::invalid_argument("report input '" + path + "' is empty");
  return docs;
}

std::string inputs_html(const std::vector<ReportInput>& inputs) {
  std::string h = "<section class=\"inputs\">\n<h2>Inputs</h2>\n<ul>\n";
  for (const ReportInput& in : inputs) {
    h += "<li><code>" + svg::escape(in.path) + "</code>: ";
    if (!in.found) {
      h += "<span class=\"missing\">missing (not found; its charts are absent)</span></li>\n";
      continue;
    }
    std::map<std::string, int> kinds;
    for (const Json& d : in.docs) ++kinds[document_kind(d)];
    std::string list;
    for (const auto& [k, c] : kinds)
      list += (list.empty() ? "" : ", ") + std::to_string(c) + " " + k;
    h += svg::escape(list) + "</li>\n";
  }
  if (inputs.empty()) h += "<li class=\"missing\">no input files were given</li>\n";
  return h + "</ul>\n</section>\n";
}

}  // namespace

std::string document_kind(const Json& d) {
  if (!d.is_object()) return "";
  if (d.contains("match")) return "match";
  if (d.contains("recommend_threads") && d["recommend_threads"].is_object()) return "recommend";
  if (d.contains("recommend_values") && d["recommend_values"].is_object()) return "recommend";
  if (d.contains("results") && d["results"].is_array()) return "lab";
  if (d.contains("rows") && d["rows"].is_array()) return "ablation";
  if (d.contains("hash") && d.contains("ops")) return "stress";
  return "";
}

std::vector<ReportInput> read_report_inputs(const std::vector<std::string>& paths) {
  std::vector<ReportInput> out;
  for (const std::string& p : paths) {
    ReportInput in;
    in.path = p;
    const std::optional<std::string> text = common::read_whole_file(p);  // .gz too
    in.found = text.has_value();
    if (in.found) {
      in.docs = parse_docs(p, *text);
      for (const Json& d : in.docs)
        if (document_kind(d).empty())
          throw std::invalid_argument("report input '" + p + "' holds a document that is none of "
                                      "lab, stress, ablation, match or recommend JSON");
    }
    out.push_back(std::move(in));
  }
  return out;
}

std::string report_html(const std::vector<ReportInput>& inputs) {
  std::vector<Json> stress, labs;
  std::string body;
  std::map<std::string, int> seen;
  for (const ReportInput& in : inputs)
    for (const Json& d : in.docs) {
      const std::string kind = document_kind(d);
      if (kind == "lab") {
        labs.push_back(d);
        continue;
      }
      const int n = ++seen[kind];
      if (kind == "ablation") body += report::ablation_section(d, n);
      else if (kind == "recommend") body += report::recommend_section(d, n);
      else if (kind == "match") body += report::match_section(d, n);
      else if (kind == "stress") stress.push_back(d);
    }
  std::string lab_body;
  for (const Json& d : common::merge_lab_sweeps(labs)) lab_body += report::lab_section(d, ++seen["lab"]);
  body = lab_body + body;
  std::string absent;
  if (!seen.count("lab"))
    absent += report::missing("Lab comparison: no lab input (xqlab lab --json-file FILE); "
                              "speedup, efficiency, overhead and per-position charts are absent.");
  body += report::stress_section(stress);
  if (!seen.count("match"))
    absent += report::missing("Matches: no match input (xqlab match --json); Elo and SPRT "
                              "charts are absent.");
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>xqlab report</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n"
         "<body>\n<h1>xqlab report</h1>\n" + inputs_html(inputs) + absent + body +
         "</body>\n</html>\n";
}

}  // namespace xq::lab::report
