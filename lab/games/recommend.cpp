#include "lab/games/recommend.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "lab/common/files.h"
#include "lab/common/text.h"

namespace xq::lab::games {
namespace {

common::Penta reversed(common::Penta p) {
  std::reverse(p.begin(), p.end());
  return p;
}

std::vector<GameScore> flipped(const std::vector<GameScore>& s) {
  std::vector<GameScore> out;
  for (GameScore g : s) out.push_back(GameScore(2 - int(g)));
  return out;
}

using common::fmt;

void add_rows(const Json& j, std::vector<LabFigures>& out) {
  if (!j.is_object() || !j.contains("results")) return;
  for (const Json& r : j["results"]) {
    LabFigures f{r.at("backend").get<std::string>(), r.at("hash").get<std::string>(),
                 r.at("threads").get<int>(), r.at("speedup").get<double>(),
                 r.at("search_overhead").get<double>()};
    if (r.contains("paired_speedup") && r["paired_speedup"].is_object()) {
      f.paired_min = r["paired_speedup"].at("min").get<double>();
      f.paired_max = r["paired_speedup"].at("max").get<double>();
      f.runs = int(r["paired_speedup"].at("runs").size());
    }
    out.push_back(f);
  }
}

Versus versus(const MatchConfig& c, const MatchResult& m, const PairingResult& p, bool as_a) {
  const std::vector<GameScore> s = as_a ? p.scores : flipped(p.scores);
  Versus v{m.names[as_a ? p.b : p.a], wdl_of(s), elo_of(s, c.openings.size()), std::nullopt,
           common::SprtDecision::Continue};
  if (c.sprt && s.size() >= 2) {
    v.llr = common::llr(*c.sprt, as_a ? penta_of(p.scores) : reversed(penta_of(p.scores)));
    v.decision = common::sprt_decision(*c.sprt, *v.llr);
  }
  return v;
}

std::string verdict_of(const Recommendation& r, const MatchConfig& c, const MatchResult& m) {
  const Candidate& top = r.ranked.front();
  int forfeits = 0;
  for (const PairingResult& p : m.pairings) forfeits += p.forfeits;
  if (forfeits * 10 > std::max(m.games, 1))  // more than 10 %: time keeping, not play
    return "not enough evidence to decide: " + std::to_string(forfeits) + " of " + std::to_string(m.games) +
           " games ended by a forfeit (a crash, hang, illegal move or time loss;\n"
           "the reasons are in the --results file); use a longer time control or a larger --timemargin.";
  if (r.ranked.size() == 1) return "only one candidate (" + top.name + "): nothing to compare.";
  if (!c.sprt) return "no SPRT was run: the ranking is by score only and decides nothing.";
  std::string open;
  for (const Versus& v : top.versus) {
    if (v.decision == common::SprtDecision::AcceptH1) continue;
    open += (open.empty() ? "" : "; ") + v.opponent + " (LLR " + (v.llr ? fmt("%.2f", *v.llr) : "n/a") +
            " after " + std::to_string(v.wdl.games()) + " games" +
            (v.decision == common::SprtDecision::AcceptH0 ? ", H0 accepted: not shown stronger" : ", undecided") + ")";
  }
  if (open.empty())
    return "recommend " + top.name + ": the SPRT accepted it as stronger than every other candidate.";
  return "not enough evidence to decide: " + top.name + " leads on score, but its SPRT is not won against " +
         open + ". Run more games (--games) or a wider elo1.";
}

}  // namespace

std::vector<LabFigures> read_lab_json(const std::string& path) {
  std::istringstream in(common::read_input_file(path, "--lab-json file"));  // .gz too
  std::vector<LabFigures> out;
  std::string line;
  try {
    while (std::getline(in, line))
      if (!line.empty()) add_rows(Json::parse(line), out);
  } catch (const std::exception& e) {
    throw std::invalid_argument("--lab-json file '" + path + "' is not `xqlab lab --json` output");
  }
  if (out.empty()) throw std::invalid_argument("--lab-json file '" + path + "' holds no lab results");
  return out;
}

std::vector<LabFigures> lab_figures(const Json& lab_document) {
  std::vector<LabFigures> out;
  add_rows(lab_document, out);
  return out;
}

Recommendation recommend(const MatchConfig& c, const MatchResult& m,
                         const std::vector<std::string>& backends, int threads,
                         const std::vector<LabFigures>& lab) {
  Recommendation r;
  for (std::size_t i = 0; i < m.names.size(); ++i) {
    Candidate cand{m.names[i], backends[i], std::nullopt, 0, 0, {}};
    for (const LabFigures& f : lab)
      if (f.backend == backends[i] && f.threads == threads && !cand.lab) cand.lab = f;
    for (const PairingResult& p : m.pairings) {
      if (p.a != i && p.b != i) continue;
      cand.versus.push_back(versus(c, m, p, p.a == i));
      const Wdl& w = cand.versus.back().wdl;
      cand.points += double(w.wins) + 0.5 * double(w.draws);
      cand.games += int(w.games());
    }
    r.ranked.push_back(cand);
  }
  std::stable_sort(r.ranked.begin(), r.ranked.end(), [](const Candidate& x, const Candidate& y) {
    const double sx = x.games ? x.points / x.games : 0, sy = y.games ? y.points / y.games : 0;
    if (sx != sy) return sx > sy;
    return (x.lab ? x.lab->speedup : 0) > (y.lab ? y.lab->speedup : 0);
  });
  if (r.ranked.empty()) throw std::invalid_argument("no candidates");
  r.verdict = verdict_of(r, c, m);
  r.decided = r.verdict.rfind("recommend ", 0) == 0;
  return r;
}

std::string recommendation_text(const Recommendation& r, const MatchConfig& c, int threads) {
  std::string s = "recommendation for " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") +
                  " at " + c.tc.text() +
                  (c.sprt ? ", SPRT " + common::sprt_model_name(c.sprt->model) + " [" +
                                fmt("%g", c.sprt->elo0) + ", " + fmt("%g", c.sprt->elo1) + "]"
                          : "") +
                  "\n";
  int rank = 0;
  for (const Candidate& k : r.ranked) {
    s += std::to_string(++rank) + ". " + k.name + ": score " + fmt("%.1f", k.points) + "/" +
         std::to_string(k.games);
    s += k.lab ? ", speedup " + fmt("%.2f", k.lab->speedup) + ", search overhead " + fmt("%.2f", k.lab->overhead)
               : std::string(", time to depth not measured");
    s += "\n";
    for (const Versus& v : k.versus) {
      s += "     vs " + v.opponent + ": +" + std::to_string(v.wdl.wins) + " =" + std::to_string(v.wdl.draws) +
           " -" + std::to_string(v.wdl.losses);
      if (v.elo)
        s += ", Elo " + fmt("%.1f", v.elo->elo) + " " + common::elo_interval_text(*v.elo, "%.1f") +
             (v.elo->clustered && v.elo->estimable ? " (clustered by opening)" : "");
      if (v.llr) s += ", LLR " + fmt("%.2f", *v.llr) + " (" + common::decision_name(v.decision) + ")";
      s += "\n";
    }
  }
  return s + r.verdict + "\n";
}

Json recommendation_json(const Recommendation& r) {
  Json ranked = Json::array();
  for (const Candidate& k : r.ranked) {
    Json vs = Json::array();
    for (const Versus& v : k.versus)
      vs.push_back({{"opponent", v.opponent}, {"wins", v.wdl.wins}, {"draws", v.wdl.draws},
                    {"losses", v.wdl.losses}, {"elo", v.elo ? Json(v.elo->elo) : Json()},
                    {"elo_ci", v.elo && v.elo->estimable ? Json::array({v.elo->lower, v.elo->upper}) : Json()},
                    {"elo_interval", v.elo ? Json(interval_kind(*v.elo)) : Json()},
                    {"llr", v.llr ? Json(*v.llr) : Json()}, {"decision", common::decision_name(v.decision)}});
    ranked.push_back({{"name", k.name}, {"backend", k.backend}, {"points", k.points}, {"games", k.games},
                      {"speedup", k.lab ? Json(k.lab->speedup) : Json()},
                      {"search_overhead", k.lab ? Json(k.lab->overhead) : Json()}, {"versus", vs}});
  }
  return Json{{"ranked", ranked}, {"decided", r.decided}, {"verdict", r.verdict}};
}

}  // namespace xq::lab::games
