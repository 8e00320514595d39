#include "lab/common/lab_merge.h"

#include <map>
#include <string>

namespace xq::lab::common {
namespace {

std::string text(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return "";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

// What must be equal for two lab documents to be one experiment: how they
// were run, everything but which backends.
std::string sweep_key(const Json& d) {
  Json k = Json::object();
  for (const char* f : {"mode", "simulation", "suite", "positions", "depth", "profile",
                        "features", "runs", "hash_mb", "params", "speedup_definition"})
    k[f] = d.contains(f) ? d[f] : Json();
  return k.dump();
}

std::string row_key(const Json& r) {
  Json k = Json::object();
  for (const char* f : {"backend", "hash", "threads", "ranks", "params"})
    k[f] = r.contains(f) ? r[f] : Json();
  return k.dump();
}

bool is_serial(const Json& r) { return text(r, "backend") == "serial"; }

// A merged document's command, date and commit, each document's own.
Json provenance(const Json& d) {
  Json p = Json::object();
  for (const char* f : {"command", "date", "commit"})
    p[f] = d.contains("meta") ? text(d["meta"], f) : "";
  return p;
}

// Whether `d` is more of the experiment whose rows are `rows`.
bool extends(const std::map<std::string, const Json*>& rows, const Json& d) {
  bool any_serial = false;
  for (const Json& r : d["results"]) {
    const auto hit = rows.find(row_key(r));
    if (!is_serial(r)) {
      if (hit != rows.end()) return false;
      continue;
    }
    any_serial = true;
    if (hit == rows.end() || text(*hit->second, "nodes") != text(r, "nodes") ||
        text(*hit->second, "seconds") != text(r, "seconds"))
      return false;
  }
  return any_serial;
}

}  // namespace

std::vector<std::vector<std::size_t>> sweep_groups(const std::vector<Json>& docs) {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::map<std::string, const Json*>> rows;  // per group, its rows by key
  std::map<std::string, std::size_t> open;                // sweep key -> its group
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const Json& d = docs[i];
    const bool simulated = text(d, "mode") == "simulated" && d.contains("results") &&
                           d["results"].is_array();
    const auto it = simulated ? open.find(sweep_key(d)) : open.end();
    if (it != open.end() && extends(rows[it->second], d)) {
      groups[it->second].push_back(i);
      for (const Json& r : d["results"]) rows[it->second].emplace(row_key(r), &r);
      continue;
    }
    if (simulated && it == open.end()) open.emplace(sweep_key(d), groups.size());
    groups.push_back({i});
    rows.emplace_back();
    if (d.contains("results") && d["results"].is_array())
      for (const Json& r : d["results"]) rows.back().emplace(row_key(r), &r);
  }
  return groups;
}

Json merge_sweep(const std::vector<Json>& docs, const std::vector<std::size_t>& group) {
  Json m = docs.at(group.at(0));
  if (group.size() == 1) return m;
  Json from = Json::array({provenance(m)});
  for (std::size_t k = 1; k < group.size(); ++k) {
    const Json& d = docs.at(group[k]);
    for (const Json& r : d["results"])
      if (!is_serial(r)) m["results"].push_back(r);
    if (d.contains("work_span_fits") && d["work_span_fits"].is_array()) {
      if (!m.contains("work_span_fits") || !m["work_span_fits"].is_array())
        m["work_span_fits"] = Json::array();
      for (const Json& f : d["work_span_fits"]) m["work_span_fits"].push_back(f);
    }
    from.push_back(provenance(d));
  }
  m["meta"]["merged_from"] = from;
  return m;
}

std::vector<Json> merge_lab_sweeps(const std::vector<Json>& docs) {
  std::vector<Json> out;
  for (const std::vector<std::size_t>& g : sweep_groups(docs)) out.push_back(merge_sweep(docs, g));
  return out;
}

}  // namespace xq::lab::common
