// The lab's charts: speedup and efficiency against threads, search overhead,
// NPS, where the threads' time went, per-position speedups.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "lab/common/counter_figures.h"
#include "lab/report/charts.h"
#include "lab/report/report_parts.h"
#include "lab/report/svg.h"

namespace xq::lab::report {
namespace {

// " NAME=VALUE..." of a row's own parameters (lab --vary), else "".
std::string own_params(const Json& r) {
  std::string s;
  if (r.contains("params") && r["params"].is_array())
    for (const Json& p : r["params"])
      if (p.is_string()) s += " " + p.get<std::string>();
  return s;
}

// "backend/hash/Tt", or ".../RxTt" for a distributed backend's R ranks,
// then the row's own parameters.
std::string label(const Json& r) {
  return str(r, "backend") + "/" + str(r, "hash") + "/" +
         (r.contains("ranks") ? str(r, "ranks") + "x" : "") + str(r, "threads") + "t" +
         own_params(r);
}

bool is_reference(const Json& r) { return str(r, "backend") == "serial"; }

// The serial row of the same scheme: every ratio is against it.
const Json* reference_of(const Json& results, const Json& r) {
  for (const Json& x : results)
    if (is_reference(x) && str(x, "hash") == str(r, "hash")) return &x;
  return nullptr;
}

// Speedups of each run (summed time of the reference's median over the
// run's summed time); empty without per-run figures.
std::vector<double> run_speedups(const Json& r, const Json* ref) {
  std::vector<double> total;
  if (!ref || !r.contains("positions")) return total;
  for (const Json& p : r["positions"]) {
    if (!p.contains("run_seconds") || !p["run_seconds"].is_array()) return {};
    const Json& runs = p["run_seconds"];
    total.resize(std::max(total.size(), runs.size()), 0.0);
    for (std::size_t k = 0; k < runs.size(); ++k)
      total[k] += runs[k].is_number() ? runs[k].get<double>() : chart::kNone;
  }
  const double t_ref = num(*ref, "seconds");
  for (double& t : total) t = t > 0 ? t_ref / t : chart::kNone;
  return total;
}

// One line per backend x scheme (the serial reference is 1 by definition).
std::vector<chart::Series> thread_series(const Json& results, bool efficiency) {
  std::map<std::string, chart::Series> by_name;
  std::vector<std::string> order;
  for (const Json& r : results) {
    if (is_reference(r)) continue;
    // A distributed backend: one line per threads-per-rank, against all
    // its threads (ranks x threads).
    const bool ranked = r.contains("ranks");
    const std::string name = str(r, "backend") + "/" + str(r, "hash") +
                             (ranked ? "/" + str(r, "threads") + "t per rank" : "") + own_params(r);
    if (!by_name.count(name)) order.push_back(name);
    chart::Series& s = by_name[name];
    s.name = name;
    const double t = ranked && r.contains("processors") ? num(r, "processors") : num(r, "threads");
    const double div = efficiency ? t : 1.0;
    chart::Point p{t, num(r, "speedup") / div, num(r, "speedup_min") / div,
                   num(r, "speedup_max") / div};
    const std::vector<double> runs = run_speedups(r, reference_of(results, r));
    if (runs.size() > 1) {
      p.inner_lo = *std::min_element(runs.begin(), runs.end()) / div;
      p.inner_hi = *std::max_element(runs.begin(), runs.end()) / div;
    }
    s.points.push_back(p);
  }
  std::vector<chart::Series> out;
  for (const std::string& n : order) {
    chart::Series s = by_name[n];
    std::sort(s.points.begin(), s.points.end(),
              [](const chart::Point& a, const chart::Point& b) { return a.x < b.x; });
    out.push_back(std::move(s));
  }
  return out;
}

std::string scaling_figure(const Json& doc, int n, bool efficiency) {
  const Json& results = doc["results"];
  chart::LineChart c;
  const std::string what = efficiency ? "efficiency" : "speedup";
  bool ranked = false;
  for (const Json& r : results) ranked = ranked || r.contains("ranks");
  c.t = {id_for(what, n), what + " against threads", ranked ? "threads (ranks x threads per rank)" : "threads",
         efficiency ? "efficiency (speedup / threads)" : "speedup (serial time / time)"};
  c.series = thread_series(results, efficiency);
  const bool simulated = str(doc, "mode") == "simulated";
  for (chart::Series& s : c.series) {
    s.dashed = simulated;
    if (simulated) s.name += " (SIMULATED)";
  }
  double most = 0;
  for (const chart::Series& s : c.series)
    for (const chart::Point& p : s.points) most = std::max(most, p.x);
  // Published curves of other programs beside a simulated one, labelled as
  // theirs: "(other)" (Hyatt's DTS on a Cray C916; Kerrigan's simplified
  // ABDADA); past 16 threads also Feldmann's distributed YBWC on transputers
  // (with a table partitioned by hash: 25 at 32, 34 at 64) and the Amdahl fit
  // S(n) = n(k+1)/(k+n), k = 34 (Ballicora), that reproduces Hyatt's points.
  // Short names: the legend has room for about 26 characters.
  if (simulated && !efficiency && !c.series.empty()) {
    const auto anchor = [most](std::string name, std::vector<std::pair<double, double>> xy) {
      chart::Series a;
      a.name = std::move(name);
      for (const auto& [x, y] : xy)
        if (x <= most) a.points.push_back({x, y, chart::kNone, chart::kNone});
      return a;
    };
    c.series.push_back(anchor("Hyatt DTS, Cray (other)",
                              {{2, 2.0}, {4, 3.7}, {8, 6.6}, {16, 11.1}}));
    c.series.push_back(anchor("Kerrigan ABDADA (other)",
                              {{2, 1.92}, {4, 3.59}, {8, 6.44}}));
    if (most > 16) {
      if (most >= 256)
        c.series.push_back(anchor("Feldmann YBWC (other)",
                                  {{256, 142.0}}));
      c.series.push_back(anchor("Feldmann split table (other)",
                                {{32, 25.0}, {64, 34.0}}));
      std::vector<std::pair<double, double>> fit;
      constexpr double k = 34;
      for (double p = 2; p <= most; p *= 2) fit.emplace_back(p, p * (k + 1) / (k + p));
      c.series.push_back(anchor("Amdahl fit to Hyatt, k=34", fit));
    }
  }
  c.integer_x = true;
  c.log_x = most >= 32;
  if (efficiency) c.refs.push_back({1.0, "ideal"});
  else c.ideal_diagonal = true;
  Table t{{"configuration", what, "per-position min", "per-position max", "per-run min",
           "per-run max"}, {}};
  for (const chart::Series& s : c.series)
    for (const chart::Point& p : s.points)
      t.rows.push_back({s.name + "/" + svg::table_number(p.x) + "t", cell(p.y), cell(p.lo),
                        cell(p.hi), cell(p.inner_lo), cell(p.inner_hi)});
  if (c.series.empty())
    return missing(what + " against threads: no parallel configuration in this lab input");
  std::string note =
      "Thin whiskers: the spread of per-position speedups (min to max); thick bars: "
      "the spread over runs. The serial reference is 1 by definition.";
  if (c.log_x) note += " Threads on a log scale.";
  if (simulated)
    note += " SIMULATED: the model charges nodes and the seams of the search (splits, "
            "joins, hand-overs); it has no caches, no memory bandwidth, no NUMA and no "
            "contention for a line inside a quantum: costs that grow with the threads, so "
            "the dashed curves lean high, the more so the more threads.";
  if (simulated && !efficiency)
    note += " Other programs' curves, marked (other), come from other engines, depths and "
            "machines: "
            "Hyatt's DTS on a Cray C916, Kerrigan's simplified ABDADA, Feldmann's "
            "distributed YBWC on transputers (also with a hash-partitioned table), and "
            "Ballicora's Amdahl fit S(n) = n(k+1)/(k+n), k = 34, to Hyatt's points.";
  return figure(c.t.id, c.t.title, chart::line_chart(c), doc, t, note);
}

std::string per_config_bars(const Json& doc, int n, const char* key, const std::string& id,
                            const std::string& heading, const std::string& y, double ref) {
  chart::BarChart c;
  c.t = {id_for(id, n), heading, "configuration", y};
  c.series = {heading};
  c.values.resize(1);
  Table t{{"configuration", y}, {}};
  for (const Json& r : doc["results"]) {
    c.categories.push_back(label(r));
    c.values[0].push_back(num(r, key));
    t.rows.push_back({label(r), cell(num(r, key))});
  }
  if (ref > 0) c.refs.push_back({ref, "serial = " + svg::short_number(ref)});
  return figure(c.t.id, heading, chart::bar_chart(c), doc, t);
}

std::string time_figure(const Json& doc, int n) {
  static const char* const kParts[] = {"search", "idle", "lock", "copy"};
  chart::BarChart c;
  c.t = {id_for("time-shares", n), "where the threads' time went", "configuration",
         "share of thread time (%)"};
  c.series.assign(std::begin(kParts), std::end(kParts));
  c.values.resize(4);
  c.stacked = true;
  Table t{{"configuration", "search s", "idle s", "lock s", "copy s", "wasted nodes"}, {}};
  for (const Json& r : doc["results"]) {
    if (is_reference(r) || !r.contains("time") || !r["time"].is_object()) continue;
    const Json& tm = r["time"];
    double sum = 0;
    for (const char* p : kParts)
      if (!std::isnan(num(tm, p))) sum += num(tm, p);
    c.categories.push_back(label(r));
    std::vector<std::string> row{label(r)};
    for (std::size_t i = 0; i < 4; ++i) {
      const double v = num(tm, kParts[i]);
      c.values[i].push_back(sum > 0 && !std::isnan(v) ? 100.0 * v / sum : v);
      row.push_back(cell(v));
    }
    row.push_back(cell(num(r, "wasted_nodes")));
    t.rows.push_back(row);
  }
  if (c.categories.empty())
    return missing("Where the threads' time went (search, idle, lock, copy): not measured in "
                   "this lab input (no \"time\" in its results).");
  return figure(c.t.id, c.t.title, chart::bar_chart(c), doc, t,
                "Shares of the seconds summed over threads and runs; n/a marks a part the "
                "backend does not measure.");
}

std::string positions_figure(const Json& doc, int n) {
  chart::StripChart c;
  c.t = {id_for("positions", n), "per-position speedups", "configuration",
         "speedup on one position (serial time / time)"};
  c.refs.push_back({1.0, "serial = 1"});
  Table t{{"configuration"}, {}};
  std::size_t most = 0;
  for (const Json& r : doc["results"]) {
    if (is_reference(r) || !r.contains("positions")) continue;
    c.categories.push_back(label(r));
    std::vector<double> v;
    for (const Json& p : r["positions"]) v.push_back(num(p, "speedup"));
    most = std::max(most, v.size());
    std::vector<std::string> row{label(r)};
    for (double x : v) row.push_back(cell(x, 3));
    t.rows.push_back(row);
    c.values.push_back(std::move(v));
  }
  if (c.categories.empty())
    return missing("Per-position speedups: not in this lab input (no \"positions\" in its "
                   "results; written by xqlab lab --json-file).");
  for (std::size_t i = 0; i < most; ++i) t.head.push_back("#" + std::to_string(i + 1));
  return figure(c.t.id, c.t.title, chart::strip_chart(c), doc, t,
                "One dot per position (median over runs); the bar is the median. Positions in "
                "the order of the suite.");
}

// "remote claims" -> "remote-claims" (an id).
std::string slug(std::string s) {
  std::replace(s.begin(), s.end(), ' ', '-');
  return s;
}

// The declared counters (search/counters.h) of the document's
// configurations, one figure per group: the group's first counter as shown
// (the bars), every counter as shown in the table. A document from before
// they were declared (2026-12-02) carries none: no figure.
std::string counter_figures(const Json& doc, int n) {
  std::vector<std::string> labels;
  std::vector<std::vector<common::CounterFigure>> rows;
  std::vector<std::string> trips;
  for (const Json& r : doc["results"]) {
    std::vector<common::CounterFigure> row;
    if (r.contains("counters") && r["counters"].is_array())
      for (const Json& c : r["counters"]) row.push_back(common::counter_figure(c));
    labels.push_back(label(r));
    rows.push_back(std::move(row));
    const bool has = r.contains("round_trip_us") && r["round_trip_us"].is_object();
    trips.push_back(has ? cell(num(r["round_trip_us"], "p50")) + " / " +
                              cell(num(r["round_trip_us"], "p99"))
                        : "");
  }
  std::string h;
  for (const std::string& g : common::counter_groups(rows)) {
    const std::vector<common::CounterFigure> head = common::group_columns(rows, g);
    chart::BarChart c;
    c.t = {id_for("counters-" + slug(g), n), "counters: " + g, "configuration",
           common::counter_heading(head.front())};
    c.series = {common::counter_heading(head.front())};
    c.values.resize(1);
    Table t{{"configuration"}, {}};
    for (const common::CounterFigure& f : head) t.head.push_back(common::counter_heading(f));
    bool any_trips = false;
    for (std::size_t i = 0; i < rows.size(); ++i)
      any_trips = any_trips || (!trips[i].empty() && !common::cell_of(rows[i], head.front().name).empty());
    if (any_trips) t.head.push_back("round trips p50 / p99 us");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (std::none_of(rows[i].begin(), rows[i].end(),
                       [&](const common::CounterFigure& f) { return f.group == g; }))
        continue;
      std::vector<std::string> row{labels[i]};
      for (const common::CounterFigure& f : head) {
        const std::string v = common::cell_of(rows[i], f.name);
        row.push_back(v.empty() ? cell(chart::kNone) : v);
      }
      if (any_trips) row.push_back(trips[i].empty() ? cell(chart::kNone) : trips[i]);
      t.rows.push_back(std::move(row));
      double first = 0;
      for (const common::CounterFigure& f : rows[i])
        if (f.name == head.front().name && f.known) first = f.shown;
      c.categories.push_back(labels[i]);
      c.values[0].push_back(first);
    }
    std::string note = "Sums over positions (every rank's, for a distributed backend), median "
                       "over runs, shown as each column says (per search, per second of search "
                       "time -- virtual time when simulated --, over another counter, as a "
                       "share of the threads' time, or the serial nodes over it). ";
    for (const common::CounterFigure& f : head) note += f.name + ": " + f.meaning + ". ";
    h += figure(c.t.id, c.t.title, chart::bar_chart(c), doc, t, note);
  }
  return h;
}

// `xqlab lab --by COLUMN`: the speedup of each parallel configuration per
// group of positions, each group against its own serial reference.
std::string groups_figure(const Json& doc, int n) {
  if (!doc.contains("by") || !doc["by"].is_object()) return "";
  const Json& by = doc["by"];
  const std::string column = str(by, "column");
  chart::BarChart c;
  c.t = {id_for("by-group", n), "speedup per " + column, "configuration", "speedup (serial time / time)"};
  Table t{{column, "positions", "configuration", "speedup", "paired min", "paired max",
           "search overhead", "idle share"}, {}};
  for (const Json& g : by.value("groups", Json::array())) {
    const std::string name = str(g, "label");
    const std::size_t positions = g.value("positions", Json::array()).size();
    c.series.push_back(column + " " + name + " (" + std::to_string(positions) + ")");
    std::vector<double> values;
    std::size_t k = 0;
    for (const Json& r : g.value("results", Json::array())) {
      if (num(r, "threads") <= 1 && str(r, "backend") == "serial") continue;
      if (c.series.size() == 1) c.categories.push_back(label(r));
      if (k < c.categories.size() && c.categories[k] == label(r)) values.push_back(num(r, "speedup"));
      ++k;
      const Json paired = r.value("paired_speedup", Json::object());
      const Json loss = r.value("loss", Json::object());
      t.rows.push_back({name, std::to_string(positions), label(r), cell(num(r, "speedup")),
                        cell(paired.is_object() ? num(paired, "min") : chart::kNone),
                        cell(paired.is_object() ? num(paired, "max") : chart::kNone),
                        cell(num(r, "search_overhead")),
                        cell(loss.is_object() ? num(loss, "idle") : chart::kNone)});
    }
    values.resize(c.categories.size(), chart::kNone);
    c.values.push_back(values);
  }
  if (c.categories.empty()) return missing("speedup per " + column + ": no parallel configuration");
  c.refs.push_back({1.0, "serial"});
  return figure(c.t.id, c.t.title, chart::bar_chart(c), doc, t,
                "Each group's figures come from its positions alone, against its own serial "
                "reference (xqlab lab --by " + column + ").");
}

// Work and span of the backends that count the critical path: W/C and the
// burdened parallelism W/(C+Kb) side by side (lab/timing/summary.h).
std::string work_span_figure(const Json& doc, int n) {
  chart::BarChart c;
  c.t = {id_for("work-span", n), "parallelism: W/C and burdened W/(C+Kb)", "configuration",
         "work / critical path"};
  c.series = {"W/C", "W/(C+Kb)"};
  c.values.assign(2, {});
  Table t{{"configuration", "W (nodes)", "C (nodes)", "W/C", "K (split points on C)",
           "b (nodes)", "W/(C+Kb)"}, {}};
  for (const Json& r : doc["results"]) {
    if (!r.contains("work_span") || !r["work_span"].is_object()) continue;
    const Json& w = r["work_span"];
    const double burdened = w.contains("burdened_parallelism") ? num(w, "burdened_parallelism")
                                                               : chart::kNone;
    c.categories.push_back(label(r));
    c.values[0].push_back(num(w, "parallelism"));
    c.values[1].push_back(burdened);
    t.rows.push_back({label(r), cell(num(r, "nodes"), 10), cell(num(w, "critical_path"), 10),
                      cell(num(w, "parallelism")),
                      cell(w.contains("critical_splits") ? num(w, "critical_splits") : chart::kNone, 10),
                      cell(w.contains("burden_nodes") ? num(w, "burden_nodes") : chart::kNone),
                      cell(burdened)});
  }
  if (c.categories.empty()) return "";
  return figure(c.t.id, c.t.title, chart::bar_chart(c), doc, t,
                "W: nodes of every thread; C: the longest chain of nodes searched one after "
                "another; K: the split points on that chain, each of which adds a publish and "
                "a join (b nodes' time: (publish + join) / node of the simulated machine's "
                "costs, or of this machine kind's calibrated profile for real runs) -- the "
                "burden Cilkview adds per spawn. Sums over positions, median over runs.");
}

// What limits the speedup at the largest thread counts (from 16 on): the
// shares of p x T lost to idle threads, synchronisation and search overhead
// (S = p x (1 - idle - sync - overhead), lab/timing/summary.h), beside the
// burdened parallelism and the table's fill.
std::string limits_figure(const Json& doc, int n) {
  const auto processors = [](const Json& r) {
    const double p = num(r, "processors");
    return std::isnan(p) ? num(r, "threads") : p;
  };
  std::set<double> counts;
  for (const Json& r : doc["results"])
    if (!is_reference(r) && !std::isnan(processors(r))) counts.insert(processors(r));
  if (counts.empty() || *counts.rbegin() < 16) return "";
  std::set<double> shown{*counts.rbegin()};
  if (counts.size() > 1) shown.insert(*std::next(counts.rbegin()));
  chart::BarChart c;
  c.t = {id_for("limits", n), "what limits the speedup at the most threads", "configuration",
         "share of p x T"};
  c.series = {"idle", "sync", "search overhead"};
  c.values.assign(3, {});
  Table t{{"configuration", "speedup", "S / p", "idle", "sync", "overhead", "search overhead (SO)",
           "W/(C+Kb)", "table fill (permille)"}, {}};
  for (const Json& r : doc["results"]) {
    if (is_reference(r) || !shown.count(processors(r))) continue;
    const Json loss = r.value("loss", Json::object());
    const auto part = [&](const char* k) { return loss.is_object() ? num(loss, k) : chart::kNone; };
    const Json ws = r.value("work_span", Json::object());
    c.categories.push_back(label(r));
    c.values[0].push_back(part("idle"));
    c.values[1].push_back(part("sync"));
    c.values[2].push_back(part("overhead"));
    t.rows.push_back({label(r), cell(num(r, "speedup")), cell(num(r, "efficiency")),
                      cell(part("idle")), cell(part("sync")), cell(part("overhead")),
                      cell(num(r, "search_overhead")),
                      cell(ws.is_object() ? num(ws, "burdened_parallelism") : chart::kNone),
                      cell(r.contains("hashfull") ? num(r, "hashfull") : chart::kNone)});
  }
  if (c.categories.empty()) return "";
  std::string note =
      "S = p x (1 - idle - sync - overhead) with times summed over threads: each bar is a share "
      "of the thread time that did not become speedup; n/a where the backend does not account "
      "its threads' time. W/(C+Kb) bounds the speedup the tree's critical path allows.";
  if (str(doc, "mode") == "simulated")
    note += " SIMULATED: no caches, memory bandwidth or NUMA, so no time is lost to them here.";
  return figure(c.t.id, c.t.title, chart::bar_chart(c), doc, t, note);
}

}  // namespace

