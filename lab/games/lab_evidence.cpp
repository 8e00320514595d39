#include "lab/games/lab_evidence.h"

#include <set>
#include <sstream>
#include <stdexcept>

#include "lab/common/files.h"
#include "lab/common/lab_merge.h"
#include "lab/common/stats.h"
#include "lab/common/text.h"

namespace xq::lab::games {

std::vector<EvidenceDoc> read_evidence(const std::string& path, const std::string& what) {
  const std::string text = common::read_input_file(path, what + " file");
  std::vector<EvidenceDoc> out;
  try {
    out.push_back({path, Json::parse(text)});
  } catch (const std::exception&) {
    out.clear();
    std::istringstream in(text);
    std::string line;
    try {
      while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos)
          out.push_back({path, Json::parse(line)});
    } catch (const std::exception&) {
      throw std::invalid_argument(what + " file '" + path + "' is not JSON (one object, or one per line)");
    }
  }
  if (out.empty()) throw std::invalid_argument(what + " file '" + path + "' is empty");
  return out;
}

namespace evidence {

using common::fmt;

std::string text_of(const Json& j, const char* key, const std::string& absent) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : absent;
}
double num_of(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : NAN;
}

bool had_the_cores(const Json& doc, int p) {
  const double nproc = doc.contains("meta") ? num_of(doc["meta"], "nproc") : NAN;
  return !std::isnan(nproc) && nproc >= p;
}

std::string name_of(const Json& r, bool with_hash) {
  std::string n = text_of(r, "backend") + (with_hash ? "/" + text_of(r, "hash") : "");
  if (r.contains("ranks") && r["ranks"].is_number())
    n += " " + std::to_string(r["ranks"].get<int>()) + "x" + std::to_string(r.value("threads", 0));
  return n;
}

bool varied(const Json& doc, const Json& r) {
  if (!r.contains("params") || !r["params"].is_array()) return false;
  for (const Json& p : r["params"]) {
    if (!p.is_string()) continue;
    const std::string a = p.get<std::string>();
    const std::size_t eq = a.find('=');
    if (eq == std::string::npos) return true;
    const std::string name = a.substr(0, eq), value = a.substr(eq + 1);
    const Json& base = doc.contains("params") ? doc["params"] : Json();
    if (!base.is_object() || !base.contains(name)) return true;
    const Json& v = base[name];
    if ((v.is_string() ? v.get<std::string>() : v.dump()) != value) return true;
  }
  return false;
}

int processors_of(const Json& r) {
  if (r.contains("processors") && r["processors"].is_number()) return r["processors"].get<int>();
  return r.value("threads", 0);
}

std::vector<EvidenceDoc> merged_sweeps(const std::vector<EvidenceDoc>& labs) {
  std::vector<Json> docs;
  for (const EvidenceDoc& d : labs) docs.push_back(d.doc);
  std::vector<EvidenceDoc> merged;
  for (const std::vector<std::size_t>& g : common::sweep_groups(docs)) {
    std::string path;
    for (const std::size_t k : g) path += (path.empty() ? "" : " + ") + labs[k].path;
    merged.push_back({path, common::merge_sweep(docs, g)});
  }
  return merged;
}

bool speaks_for(const Json& j, int p, const std::string& profile) {
  if (text_of(j, "profile", "thesis") != profile) return false;
  if (text_of(j, "mode", "measured") == "simulated") {
    const Json& s = j["simulation"];
    const double cores = num_of(s, "cores");
    return !(!std::isnan(cores) && cores > 0 && cores < p) && text_of(s, "overrides").empty();
  }
  return had_the_cores(j, p);
}

Contender contender_of(const Json& r) {
  Contender c;
  c.name = name_of(r);
  c.backend = text_of(r, "backend");
  c.speedup = num_of(r, "speedup");
  c.so = num_of(r, "search_overhead");
  if (r.contains("paired_speedup") && r["paired_speedup"].is_object()) {
    c.lo = num_of(r["paired_speedup"], "min");
    c.hi = num_of(r["paired_speedup"], "max");
    if (r["paired_speedup"].contains("runs")) c.runs = int(r["paired_speedup"]["runs"].size());
  }
  if (r.contains("positions"))
    for (const Json& q : r["positions"]) c.seconds.push_back(num_of(q, "seconds"));
  return c;
}

SignCount sign_count(const Contender& a, const Contender& b) {
  SignCount s;
  for (std::size_t i = 0; i < std::min(a.seconds.size(), b.seconds.size()); ++i) {
    if (a.seconds[i] < b.seconds[i]) ++s.faster;
    else if (a.seconds[i] > b.seconds[i]) ++s.slower;
  }
  return s;
}

bool faster_separated(const Contender& a, const Contender& b, SignCount* count) {
  const SignCount s = sign_count(a, b);
  if (count) *count = s;
  const bool spreads = a.runs >= 2 && b.runs >= 2 && !std::isnan(a.lo) && !std::isnan(b.hi) &&
                       a.lo > b.hi;
  return spreads || (s.faster > s.slower && common::sign_test_p(s.faster, s.slower) < kAlpha);
}

std::string spread(const Contender& c) {
  return std::isnan(c.lo) || c.runs < 2 ? "" : " [" + fmt("%.3f", c.lo) + ", " + fmt("%.3f", c.hi) + "]";
}

std::string n_threads(int p) { return std::to_string(p) + (p == 1 ? " thread" : " threads"); }

}  // namespace evidence
}  // namespace xq::lab::games
