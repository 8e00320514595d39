// The report's hash-scheme, ablation and match charts.
#include <algorithm>
#include <cmath>
#include <set>

#include "lab/report/charts.h"
#include "lab/report/report_parts.h"
#include "lab/report/svg.h"

namespace xq::lab::report {
namespace {

std::string scheme_label(const Json& d, bool several_thread_counts) {
  return str(d, "hash") + (several_thread_counts ? "/" + str(d, "threads") + "t" : "");
}

double per_1e8(const Json& d, const char* key) {
  const double ops = num(d, "ops"), v = num(d, key);
  return ops > 0 && !std::isnan(v) ? 1e8 * v / ops : chart::kNone;
}

// Throughput over that of `unprotected` at the same thread count (NaN when
// no such run is in the inputs).
double relative_throughput(const std::vector<Json>& runs, const Json& d) {
  for (const Json& u : runs)
    if (str(u, "hash") == "unprotected" && str(u, "threads") == str(d, "threads"))
      return num(d, "ops_per_sec") / num(u, "ops_per_sec");
  return chart::kNone;
}

std::string entries_figures(const std::vector<Json>& runs) {
  std::set<std::string> threads;
  for (const Json& d : runs) threads.insert(str(d, "threads"));
  const bool several = threads.size() > 1;
  chart::BarChart speed, errors;
  speed.t = {"hash-throughput", "median throughput relative to unprotected", "hash scheme",
             "operations per second / unprotected's"};
  speed.series = {"relative throughput"};
  speed.values.resize(1);
  speed.refs.push_back({1.0, "unprotected = 1"});
  errors.t = {"hash-errors", "torn entries detected and corrupt entries accepted", "hash scheme",
              "events per 1e8 operations (log)"};
  errors.series = {"torn detected", "corrupt accepted"};
  errors.values.resize(2);
  errors.log = true;
  Table t{{"scheme", "threads", "entries/bucket", "rounds", "ops", "seconds", "ops/s (median)", "ops/s min",
           "ops/s max", "relative", "torn", "corrupt", "torn/1e8", "corrupt/1e8", "command"}, {}};
  bool any_relative = false;
  for (const Json& d : runs) {
    const std::string name = scheme_label(d, several);
    const double rel = relative_throughput(runs, d);
    any_relative |= !std::isnan(rel);
    speed.categories.push_back(name);
    speed.values[0].push_back(rel);
    errors.categories.push_back(name);
    errors.values[0].push_back(per_1e8(d, "torn_detected"));
    errors.values[1].push_back(per_1e8(d, "corrupt_accepted"));
    t.rows.push_back({name, str(d, "threads"), str(d, "bucket_slots"), str(d, "rounds"),
                      cell(num(d, "ops")),
                      cell(num(d, "seconds")), cell(num(d, "ops_per_sec")),
                      cell(num(d, "ops_per_sec_min")), cell(num(d, "ops_per_sec_max")), cell(rel),
                      cell(num(d, "torn_detected")),
                      cell(num(d, "corrupt_accepted")), cell(errors.values[0].back()),
                      cell(errors.values[1].back()),
                      str(d.value("meta", Json::object()), "command")});
  }
  std::string h;
  if (any_relative)
    h += figure(speed.t.id, speed.t.title, chart::bar_chart(speed), runs.front(), t);
  else
    h += missing("Throughput relative to unprotected: no unprotected run at the same thread "
                 "count in the stress inputs.");
  return h + figure(errors.t.id, errors.t.title, chart::bar_chart(errors), runs.front(), t,
                    "Log scale: \"0\" marks a count of zero, which a log axis cannot draw.");
}

std::string marks_figure(const std::vector<Json>& runs) {
  chart::BarChart c;
  c.t = {"hash-marks", "busy-mark losses", "hash scheme", "lost updates per 1e8 operations (log)"};
  c.series = {"lost updates"};
  c.values.resize(1);
  c.log = true;
  Table t{{"scheme", "threads", "ops", "lost updates", "lost/1e8", "underflows", "leaks"}, {}};
  for (const Json& d : runs) {
    c.categories.push_back(str(d, "hash") + "/" + str(d, "threads") + "t");
    const double lost = std::isnan(num(d, "lost_per_1e8")) ? per_1e8(d, "lost_updates")
                                                            : num(d, "lost_per_1e8");
    c.values[0].push_back(lost);
    t.rows.push_back({str(d, "hash"), str(d, "threads"), cell(num(d, "ops")),
                      cell(num(d, "lost_updates")), cell(lost), cell(num(d, "underflows")),
                      cell(num(d, "leaks"))});
  }
  return figure(c.t.id, c.t.title, chart::bar_chart(c), runs.front(), t,
                "Log scale: \"0\" marks no loss.");
}

// Probes of keys never stored that returned an entry (stress mode
// "false-matches"): what a key check shorter than the key lets through.
std::string false_match_figure(const std::vector<Json>& runs) {
  chart::BarChart c;
  c.t = {"hash-false-matches", "false matches of keys never stored", "hash scheme",
         "entries returned per million probes (log)"};
  c.series = {"measured", "predicted by the key check"};
  c.values.resize(2);
  c.log = true;
  Table t{{"scheme", "key bits", "entries", "fill", "probes", "false matches", "per million",
           "predicted"}, {}};
  for (const Json& d : runs) {
    c.categories.push_back(str(d, "hash") + "/" + str(d, "entries"));
    const double probes = num(d, "probes");
    c.values[0].push_back(num(d, "false_per_million"));
    c.values[1].push_back(probes > 0 ? 1e6 * num(d, "expected_false_matches") / probes
                                     : chart::kNone);
    t.rows.push_back({str(d, "hash"), str(d, "key_bits"), cell(num(d, "entries")),
                      cell(num(d, "fill")), cell(probes), cell(num(d, "false_matches")),
                      cell(num(d, "false_per_million")), cell(num(d, "expected_false_matches"))});
  }
  return figure(c.t.id, c.t.title, chart::bar_chart(c), runs.front(), t,
                "Log scale: \"0\" marks none (a whole-key check predicts about 2^-64 per probe).");
}

}  // namespace

std::string stress_section(const std::vector<Json>& docs) {
  std::vector<Json> entries, marks, false_matches;
  for (const Json& d : docs) {
    const std::string mode = str(d, "mode");
    (mode == "marks" ? marks : mode == "false-matches" ? false_matches : entries).push_back(d);
  }
  std::string h = "<section class=\"hash\">\n<h2>Hash schemes under stress</h2>\n";
  if (entries.empty() && marks.empty())
    return h + missing("Hash schemes: no stress input (xqlab stress --json).") + "</section>\n";
  h += entries.empty() ? missing("Torn and corrupt entries: no entry-mode stress input.")
                       : entries_figures(merge_stress_rounds(entries));
  h += marks.empty() ? missing("Busy-mark losses: no busy-mark stress input (stress mode "
                               "\"marks\") among the inputs.")
                     : marks_figure(marks);
  if (!false_matches.empty()) h += false_match_figure(false_matches);
  return h + "</section>\n";
}

std::string ablation_section(const Json& doc, int n) {
  chart::BarChart c;
  c.t = {id_for("ablation", n), "node reduction by search feature", "configuration",
         "nodes of the first configuration / nodes"};
  Table t{{"configuration", "depth", "avg nodes", "avg ms", "nps", "node reduction"}, {}};
  std::vector<double> depths;
  for (const Json& r : doc.value("rows", Json::array()))
    for (const Json& d : r.value("depths", Json::array())) depths.push_back(num(d, "depth"));
  std::sort(depths.begin(), depths.end());
  depths.erase(std::unique(depths.begin(), depths.end()), depths.end());
  for (double d : depths) c.series.push_back("depth " + svg::short_number(d));
  c.values.assign(depths.size(), {});
  for (const Json& r : doc.value("rows", Json::array())) {
    c.categories.push_back(str(r, "config"));
    for (std::size_t k = 0; k < depths.size(); ++k) {
      double v = chart::kNone;
      for (const Json& d : r.value("depths", Json::array()))
        if (num(d, "depth") == depths[k]) {
          v = num(d, "node_reduction");
          t.rows.push_back({str(r, "label"), svg::short_number(depths[k]),
                            cell(num(d, "avg_nodes")), cell(num(d, "avg_ms")), cell(num(d, "nps")),
                            cell(v)});
        }
      c.values[k].push_back(v);
    }
  }
  std::string h = "<section class=\"ablation\">\n<h2>Serial search ablation</h2>\n";
  if (c.categories.empty()) return h + missing("This ablation input has no rows.") + "</section>\n";
  return h + figure(c.t.id, c.t.title, chart::bar_chart(c), doc, t,
                    "n/a: the depth was not reached by every position.") + "</section>\n";
}

std::string match_section(const Json& doc, int n) {
  const Json& m = doc["match"];
  const Json pairings = m.value("pairings", Json::array());
  std::string h = "<section class=\"match\">\n<h2>Match: " + svg::escape(str(m, "tc")) + ", " +
                  svg::escape(str(m, "games")) + " games</h2>\n";
  if (pairings.empty()) return h + missing("This match input has no pairings.") + "</section>\n";
  chart::IntervalChart elo;
  elo.t = {id_for("match-elo", n), "Elo difference per pairing", "pairing (a vs b)",
           "Elo of a over b"};
  elo.refs.push_back({0.0, "equal strength"});
  Table et{{"pairing", "wins", "draws", "losses", "Elo", "95% low", "95% high", "LOS"}, {}};
  chart::LineChart llr;
  llr.t = {id_for("match-llr", n), "SPRT log-likelihood ratio by games", "games played", "LLR"};
  llr.markers = false;
  Table lt{{"pairing", "elo0", "elo1", "alpha", "beta", "LLR", "lower", "upper", "decision"}, {}};
  std::set<double> bounds;
  for (const Json& p : pairings) {
    const std::string name = str(p, "a") + " vs " + str(p, "b");
    const Json ci = p.value("elo_ci", Json::array());
    const double lo = ci.size() == 2 && ci[0].is_number() ? ci[0].get<double>() : chart::kNone;
    const double hi = ci.size() == 2 && ci[1].is_number() ? ci[1].get<double>() : chart::kNone;
    elo.categories.push_back(name);
    elo.values.push_back(num(p, "elo"));
    elo.lo.push_back(lo);
    elo.hi.push_back(hi);
    et.rows.push_back({name, cell(num(p, "wins")), cell(num(p, "draws")), cell(num(p, "losses")),
                       cell(num(p, "elo")), cell(lo), cell(hi), cell(num(p, "los"))});
    const Json sprt = p.value("sprt", Json());
    if (!sprt.is_object()) continue;
    chart::Series s{name, {}};
    for (const Json& g : p.value("llr_by_games", Json::array()))
      if (g.is_array() && g.size() == 2) s.points.push_back({g[0].get<double>(), g[1].get<double>()});
    llr.series.push_back(s);
    for (const char* b : {"lower", "upper"})
      if (!std::isnan(num(sprt, b))) bounds.insert(num(sprt, b));
    lt.rows.push_back({name, cell(num(sprt, "elo0")), cell(num(sprt, "elo1")),
                       cell(num(sprt, "alpha")), cell(num(sprt, "beta")), cell(num(sprt, "llr")),
                       cell(num(sprt, "lower")), cell(num(sprt, "upper")), str(sprt, "decision")});
  }
  for (double b : bounds) llr.refs.push_back({b, b < 0 ? "lower bound" : "upper bound"});
  h += figure(elo.t.id, elo.t.title, chart::interval_chart(elo), doc, et);
  h += llr.series.empty() ? missing("SPRT: no pairing of this match ran one.")
                          : figure(llr.t.id, llr.t.title, chart::line_chart(llr), doc, lt);
  return h + "</section>\n";
}

}  // namespace xq::lab::report
