#include "lab/report/report_parts.h"

#include <cmath>

#include "lab/report/svg.h"

namespace xq::lab::report {

double num(const Json& j, const char* key) {
  if (!j.is_object()) return std::nan("");
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : std::nan("");
}

std::string str(const Json& j, const char* key) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string missing(const std::string& what) {
  return "<p class=\"missing\">" + svg::escape(what) + "</p>\n";
}

std::string cell(double v, int digits) {
  return std::isnan(v) ? "n/a" : svg::table_number(v, digits);
}

std::string table_html(const Table& t) {
  std::string h = "<table>\n<thead><tr>";
  for (const std::string& c : t.head) h += "<th>" + svg::escape(c) + "</th>";
  h += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    h += "<tr>";
    for (const std::string& c : row) h += "<td>" + svg::escape(c) + "</td>";
    h += "</tr>\n";
  }
  return h + "</tbody>\n</table>\n";
}

namespace {

// The documents a merged sweep came from (merge_lab_sweeps), each with its
// own command, date and commit.
std::string merged_html(const Json& m) {
  if (!m.contains("merged_from") || !m["merged_from"].is_array()) return "";
  std::string h = "<dt>merged from</dt><dd><ol>";
  for (const Json& d : m["merged_from"])
    h += "<li><code>" + svg::escape(str(d, "command")) + "</code>, " + svg::escape(str(d, "date")) +
         ", " + svg::escape(str(d, "commit")) + "</li>";
  return h + "</ol></dd>";
}

}  // namespace

std::string meta_html(const Json& doc) {
  if (!doc.is_object() || !doc.contains("meta") || !doc["meta"].is_object())
    return "<p class=\"meta missing\">command, date, commit and machine: not recorded in this "
           "input (no \"meta\")</p>\n";
  const Json& m = doc["meta"];
  const double load = num(m, "load_average");
  std::string machine = str(m, "nproc") + " hardware threads, " + str(m, "cpu");
  machine += std::isnan(load) ? ", load unknown" : ", load " + svg::table_number(load, 3);
  const std::string build = m.contains("build") ? str(m, "build") : "not recorded";
  return "<dl class=\"meta\"><dt>command</dt><dd><code>" + svg::escape(str(m, "command")) +
         "</code></dd><dt>date</dt><dd>" + svg::escape(str(m, "date")) +
         "</dd><dt>commit</dt><dd>" + svg::escape(str(m, "commit")) +
         "</dd><dt>machine</dt><dd>" + svg::escape(machine) + "</dd><dt>build</dt><dd>" +
         svg::escape(build) + "</dd>" + merged_html(m) + "</dl>\n";
}

std::string figure(const std::string& id, const std::string& heading, const std::string& svg,
                   const Json& doc, const Table& t, const std::string& note) {
  // A simulated lab's figures say so in their heading (and draw dashed).
  const bool simulated = doc.is_object() && doc.contains("mode") && doc["mode"] == "simulated";
  std::string h = "<figure id=\"fig-" + id + "\">\n<h3>" + (simulated ? "SIMULATED: " : "") +
                  svg::escape(heading) + "</h3>\n" + svg;
  if (!note.empty()) h += "<p class=\"note\">" + svg::escape(note) + "</p>\n";
  return h + "<figcaption>\n" + meta_html(doc) + table_html(t) + "</figcaption>\n</figure>\n";
}

std::string id_for(const std::string& base, int n) {
  return n <= 1 ? base : base + "-" + std::to_string(n);
}

}  // namespace xq::lab::report