std::string lab_section(const Json& doc, int n) {
  const std::string half =
      doc.contains("suite_half") ? " (" + svg::escape(str(doc, "suite_half")) + " half)" : "";
  std::string h = "<section class=\"lab\">\n<h2>Lab: " + svg::escape(str(doc, "suite")) + half +
                  ", depth " +
                  svg::escape(str(doc, "depth")) + ", " + svg::escape(str(doc, "runs")) +
                  " runs, " + svg::escape(str(doc, "positions")) + " positions</h2>\n";
  if (!doc.contains("results") || !doc["results"].is_array() || doc["results"].empty())
    return h + missing("This lab input has no results.") + "</section>\n";
  h += scaling_figure(doc, n, false);
  h += scaling_figure(doc, n, true);
  h += per_config_bars(doc, n, "search_overhead", "overhead", "search overhead",
                       "nodes / serial nodes", 1.0);
  h += per_config_bars(doc, n, "nps", "nps", "nodes per second", "nodes per second", 0);
  h += time_figure(doc, n);
  h += work_span_figure(doc, n);
  h += limits_figure(doc, n);
  h += counter_figures(doc, n);
  h += positions_figure(doc, n);
  h += groups_figure(doc, n);
  return h + "</section>\n";
}

}  // namespace xq::lab::report
