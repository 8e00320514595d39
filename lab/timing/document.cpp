#include "lab/timing/document.h"

#include <string>
#include <thread>

#include "lab/records/json.h"
#include "lab/timing/positions.h"

namespace xq::lab::timing {

void to_json(Json& j, const LabSummary& r) {
  j = Json{{"backend", r.config.backend},
           {"hash", r.config.hash},
           {"threads", r.config.threads},
           {"seconds", r.seconds},
           {"ms_per_position", r.ms_per_position},
           {"speedup", r.speedup},
           {"efficiency", r.efficiency},
           {"nodes", r.nodes},
           {"search_overhead", r.overhead},
           {"nps", r.nps},
           {"tt_hits", r.tt_hits},
           {"tt_hit_rate", r.tt_hit_rate},
           {"splits", r.splits},
           {"joins", r.joins},
           {"aborts", r.aborts},
           {"bestmove_agreement", r.agreement},
           {"speedup_min", r.spread_min},
           {"speedup_median", r.spread_median},
           {"speedup_max", r.spread_max}};
  if (r.hashfull >= 0) j["hashfull"] = r.hashfull;
  // Absent, not zero, when the backend does not account its threads' time.
  if (r.timed) {
    j["time"] = Json{
        {"search", r.time_search}, {"idle", r.time_idle}, {"lock", r.time_lock}, {"copy", r.time_copy}};
    j["wasted_nodes"] = r.wasted_nodes;
  }
  if (r.has_loss)
    j["loss"] = Json{{"idle", r.loss_idle}, {"sync", r.loss_sync}, {"overhead", r.loss_overhead}};
  j["paired_speedup"] = r.run_speedups.empty()
                            ? Json()
                            : Json{{"median", r.paired_median},
                                   {"min", r.paired_min},
                                   {"max", r.paired_max},
                                   {"runs", r.run_speedups}};
  Json runs = Json::array();
  for (const RunCpu& c : r.cpu_runs)
    runs.push_back(Json{{"run", c.run},
                        {"seconds", c.seconds},
                        {"cpu_seconds", c.cpu_seconds},
                        {"cpu_share", c.cpu_share},
                        {"load_average", c.load_average < 0 ? Json() : Json(c.load_average)},
                        {"contested", c.contested}});
  j["runs"] = runs;
  j["cpu_share"] = r.cpu_share;
  j["processors"] = r.processors;
  // A distributed backend's ranks (threads is then per rank).
  if (r.ranks > 0) j["ranks"] = r.ranks;
  // Its own parameters (--vary), over the document's base params.
  if (!r.config.params.empty()) j["params"] = r.config.params;
  j["contested"] = r.contested;
  if (r.has_span())
    j["work_span"] = Json{{"critical_path", r.critical_path},
                          {"parallelism", r.parallelism},
                          {"critical_splits", r.critical_splits},
                          {"burden_nodes", r.burden_nodes},
                          {"burdened_parallelism", r.burdened_parallelism}};
  if (r.has_round_trips())
    j["round_trip_us"] = Json{{"p50", r.round_trip_p50_us}, {"p99", r.round_trip_p99_us}};
  // The declared counters (search/counters.h), each with what a reader
  // needs to show it: its group, unit and Show, the median over runs of
  // its sum over positions, and that sum as shown (null: unknown).
  Json counters = Json::array();
  for (const CounterFigure& f : r.counters) counters.push_back(f);
  j["counters"] = counters;
}

void to_json(Json& j, const WorkSpanFit& f) {
  j = Json{{"backend", f.backend},   {"hash", f.hash}, {"threads", f.threads},
           {"samples", f.samples},   {"seconds_per_node", f.seconds_per_node},
           {"a", f.a},               {"b", f.b},       {"r2", f.r2},
           {"model", "T = a W / P + b C (W, C in serial seconds)"}};
}

Json lab_summary_json(const LabSettings& s, std::size_t positions,
                      const std::vector<LabSummary>& rows) {
  const std::string note = oversubscription_note(s);
  Json j{{"mode", s.sim ? "simulated" : "measured"},
         {"simulation", s.sim ? sim_settings_json(*s.sim, s.runs) : Json()},
         {"suite", s.suite_path},
         {"positions", positions},
         {"depth", s.depth},
         {"profile", profile_name(s.features)},
         {"features", s.features.to_string()},
         {"runs", s.runs},
         {"hash_mb", s.base.hash_mib},
         {"cores", std::thread::hardware_concurrency()},
         {"speedup_definition", "ratio of summed times, median over runs"},
         {"note", note.empty() ? Json() : Json(note)},
         {"params", records::backend_json("", s.base)["params"]},
         {"results", rows}};
  if (s.suite_half != "all") j["suite_half"] = s.suite_half;
  return j;
}

Json groups_json(const std::string& column, const std::vector<GroupSummary>& groups) {
  Json list = Json::array();
  for (const GroupSummary& g : groups) {
    Json positions = Json::array();
    for (int p : g.positions) positions.push_back(p + 1);
    list.push_back(Json{{"label", g.label}, {"positions", positions}, {"results", g.rows}});
  }
  return Json{{"column", column}, {"groups", list}};
}

Json lab_document(const common::RunMeta& meta, const LabSettings& s,
                  const std::vector<common::SuiteEntry>& suite, const std::vector<LabRun>& runs,
                  const std::vector<LabSummary>& rows) {
  Json doc{{"meta", meta}};
  doc.update(lab_summary_json(s, suite.size(), rows));
  const std::vector<Json> positions = position_figures(s, suite, runs);
  for (std::size_t i = 0; i < positions.size(); ++i)
    doc["results"][i]["positions"] = positions[i];
  const std::vector<WorkSpanFit> fits = fit_work_span(s, runs);
  if (!fits.empty()) doc["work_span_fits"] = fits;
  return doc;
}

}  // namespace xq::lab::timing
