#include "lab/records/json.h"

#include "parallel/params.h"

namespace xq {

void to_json(Json& j, const SearchStats& s) {
  // The core counters keep the names and places they always had; the
  // declared ones (search/counters.h) go under "counters", those the
  // search moved (absent: zero).
  j = Json::object();
  Json declared = Json::object();
  for_each_counter(s, [&](const char* name, const auto& c) {
    if (!find_declared(name)) j[name] = c.load();
    else if (c.load() != 0) declared[name] = c.load();
  });
  j["first_move_cutoff_rate"] = s.first_move_cutoff_rate();
  j["counters"] = declared;
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
