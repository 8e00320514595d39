#include "lab/games/recommend_threads.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <stdexcept>


#include "lab/common/stats.h"
#include "lab/common/text.h"
#include "lab/games/player.h"
#include "lab/games/transfer.h"

namespace xq::lab::games {
namespace {

using common::fmt;
using evidence::Contender;
using evidence::contender_of;
using evidence::had_the_cores;
using evidence::kAlpha;
using evidence::merged_sweeps;
using evidence::n_threads;
using evidence::name_of;
using evidence::num_of;
using evidence::processors_of;
using evidence::sign_count;
using evidence::SignCount;
using evidence::speaks_for;
using evidence::spread;
using evidence::text_of;
using evidence::varied;




struct LabEvidence {
  const EvidenceDoc* doc = nullptr;
  bool simulated = false;
  int depth = 0, positions = 0, runs = 0;
  std::vector<Contender> rows;  // best speedup first
  std::size_t backends = 0;     // distinct backends among the rows
};




// The document's evidence at p threads, or nothing when it cannot speak for p.
std::optional<LabEvidence> lab_evidence(const EvidenceDoc& d, int p, const std::string& profile) {
  const Json& j = d.doc;
  if (!speaks_for(j, p, profile)) return std::nullopt;
  LabEvidence e;
  e.doc = &d;
  e.simulated = text_of(j, "mode", "measured") == "simulated";
  e.depth = j.value("depth", 0);
  e.positions = j.value("positions", 0);
  e.runs = j.value("runs", 1);
  for (const Json& r : j["results"]) {
    // At one thread the serial search is a contender too.
    if ((p > 1 && text_of(r, "backend") == "serial") || processors_of(r) != p || varied(j, r))
      continue;
    Contender c = contender_of(r);
    if (!std::isnan(c.speedup)) e.rows.push_back(c);
  }
  if (e.rows.empty()) return std::nullopt;
  std::stable_sort(e.rows.begin(), e.rows.end(),
                   [](const Contender& a, const Contender& b) { return a.speedup > b.speedup; });
  std::set<std::string> names;
  for (const Contender& c : e.rows) names.insert(c.backend);
  e.backends = names.size();
  return e;
}

// Documents that compare at least two backends come first, then the deepest
// search, then the most backends, then the most positions x runs.
bool better(const LabEvidence& a, const LabEvidence& b) {
  const auto key = [](const LabEvidence& e) {
    return std::tuple(e.backends >= 2, e.depth, e.backends, e.positions * e.runs);
  };
  return key(a) > key(b);
}


// Positions more, all won by the leader, before the sign test decides.
int positions_needed(SignCount s) {
  for (int m = 1; m <= 1000; ++m)
    if (common::sign_test_p(s.faster + m, s.slower) < kAlpha) return m;
  return -1;
}


struct EloRow {
  std::string name;
  double elo = NAN, lo = NAN, hi = NAN;
  std::int64_t pairs = 0;
};

struct GamesEvidence {
  const EvidenceDoc* doc = nullptr;
  std::string tc;
  int games = 0;
  std::vector<EloRow> rows;  // best Elo first
};

std::optional<GamesEvidence> games_evidence(const EvidenceDoc& d, int p, const std::string& profile) {
  const Json& t = d.doc["transfer"];
  if (t.value("threads", 0) != p || !t.contains("profiles") || !had_the_cores(d.doc, p))
    return std::nullopt;
  for (const Json& prof : t["profiles"]) {
    if (text_of(prof, "profile") != profile) continue;
    GamesEvidence g{&d, text_of(t, "time_control"), t.value("games", 0), {}};
    for (const Json& r : prof["rows"]) {
      if (!r.contains("time") || !r["time"].is_object() || !r["time"].contains("elo")) continue;
      const Json& e = r["time"]["elo"];
      if (!e.is_object()) continue;
      g.rows.push_back({text_of(r, "backend"), num_of(e, "elo"), num_of(e, "lower"),
                        num_of(e, "upper"), e.value("pairs", std::int64_t{0})});
    }
    std::stable_sort(g.rows.begin(), g.rows.end(),
                     [](const EloRow& a, const EloRow& b) { return a.elo > b.elo; });
    if (g.rows.size() >= 1) return g;
  }
  return std::nullopt;
}


bool finite(const EloRow& r) { return std::isfinite(r.lo) && std::isfinite(r.hi); }

bool elo_separated(const EloRow& a, const EloRow& b) {
  return finite(a) && finite(b) && a.pairs >= kMinSeparatingPairs &&
         b.pairs >= kMinSeparatingPairs && a.lo > b.hi;
}

std::string elo_text(const EloRow& r) {
  return r.name + " " + fmt("%.1f", r.elo) + (finite(r) ? " [" + fmt("%.1f", r.lo) + ", " + fmt("%.1f", r.hi) + "]" : " [not estimable]");
}

void decide_by_time(ThreadsDecision& row, const LabEvidence& e, int p) {
  row.kind = e.simulated ? "SIMULATED" : "measured";
  row.evidence = std::string(e.simulated ? "SIMULATED" : "measured") + " time to depth, depth " +
                 std::to_string(e.depth) + ", " + std::to_string(e.positions) + " positions x " +
                 std::to_string(e.runs) + (e.simulated ? " seed(s)" : " run(s)") + ", " +
                 std::to_string(e.backends) + " backend(s) (" + e.doc->path + ")";
  for (const Contender& c : e.rows) row.points.push_back({c.name, c.speedup, c.so});
  const Contender& a = e.rows[0];
  if (e.backends < 2) {
    row.decision = "undecided: only " + a.name + " measured at " + n_threads(p);
    row.figure = "S " + a.name + " " + fmt("%.3f", a.speedup) + spread(a) + ", SO " + fmt("%.3f", a.so);
    row.next = "a lab document with more backends at " + n_threads(p);
    return;
  }
  // The runner-up is the best row of another backend (another scheme of the
  // same backend does not make a second backend).
  std::size_t k = 1;
  while (e.rows[k].backend == a.backend) ++k;  // another backend exists: e.backends >= 2
  const Contender& b = e.rows[k];
  SignCount s;
  const bool separated = evidence::faster_separated(a, b, &s);
  const double sign_p = common::sign_test_p(s.faster, s.slower);
  row.figure = "S " + a.name + " " + fmt("%.3f", a.speedup) + spread(a) + " against " + b.name + " " +
               fmt("%.3f", b.speedup) + spread(b) + "; SO " + fmt("%.3f", a.so) + " / " + fmt("%.3f", b.so) +
               "; faster on " + std::to_string(s.faster) + " of " +
               std::to_string(s.faster + s.slower) + " positions (sign test p " +
               fmt("%.3f", sign_p) + ")";
  row.decided = separated;
  row.decision = row.decided ? a.name : "undecided between " + a.name + " and " + b.name;
  if (row.decided) return;
  const int m = positions_needed(s);
  if (s.faster <= s.slower)
    row.next = "the positions favour neither (" + a.name + " faster on " + std::to_string(s.faster) +
               ", slower on " + std::to_string(s.slower) +
               "): more positions are unlikely to decide; a deeper search or more runs";
  else row.next = m > 0 ? std::to_string(m) + (m == 1 ? " more position" : " more positions") +
                         " at depth " + std::to_string(e.depth) +
                         ", if " + a.name + " is faster on each"
                   : "more positions: the sign test cannot decide at this split";
  if (e.simulated)
    row.next += "; measured: bench/scaling.sh on a machine with at least " + std::to_string(p) +
                " cores";
}

// What a kind of games says at one thread count: a leader and a runner-up,
// whether the games separate them, the line that shows it, what would.
struct GamesVerdict {
  std::string leader, runner_up, text, evidence, next;
  bool separated = false;
};

// Pairs more (as 2 games each) before intervals of half-width `hw` around a
// gap of `gap` stop overlapping, if the gap holds (`per`: "a match", "head
// to head").
std::string more_games(double pairs, double hw, double gap, const std::string& per) {
  if (!(gap > 0) || !std::isfinite(hw))
    return "games favour neither side: no count of games is predicted to separate them";
  const double need = std::ceil(pairs * (hw / gap) * (hw / gap));
  return "about " + std::to_string(std::int64_t(2 * std::max(0.0, need - pairs))) +
         " more games " + per + ", if the gap of " + fmt("%.1f", gap) + " Elo holds";
}


std::optional<GamesVerdict> transfer_verdict(const GamesEvidence& g) {
  const std::string size = std::to_string(g.games) + " games a match at " + g.tc + " (" + g.doc->path + ")";
  GamesVerdict v;
  v.evidence = "Elo against serial at " + g.tc + ", " + size;
  if (g.rows.size() < 2) {
    v.text = "Elo against serial: " + elo_text(g.rows[0]) + "; " + size;
    v.leader = g.rows[0].name;
    v.next = "a second backend's games at this thread count";
    return v;
  }
  const EloRow& a = g.rows[0];
  const EloRow& b = g.rows[1];
  v.leader = a.name;
  v.runner_up = b.name;
  v.separated = elo_separated(a, b);
  v.text = "Elo against serial: " + elo_text(a) + " against " + elo_text(b) + "; " + size +
           (v.separated ? "; separated" : "; not separated");
  if (!v.separated)
    v.next = finite(a) && finite(b)
                 ? more_games(double(std::max(a.pairs, b.pairs)), (a.hi - a.lo) / 2 + (b.hi - b.lo) / 2,
                              a.elo - b.elo, "a match")
                 : more_games(0, NAN, 0, "");
  return v;
}

// Merges what the games say into the row: they decide a row that has no
// time to depth, and undo a decision they contradict.
void weigh_games(ThreadsDecision& row, const GamesVerdict& v) {
  if (row.kind == "none") {
    row.kind = "games";
    row.evidence = v.evidence;
    row.figure = v.text;
    row.decided = v.separated;
    row.decision = v.separated ? v.leader
                   : v.runner_up.empty()
                       ? "undecided: only " + v.leader + " played at " + n_threads(row.threads)
                       : "undecided between " + v.leader + " and " + v.runner_up;
    row.next = v.separated ? "" : v.next;
    return;
  }
  row.games += (row.games.empty() ? "" : "; ") + v.text;
  if (!v.separated) return;
  const std::string& lead = v.leader;
  if (!row.decided) {  // time to depth could not decide: the games do
    row.kind = "games";
    row.decided = true;
    row.decision = lead + " (by games; time to depth undecided)";
    row.next.clear();
    return;
  }
  if (row.decided && row.decision.rfind(lead + "/", 0) != 0 && row.decision != lead) {
    row.decided = false;
    row.next = "the games (" + lead + ") and time to depth (" + row.decision +
               ") disagree: more of both";
    row.decision = "undecided: time to depth says " + row.decision + ", games say " + lead;
  }
}

// An xqlab engine spec's fields (lab/games/player.h reads them alike).
std::map<std::string, std::string> spec_fields(const std::string& spec) {
  std::map<std::string, std::string> f;
  for (auto& [key, value] : xqlab_spec_pairs(spec)) f[key] = value;
  return f;
}

// Head-to-head games between two xqlab backends at p threads, the profile
// asked for (`xqlab match --json`): the pairing with the most games.
std::optional<GamesVerdict> match_verdict(const EvidenceDoc& d, int p, const std::string& profile) {
  const Json& m = d.doc["match"];
  if (!m.contains("engines") || !m.contains("pairings") || !had_the_cores(d.doc, p)) return std::nullopt;
  std::map<std::string, std::map<std::string, std::string>> engines;  // name -> spec fields
  for (const Json& e : m["engines"]) engines[text_of(e, "name")] = spec_fields(text_of(e, "spec"));
  const auto at_p = [&](const std::string& name) {
    const auto it = engines.find(name);
    if (it == engines.end() || it->second.count("backend") == 0) return std::string();
    const auto& f = it->second;
    const int t = f.count("threads") ? std::atoi(f.at("threads").c_str()) : 1;
    const std::string prof = f.count("profile") ? f.at("profile") : "thesis";
    return t == p && prof == profile ? f.at("backend") : std::string();
  };
  const Json* best = nullptr;
  int most = 0;
  for (const Json& q : m["pairings"]) {
    const std::string a = at_p(text_of(q, "a")), b = at_p(text_of(q, "b"));
    const int games = q.value("wins", 0) + q.value("draws", 0) + q.value("losses", 0);
    if (a.empty() || b.empty() || a == b || games <= most) continue;
    best = &q;
    most = games;
  }
  if (!best) return std::nullopt;
  const Json& q = *best;
  std::string a = at_p(text_of(q, "a")), b = at_p(text_of(q, "b"));
  double elo = num_of(q, "elo"), lo = NAN, hi = NAN;
  if (q.contains("elo_ci") && q["elo_ci"].is_array() && q["elo_ci"].size() == 2 &&
      q["elo_ci"][0].is_number() && q["elo_ci"][1].is_number()) {
    lo = q["elo_ci"][0].get<double>();
    hi = q["elo_ci"][1].get<double>();
  }
  GamesVerdict v;
  const std::string size = std::to_string(most) + " games at " + text_of(m, "tc") + " (" + d.path + ")";
  v.evidence = "head-to-head games, " + size;
  v.text = a + " against " + b + ": " + fmt("%+.1f", elo) +
           (std::isfinite(lo) && std::isfinite(hi)
                ? " Elo [" + fmt("%+.1f", lo) + ", " + fmt("%+.1f", hi) + "]"
                : " Elo [not estimable]") +
           "; " + size;
  v.separated = std::isfinite(lo) && std::isfinite(hi) && (lo > 0 || hi < 0) &&
                most >= 2 * kMinSeparatingPairs;
  if (elo < 0) std::swap(a, b);
  v.leader = a;
  v.runner_up = b;
  if (!v.separated)
    v.next = more_games(most / 2.0, (hi - lo) / 2, std::abs(elo), "head to head");
  return v;
}

}  // namespace


std::vector<ThreadsDecision> recommend_threads(const std::vector<int>& threads,
                                               const std::string& profile,
                                               const std::vector<EvidenceDoc>& labs,
                                               const std::vector<EvidenceDoc>& games) {
  for (const EvidenceDoc& d : labs)
    if (!d.doc.is_object() || !d.doc.contains("results") || !d.doc["results"].is_array())
      throw std::invalid_argument("recommend: '" + d.path + "' is not a lab document (no \"results\")");
  for (const EvidenceDoc& d : games)
    if (!d.doc.is_object() || !((d.doc.contains("transfer") && d.doc["transfer"].is_object()) ||
                                (d.doc.contains("match") && d.doc["match"].is_object())))
      throw std::invalid_argument("recommend: '" + d.path +
                                  "' is neither a transfer nor a match document");
  const std::vector<EvidenceDoc> merged = merged_sweeps(labs);
  std::vector<ThreadsDecision> out;
  for (const int p : threads) {
    ThreadsDecision row;
    row.threads = p;
    row.kind = "none";
    std::optional<LabEvidence> measured, simulated;
    for (const EvidenceDoc& d : merged) {
      std::optional<LabEvidence> e = lab_evidence(d, p, profile);
      if (!e) continue;
      std::optional<LabEvidence>& slot = e->simulated ? simulated : measured;
      if (!slot || better(*e, *slot)) slot = std::move(e);
    }
    if (measured) decide_by_time(row, *measured, p);
    else if (simulated) decide_by_time(row, *simulated, p);
    std::optional<GamesEvidence> transfer;
    for (const EvidenceDoc& d : games) {
      if (!d.doc.contains("transfer")) continue;
      std::optional<GamesEvidence> g = games_evidence(d, p, profile);
      if (g && (!transfer || g->games > transfer->games)) transfer = std::move(g);
    }
    if (transfer)
      if (const std::optional<GamesVerdict> v = transfer_verdict(*transfer)) weigh_games(row, *v);
    for (const EvidenceDoc& d : games)
      if (d.doc.contains("match"))
        if (const std::optional<GamesVerdict> v = match_verdict(d, p, profile)) weigh_games(row, *v);
    if (row.kind == "none") {
      row.decision = "no evidence";
      row.evidence = "no lab document of the " + profile + " profile at " + n_threads(p) +
                     " (measured on at least " + std::to_string(p) +
                     " core(s), or SIMULATED), no games";
      row.next = "bench/many_cores.sh with THREADS=" + std::to_string(p) +
                 " (SIMULATED), or bench/scaling.sh on a machine with at least " +
                 std::to_string(p) + " cores";
    }
    out.push_back(row);
  }
  return out;
}

std::string threads_text(const std::vector<ThreadsDecision>& rows, const std::string& profile) {
  std::string s = "Which backend for N threads, " + profile +
                  " profile, from documents (no search, no game played here)\n";
  for (const ThreadsDecision& r : rows) {
    s += n_threads(r.threads) + ": " + r.decision +
         (r.kind == "SIMULATED" ? " (SIMULATED)" : "") + "\n";
    s += "  evidence: " + r.evidence + "\n";
    if (!r.figure.empty()) s += "  figure:   " + r.figure + "\n";
    if (!r.games.empty()) s += "  games:    " + r.games + "\n";
    if (!r.next.empty()) s += "  next:     " + r.next + "\n";
  }
  return s;
}

Json threads_json(const std::vector<ThreadsDecision>& rows, const std::string& profile) {
  Json out = Json::array();
  for (const ThreadsDecision& r : rows) {
    Json points = Json::array();
    for (const ThreadsDecision::Point& q : r.points)
      points.push_back({{"name", q.name}, {"speedup", q.speedup}, {"search_overhead", q.overhead}});
    out.push_back({{"threads", r.threads}, {"kind", r.kind}, {"simulated", r.kind == "SIMULATED"},
                   {"decision", r.decision}, {"decided", r.decided}, {"evidence", r.evidence},
                   {"figure", r.figure}, {"games", r.games}, {"next", r.next}, {"points", points}});
  }
  return Json{{"profile", profile}, {"rows", out}};
}

}  // namespace xq::lab::games
