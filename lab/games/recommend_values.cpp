#include "lab/games/recommend_values.h"

#include <map>
#include <tuple>

#include "lab/common/text.h"

namespace xq::lab::games {
namespace {

using common::fmt;
using evidence::Contender;
using evidence::contender_of;
using evidence::faster_separated;
using evidence::merged_sweeps;
using evidence::n_threads;
using evidence::name_of;
using evidence::processors_of;
using evidence::SignCount;
using evidence::speaks_for;
using evidence::spread;
using evidence::text_of;
using evidence::varied;

// The row's own settings (lab --vary), as the lab labels them.
std::string settings_of(const Json& r) {
  std::string out;
  if (r.contains("params") && r["params"].is_array())
    for (const Json& q : r["params"])
      if (q.is_string()) out += (out.empty() ? "" : " ") + q.get<std::string>();
  return out;
}

bool sets(const Json& r, const std::string& name) {
  if (!r.contains("params") || !r["params"].is_array()) return false;
  for (const Json& q : r["params"])
    if (q.is_string() && q.get<std::string>().rfind(name + "=", 0) == 0) return true;
  return false;
}

struct ValueEvidence {
  const EvidenceDoc* doc = nullptr;
  bool simulated = false;
  int depth = 0, positions = 0, runs = 0;
  Contender base;                                      // the row at the defaults
  std::vector<std::pair<std::string, Contender>> alts;  // settings, row
};

}  // namespace

std::vector<ValueDecision> recommend_values(const std::vector<int>& threads,
                                            const std::string& profile, const std::string& name,
                                            const std::vector<EvidenceDoc>& labs) {
  const std::vector<EvidenceDoc> merged = merged_sweeps(labs);
  std::vector<ValueDecision> out;
  for (const int p : threads) {
    std::map<std::string, ValueEvidence> best;  // backend/hash -> its evidence
    std::vector<std::string> order;
    for (const EvidenceDoc& d : merged) {
      const Json& j = d.doc;
      if (!j.contains("results") || !speaks_for(j, p, profile)) continue;
      std::map<std::string, ValueEvidence> here;
      std::vector<std::string> seen;  // the document's order
      for (const Json& r : j["results"]) {
        if (text_of(r, "backend") == "serial" || processors_of(r) != p) continue;
        const std::string who = name_of(r);
        if (!here.count(who)) seen.push_back(who);
        ValueEvidence& e = here[who];
        if (!varied(j, r)) e.base = contender_of(r);
        else if (sets(r, name)) e.alts.emplace_back(settings_of(r), contender_of(r));
      }
      for (const std::string& who : seen) {
        ValueEvidence& e = here[who];
        if (e.base.name.empty() || e.alts.empty()) continue;
        e.doc = &d;
        e.simulated = text_of(j, "mode", "measured") == "simulated";
        e.depth = j.value("depth", 0);
        e.positions = j.value("positions", 0);
        e.runs = j.value("runs", 1);
        const auto key = [](const ValueEvidence& v) {
          return std::tuple(!v.simulated, v.depth, v.positions * v.runs);
        };
        const auto it = best.find(who);
        if (it == best.end()) order.push_back(who);
        if (it == best.end() || key(e) > key(it->second)) best[who] = e;
      }
    }
    for (const std::string& who : order) {
      const ValueEvidence& e = best[who];
      ValueDecision v;
      v.backend = who;
      v.threads = p;
      v.kind = e.simulated ? "SIMULATED" : "measured";
      v.evidence = v.kind + " time to depth, depth " + std::to_string(e.depth) + ", " +
                   std::to_string(e.positions) + " positions x " + std::to_string(e.runs) +
                   (e.simulated ? " seed(s)" : " run(s)") + " (" + e.doc->path + ")";
      const Json& base = e.doc->doc.contains("params") ? e.doc->doc["params"] : Json();
      const std::string dflt =
          name + "=" + (base.is_object() && base.contains(name)
                            ? (base[name].is_string() ? base[name].get<std::string>() : base[name].dump())
                            : std::string("?"));
      v.figure = "S " + dflt + " " + fmt("%.3f", e.base.speedup) + spread(e.base);
      const std::pair<std::string, Contender>* ship = nullptr;
      for (const auto& alt : e.alts) {
        SignCount c;
        const bool faster = faster_separated(alt.second, e.base, &c);
        const bool slower = faster_separated(e.base, alt.second);
        v.figure += "; " + alt.first + " " + fmt("%.3f", alt.second.speedup) + spread(alt.second) +
                    ", faster on " + std::to_string(c.faster) + " of " +
                    std::to_string(c.faster + c.slower) + " positions" +
                    (faster ? " (separated, faster)" : slower ? " (separated, slower)" : " (undecided)");
        if (faster && (!ship || alt.second.speedup > ship->second.speedup)) ship = &alt;
      }
      v.changed = ship != nullptr;
      v.decision = ship ? "ship " + ship->first : "keep " + dflt;
      out.push_back(v);
    }
  }
  return out;
}

std::string values_text(const std::vector<ValueDecision>& rows, const std::string& profile,
                        const std::string& name) {
  std::string s = "Which " + name + " for each backend and thread count, " + profile +
                  " profile, from documents (a default moves only for a separated, faster setting)\n";
  if (rows.empty())
    s += "no document has a row that ran " + name + " (lab --vary) beside the same backend at its "
         "defaults at these thread counts\n";
  for (const ValueDecision& r : rows) {
    s += r.backend + ", " + n_threads(r.threads) + ": " + r.decision +
         (r.kind == "SIMULATED" ? " (SIMULATED)" : "") + "\n";
    s += "  evidence: " + r.evidence + "\n";
    s += "  figure:   " + r.figure + "\n";
  }
  return s;
}

Json values_json(const std::vector<ValueDecision>& rows, const std::string& profile,
                 const std::string& name) {
  Json out = Json::array();
  for (const ValueDecision& r : rows)
    out.push_back({{"backend", r.backend}, {"threads", r.threads}, {"kind", r.kind},
                   {"simulated", r.kind == "SIMULATED"}, {"decision", r.decision},
                   {"changed", r.changed}, {"evidence", r.evidence}, {"figure", r.figure}});
  return Json{{"profile", profile}, {"parameter", name}, {"rows", out}};
}

}  // namespace xq::lab::games
