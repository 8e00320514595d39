#include "lab/records/json.h"

#include "parallel/params.h"

namespace xq {

void to_json(Json& j, const SearchStats& s) {
  const auto u = [](std::uint64_t v) { return v; };
  j = Json{{"nodes", u(s.nodes)},
           {"qnodes", u(s.qnodes)},
           {"tt_probes", u(s.tt_probes)},
           {"tt_hits", u(s.tt_hits)},
           {"tt_cutoffs", u(s.tt_cutoffs)},
           {"tt_torn", u(s.tt_torn)},
           {"bad_tt_moves", u(s.bad_tt_moves)},
           {"tt_rejected", u(s.tt_rejected)},
           {"fail_highs", u(s.fail_highs)},
           {"first_move_cutoff_rate", s.first_move_cutoff_rate()},
           {"null_tries", u(s.null_tries)},
           {"null_cutoffs", u(s.null_cutoffs)},
           {"reductions", u(s.reductions)},
           {"reduction_researches", u(s.reduction_researches)},
           {"pruned_moves", u(s.pruned_moves)},
           {"static_cutoffs", u(s.static_cutoffs)},
           {"singular_extensions", u(s.singular_extensions)},
           {"splits", u(s.splits)},
           {"eldest_splits", u(s.eldest_splits)},
           {"joins", u(s.joins)},
           {"aborts", u(s.aborts)},
           {"nested_joins", u(s.nested_joins)},
           {"master_joins", u(s.master_joins)},
           {"idle_seconds", double(s.idle_seconds)},
           {"search_seconds", double(s.search_seconds)},
           {"lock_seconds", double(s.lock_seconds)},
           {"copy_seconds", double(s.copy_seconds)},
           {"wasted_nodes", u(s.wasted_nodes)},
           {"busy_answers", u(s.busy_answers)},
           {"deferrals", u(s.deferrals)},
           {"deferred_searches", u(s.deferred_searches)},
           {"cutoff_reprobes", u(s.cutoff_reprobes)},
           {"root_retests", u(s.root_retests)},
           {"root_adoptions", u(s.root_adoptions)},
           {"mark_underflows", u(s.mark_underflows)},
           {"mark_leaks", u(s.mark_leaks)},
           {"gratuitous_splits", u(s.gratuitous_splits)},
           {"late_joins", u(s.late_joins)},
           {"predicted_all", u(s.predicted_all)},
           {"predicted_cut", u(s.predicted_cut)},
           {"prediction_held", u(s.prediction_held)},
           {"tasks", u(s.tasks)},
           {"stolen_tasks", u(s.stolen_tasks)},
           {"researches", u(s.researches)},
           {"critical_path", u(s.critical_path)},
           {"schedule_bound", u(s.schedule_bound)},
           {"master_passes", u(s.master_passes)},
           {"uncertain_leaves", u(s.uncertain_leaves)},
           {"leaf_searches", u(s.leaf_searches)},
           {"cancel_wait_seconds", double(s.cancel_wait_seconds)},
           {"helper_cpu_seconds", double(s.helper_cpu_seconds)},
           {"msgs_sent", u(s.msgs_sent)},
           {"bytes_sent", u(s.bytes_sent)},
           {"msgs_received", u(s.msgs_received)},
           {"bytes_received", u(s.bytes_received)},
           {"entries_offered", u(s.entries_offered)},
           {"entries_shipped", u(s.entries_shipped)},
           {"entries_received", u(s.entries_received)},
           {"remote_probes", u(s.remote_probes)},
           {"remote_wait_seconds", double(s.remote_wait_seconds)}};
}

void to_json(Json& j, const SearchResult& r) {
  const bool none = lab::records::no_iteration_completed(r);
  j = Json::object();
  j["bestmove"] = none ? Json() : Json(move_name(r.best_move));
  j["score"] = none ? Json() : Json(int(r.score));
  const auto mate = r.mate();
  j["mate"] = none || !mate ? Json() : Json(*mate);
  j["depth"] = none ? 0 : int(r.depth);
  Json pv = Json::array();
  if (!none)
    for (Move m : r.pv) pv.push_back(move_name(m));
  j["pv"] = pv;
  j["seconds"] = r.seconds;
  j["nps"] = r.nps();
  j["stopped"] = r.stopped;
  j.update(Json(r.stats));
  if (!r.ranks.empty()) {
    Json ranks = Json::array();
    for (const RankFigures& f : r.ranks)
      ranks.push_back(Json{{"nodes", f.nodes},
                           {"msgs_sent", f.msgs_sent},
                           {"bytes_sent", f.bytes_sent},
                           {"msgs_received", f.msgs_received},
                           {"bytes_received", f.bytes_received}});
    j["ranks"] = ranks;
  }
  if (const std::uint64_t n = r.round_trips.total())
    j["round_trip_us"] = Json{{"count", n},
                              {"p50", r.round_trips.quantile_us(0.5)},
                              {"p99", r.round_trips.quantile_us(0.99)}};
}

void to_json(Json& j, const StressResult& r) {
  j = Json{{"entries", r.entries},
           {"seconds", r.seconds},
           {"ops", r.ops},
           {"ops_per_sec", r.ops_per_sec()},
           {"probes", r.probes},
           {"stores", r.stores},
           {"hits", r.hits},
           {"torn_detected", r.torn_detected},
           {"corrupt_accepted", r.corrupt_accepted},
           {"corrupt_per_million_hits",
            r.hits ? 1e6 * double(r.corrupt_accepted) / double(r.hits) : 0.0}};
}

void to_json(Json& j, const PerftResult& r) {
  Json divide = Json::object();
  for (const auto& [m, n] : r.divide) divide[move_name(m)] = n;
  j = Json{{"fen", r.fen},         {"depth", r.depth},     {"nodes", r.nodes},
           {"seconds", r.seconds}, {"nps", r.nps()},       {"root_moves", r.root_moves},
           {"divide", divide},     {"interrupted", r.interrupted}};
}

void to_json(Json& j, const Catalog& c) {
  j = Json::object();
  for (const CatalogSection& s : c.sections) {
    Json names = Json::array();
    for (const CatalogItem& i : s.items) names.push_back(i.name);
    j[s.key] = names;
  }
  Json pairs = Json::array();
  for (const auto& [b, s] : c.pairs) pairs.push_back(Json::array({b, s}));
  j["pairs"] = pairs;
  Json params = Json::array();
  for (const CatalogParam& p : c.params)
    params.push_back(Json{{"name", p.name},
                          {"range", p.range},
                          {"default", p.default_value},
                          {"backends", p.backends},
                          {"summary", p.summary}});
  j["params"] = params;
  Json tunables = Json::array();
  for (const CatalogTunable& t : c.tunables)
    tunables.push_back(Json{{"name", t.name},
                            {"group", t.group},
                            {"min", t.min},
                            {"max", t.max},
                            {"default", t.default_value},
                            {"summary", t.summary}});
  j["tunables"] = tunables;
}

}  // namespace xq

namespace xq::lab::records {

bool no_iteration_completed(const SearchResult& r) { return !r.completed; }

Json backend_json(std::string_view backend, const BackendConfig& c) {
  Json params = Json::object();
  for (const BackendParam& p : backend_params()) {
    if (p.enumerated()) params[std::string(p.name)] = p.value_text(c);
    else params[std::string(p.name)] = p.get(c);
  }
  return Json{{"backend", std::string(backend)},
              {"hash", c.hash},
              {"threads", c.threads},
              {"hash_mb", c.hash_mib},
              {"params", params}};
}

}  // namespace xq::lab::records
