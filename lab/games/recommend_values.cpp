#include "lab/games/recommend_values.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "lab/common/stats.h"
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
using evidence::num_of;
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
  const Json* base = nullptr;                               // the row at the defaults
  std::vector<std::pair<std::string, const Json*>> alts;  // settings, row
};

// What a row stands for in the verdict on `name`: its group (the rows that
// compete), whether it is the reference, and else its setting ("" for a row
// that has no part). For a backend parameter: backend/hash, the row at the
// document's settings, the rows that ran `name` with lab --vary. For the
// hash scheme: the backend (ranks x threads too), the reference scheme's
// row, every other scheme's, all at the document's settings.
struct Role {
  std::string group, setting;
  bool base = false;
};
Role role_of(const Json& j, const Json& r, const std::string& name) {
  Role o;
  if (name == "hash") {
    if (varied(j, r)) return o;
    o.group = name_of(r, false) + ", " + fmt("%g", j.value("hash_mb", 0.0)) +
              " MiB table";  // sizes never compete
    o.base = text_of(r, "hash") == kReferenceScheme;
    if (!o.base) o.setting = "hash=" + text_of(r, "hash");
    return o;
  }
  if (text_of(r, "backend") == "serial") return o;
  o.group = name_of(r);
  o.base = !varied(j, r);
  if (!o.base && sets(r, name)) o.setting = settings_of(r);
  return o;
}

// Summed seconds of each run of a row (the lab's "runs").
std::vector<double> run_seconds(const Json& r) {
  std::vector<double> out;
  if (r.contains("runs") && r["runs"].is_array())
    for (const Json& x : r["runs"]) out.push_back(num_of(x, "seconds"));
  return out;
}

// Two schemes' rows of one backend as contenders whose "speedup" is the
// reference's time over the row's, paired by run (the lab interleaves the
// configurations within a run; a SIMULATED run is one seed for both), so
// that the rule compares their times and not two different serial bases.
std::pair<Contender, Contender> against_reference(const Json& ref, const Json& row) {
  Contender b = contender_of(ref), a = contender_of(row);
  const std::vector<double> tb = run_seconds(ref), ta = run_seconds(row);
  std::vector<double> ratios;
  for (std::size_t i = 0; i < std::min(tb.size(), ta.size()); ++i)
    if (ta[i] > 0 && tb[i] > 0) ratios.push_back(tb[i] / ta[i]);
  b.speedup = 1;
  a.speedup = ratios.empty() ? num_of(ref, "seconds") / num_of(row, "seconds") : common::median(ratios);
  a.runs = b.runs = int(ratios.size());
  b.lo = b.hi = ratios.empty() ? NAN : 1.0;
  a.lo = ratios.empty() ? NAN : *std::min_element(ratios.begin(), ratios.end());
  a.hi = ratios.empty() ? NAN : *std::max_element(ratios.begin(), ratios.end());
  return {b, a};
}

// Nodes and the table's fill of a scheme's row against the reference's.
std::string table_figures(const Json& ref, const Json& row) {
  std::string s;
  if (!std::isnan(num_of(row, "nodes")) && !std::isnan(num_of(ref, "nodes")))
    s += ", nodes " + fmt("%.3f", num_of(row, "nodes") / num_of(ref, "nodes")) + " of the reference's";
  if (!std::isnan(num_of(row, "hashfull")) && !std::isnan(num_of(ref, "hashfull")))
    s += ", fill " + fmt("%.0f", num_of(row, "hashfull")) + " / " + fmt("%.0f", num_of(ref, "hashfull")) +
         " per mille";
  return s;
}

}  // namespace

std::vector<ValueDecision> recommend_values(const std::vector<int>& threads,
                                            const std::string& profile, const std::string& name,
                                            const std::vector<EvidenceDoc>& labs) {
  const std::vector<EvidenceDoc> merged = merged_sweeps(labs);
  std::vector<ValueDecision> out;
  for (const int p : threads) {
    std::map<std::string, ValueEvidence> best;  // group (role_of) -> its evidence
    std::vector<std::string> order;
    for (const EvidenceDoc& d : merged) {
      const Json& j = d.doc;
      if (!j.contains("results") || !speaks_for(j, p, profile)) continue;
      std::map<std::string, ValueEvidence> here;
      std::vector<std::string> seen;  // the document's order
      for (const Json& r : j["results"]) {
        if (processors_of(r) != p) continue;
        const Role o = role_of(j, r, name);
        if (o.group.empty() || (!o.base && o.setting.empty())) continue;
        if (!here.count(o.group)) seen.push_back(o.group);
        ValueEvidence& e = here[o.group];
        if (o.base) e.base = &r;
        else e.alts.emplace_back(o.setting, &r);
      }
      for (const std::string& who : seen) {
        ValueEvidence& e = here[who];
        if (!e.base || e.alts.empty()) continue;
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
      const bool scheme = name == "hash";
      std::string dflt = name + "=" + std::string(kReferenceScheme);
      if (!scheme) {
        const Json& base = e.doc->doc.contains("params") ? e.doc->doc["params"] : Json();
        dflt = name + "=" + (base.is_object() && base.contains(name)
                                 ? (base[name].is_string() ? base[name].get<std::string>() : base[name].dump())
                                 : std::string("?"));
      }
      const Contender base = contender_of(*e.base);
      v.figure = scheme ? "time of " + dflt + " over each scheme's, paired by run"
                        : "S " + dflt + " " + fmt("%.3f", base.speedup) + spread(base);
      const std::string* ship = nullptr;
      double ship_speed = 0;
      for (const auto& [setting, row] : e.alts) {
        Contender ref = base, alt = contender_of(*row);
        if (scheme) std::tie(ref, alt) = against_reference(*e.base, *row);
        SignCount c;
        const bool faster = faster_separated(alt, ref, &c);
        const bool slower = faster_separated(ref, alt);
        v.figure += "; " + setting + " " + fmt("%.3f", alt.speedup) + spread(alt) +
                    (scheme ? table_figures(*e.base, *row) : "") + ", faster on " +
                    std::to_string(c.faster) + " of " + std::to_string(c.faster + c.slower) +
                    " positions" +
                    (faster ? " (separated, faster)" : slower ? " (separated, slower)" : " (undecided)");
        if (faster && (!ship || alt.speedup > ship_speed)) {
          ship = &setting;
          ship_speed = alt.speedup;
        }
      }
      v.changed = ship != nullptr;
      v.decision = ship ? "ship " + *ship : "keep " + dflt;
      out.push_back(v);
    }
  }
  return out;
}

std::string values_text(const std::vector<ValueDecision>& rows, const std::string& profile,
                        const std::string& name) {
  std::string s = "Which " + (name == "hash" ? std::string("hash scheme") : name) + " for each backend and thread count, " + profile +
                  " profile, from documents (a default moves only for a separated, faster setting)\n";
  if (rows.empty())
    s += name == "hash" ? "no document ran another scheme beside " + std::string(kReferenceScheme) +
                              " for the same backend at these thread counts\n"
                        : "no document has a row that ran " + name +
                              " (lab --vary) beside the same backend at its defaults at these "
                              "thread counts\n";
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
