// The report's "Which backend for N threads": the curves behind each
// decision of `xqlab recommend --threads LIST --json`, and the decisions.
#include <map>
#include <set>

#include "lab/report/charts.h"
#include "lab/report/report_parts.h"
#include "lab/report/svg.h"

namespace xq::lab::report {

namespace {

// `recommend --param-verdict NAME --json`: which setting per backend and
// thread count, as a table.
std::string values_section(const Json& doc) {
  const Json& rec = doc["recommend_values"];
  Table t{{"backend", "threads", "decision", "kind", "evidence", "figure"}, {}};
  if (rec.contains("rows") && rec["rows"].is_array())
    for (const Json& r : rec["rows"])
      t.rows.push_back({str(r, "backend"), str(r, "threads"),
                        str(r, "decision") + (r.value("simulated", false) ? " (SIMULATED)" : ""),
                        str(r, "kind"), str(r, "evidence"), str(r, "figure")});
  const bool scheme = str(rec, "parameter") == "hash";  // each scheme against xor's row
  std::string h = "<section class=\"recommend\">\n<h2>Which " +
                  (scheme ? std::string("hash scheme") : svg::escape(str(rec, "parameter"))) +
                  " for each backend and thread count (" + svg::escape(str(rec, "profile")) +
                  " profile)</h2>\n<p class=\"note\">A default moves only for a setting separated "
                  "from it and faster (paired spreads over runs that do not overlap, or a sign test "
                  "over positions at p &lt; 0.05)." +
                  (scheme ? " Each scheme against the same backend's xor row of one document, "
                            "their times paired by run; each table size apart."
                          : "") +
                  "</p>\n" + meta_html(doc);
  if (t.rows.empty())
    h += missing("no document had a row that ran this parameter beside the same backend at its "
                 "defaults");
  return h + table_html(t) + "</section>\n";
}

}  // namespace

std::string recommend_section(const Json& doc, int n) {
  if (doc.contains("recommend_values")) return values_section(doc);
  const Json& rec = doc["recommend_threads"];
  const Json rows = rec.contains("rows") && rec["rows"].is_array() ? rec["rows"] : Json::array();
  chart::LineChart c;
  c.t = {id_for("which-backend", n), "speedup behind each decision", "threads",
         "speedup (serial time / time)"};
  // One curve per backend and kind: a measured point and a SIMULATED one
  // never share a line.
  std::map<std::string, std::size_t> index;
  double most = 0;
  // The scheme is dropped from the curves' names when every point has the
  // same one (the legend has room for about 26 characters).
  std::set<std::string> schemes;
  for (const Json& r : rows)
    if (r.contains("points") && r["points"].is_array())
      for (const Json& q : r["points"]) {
        const std::string name = str(q, "name");
        const std::size_t slash = name.find('/');
        schemes.insert(slash == std::string::npos ? "" : name.substr(slash, name.find(' ', slash) - slash));
      }
  const bool one_scheme = schemes.size() == 1;
  const auto short_name = [&](std::string name) {
    const std::size_t slash = name.find('/');
    if (one_scheme && slash != std::string::npos)
      name.erase(slash, name.find(' ', slash) == std::string::npos ? std::string::npos
                                                                    : name.find(' ', slash) - slash);
    return name;
  };
  for (const Json& r : rows) {
    if (!r.contains("points") || !r["points"].is_array()) continue;
    const bool simulated = r.value("simulated", false);
    const double p = num(r, "threads");
    for (const Json& q : r["points"]) {
      const std::string name = short_name(str(q, "name")) + (simulated ? " (SIMULATED)" : " (measured)");
      const auto [it, fresh] = index.emplace(name, c.series.size());
      if (fresh) {
        c.series.push_back({name, {}, simulated});
      }
      c.series[it->second].points.push_back({p, num(q, "speedup")});
      most = std::max(most, p);
    }
  }
  c.integer_x = true;
  c.log_x = most >= 32;
  c.ideal_diagonal = true;
  Table t{{"threads", "decision", "kind", "evidence", "figure", "games", "next measurement"}, {}};
  for (const Json& r : rows)
    t.rows.push_back({str(r, "threads"),
                      str(r, "decision") + (r.value("simulated", false) ? " (SIMULATED)" : ""),
                      str(r, "kind"), str(r, "evidence"), str(r, "figure"), str(r, "games"),
                      str(r, "next")});
  std::string h = "<section class=\"recommend\">\n<h2>Which backend for N threads (" +
                  svg::escape(str(rec, "profile")) + " profile)</h2>\n";
  const std::string note =
      "Each decision rests on one document's evidence at its thread count (named in the table): "
      "measured where that document's machine had the cores, SIMULATED beyond (dashed), Elo "
      "where games exist. Profiles and depths are never mixed in a row; the curves join points "
      "that may come from different documents and depths.";
  if (c.series.empty()) {
    h += missing("Which backend for N threads: no time-to-depth evidence in this recommend "
                 "document (its decisions are in the table)");
  } else {
    Table points{{"curve", "threads", "speedup"}, {}};
    for (const chart::Series& sr : c.series)
      for (const chart::Point& q : sr.points)
        points.rows.push_back({sr.name, svg::table_number(q.x), cell(q.y)});
    h += figure(c.t.id, c.t.title, chart::line_chart(c), doc, points, note);
  }
  return h + table_html(t) + "</section>\n";
}

}  // namespace xq::lab::report
