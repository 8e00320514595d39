// merge_lab_sweeps (lab/report_parts.h): the documents of one sweep, run a
// backend at a time, as one lab document.
#include <map>
#include <set>

#include "lab/report/report_parts.h"

namespace xq::lab::report {
namespace {

// What must be equal for two lab documents to be one experiment: how they
// were run (mode, simulated machine, suite, depth, profile, runs, table,
// parameters), everything but which backends.
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

bool is_serial(const Json& r) { return str(r, "backend") == "serial"; }

// A merged document's command, date and commit, each document's own.
Json provenance(const Json& d) {
  Json p = Json::object();
  for (const char* f : {"command", "date", "commit"})
    p[f] = d.contains("meta") && d["meta"].is_object() ? str(d["meta"], f) : "";
  return p;
}

}  // namespace

std::vector<Json> merge_lab_sweeps(const std::vector<Json>& docs) {
  std::vector<Json> out;
  std::map<std::string, std::size_t> index;  // sweep key -> its document in out
  for (const Json& d : docs) {
    const bool simulated = str(d, "mode") == "simulated";
    const auto it = simulated ? index.find(sweep_key(d)) : index.end();
    bool merged = false;
    if (it != index.end()) {
      Json& m = out[it->second];
      // One experiment only when the serial references agree to the node and
      // the virtual second (a simulation repeats exactly) and no other row
      // repeats: a repeated row is a second measurement, not more of the sweep.
      std::map<std::string, const Json*> rows;
      for (const Json& r : m["results"]) rows[row_key(r)] = &r;
      bool same = true, any_serial = false;
      for (const Json& r : d["results"]) {
        const auto hit = rows.find(row_key(r));
        if (is_serial(r)) {
          any_serial = true;
          same = same && hit != rows.end() && num(*hit->second, "nodes") == num(r, "nodes") &&
                 num(*hit->second, "seconds") == num(r, "seconds");
        } else {
          same = same && hit == rows.end();
        }
      }
      if (same && any_serial) {
        for (const Json& r : d["results"])
          if (!is_serial(r)) m["results"].push_back(r);
        if (d.contains("work_span_fits") && d["work_span_fits"].is_array()) {
          if (!m.contains("work_span_fits")) m["work_span_fits"] = Json::array();
          for (const Json& f : d["work_span_fits"]) m["work_span_fits"].push_back(f);
        }
        Json& from = m["meta"]["merged_from"];
        if (!from.is_array()) from = Json::array({provenance(m)});
        from.push_back(provenance(d));
        merged = true;
      }
    }
    if (!merged) {
      if (simulated && it == index.end()) index.emplace(sweep_key(d), out.size());
      out.push_back(d);
    }
  }
  return out;
}

}  // namespace xq::lab::report
