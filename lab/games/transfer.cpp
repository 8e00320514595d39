#include "lab/games/transfer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "lab/common/text.h"

namespace xq::lab::games {
namespace {

std::optional<double> value_of(const TransferRow& r, Measure m) {
  switch (m) {
    case Measure::Speedup:
      if (r.lab) return r.lab->speedup;
      return std::nullopt;
    case Measure::TimeElo:
      if (r.time_elo) return r.time_elo->elo;
      return std::nullopt;
    case Measure::DepthElo:
      if (r.depth_elo) return r.depth_elo->elo;
      return std::nullopt;
  }
  return std::nullopt;
}

const char* measure_name(Measure m) {
  switch (m) {
    case Measure::Speedup: return "time to depth (S)";
    case Measure::TimeElo: return "Elo at the time control";
    case Measure::DepthElo: return "Elo at fixed depth";
  }
  return "?";
}

using common::fmt;

std::string elo_text(const std::optional<common::EloEstimate>& e) {
  if (!e) return "-";
  return fmt("%+.0f", e->elo) + " " + common::elo_interval_text(*e, "%+.0f");
}

std::string factor_text(const std::optional<TimeFactor>& f) {
  if (!f) return "-";
  const auto bound = [](double b) { return std::isfinite(b) ? fmt("%.2f", b) : std::string("inf"); };
  return fmt("%.2f", f->factor) + " [" + bound(f->lower) + "," + bound(f->upper) + "]";
}

std::string wdl_text(const Wdl& w) {
  return "+" + std::to_string(w.wins) + "=" + std::to_string(w.draws) + "-" +
         std::to_string(w.losses);
}

// "ybwc > dts = lazysmp": the ranking, '=' between neighbours the evidence
// does not separate.
std::string ranking_text(const std::vector<TransferRow>& rows, Measure m) {
  const std::vector<std::size_t> order = ranking(rows, m);
  std::string out;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const TransferRow& r = rows[order[k]];
    if (!value_of(r, m)) continue;
    if (!out.empty()) out += separated(rows[order[k - 1]], r, m) ? " > " : " = ";
    out += r.backend;
  }
  return out.empty() ? "(not measured)" : out;
}

// The first-ranked backends that no other backend beats with separation.
std::vector<std::string> leaders(const std::vector<TransferRow>& rows, Measure m) {
  const std::vector<std::size_t> order = ranking(rows, m);
  std::vector<std::string> out;
  if (order.empty() || !value_of(rows[order.front()], m)) return out;
  out.push_back(rows[order.front()].backend);
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (!value_of(rows[order[k]], m) || separated(rows[order[0]], rows[order[k]], m)) break;
    out.push_back(rows[order[k]].backend);
  }
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string verdict(const TransferTable& t) {
  std::string out;
  std::vector<std::vector<std::string>> elo_leaders;
  for (const TransferProfile& p : t.profiles) {
    const auto ttd = leaders(p.rows, Measure::Speedup);
    const auto elo = leaders(p.rows, Measure::TimeElo);
    out += p.profile + ": ";
    if (p.rows.size() < 2) {
      elo_leaders.push_back({});
      out += "one backend, nothing to rank.\n";
      continue;
    }
    elo_leaders.push_back(elo);
    if (ttd.empty() || elo.empty()) {
      out += "not every measure was taken; nothing is decided.\n";
      continue;
    }
    const bool ttd_decided = ttd.size() == 1, elo_decided = elo.size() == 1;
    out += "time to depth " + std::string(ttd_decided ? "names " : "cannot separate ") + joined(ttd) +
           "; games " + std::string(elo_decided ? "name " : "cannot separate ") + joined(elo) + ". ";
    if (ttd_decided && elo_decided)
      out += ttd == elo ? "The two measures agree.\n" : "The two measures disagree.\n";
    else
      out += "The evidence does not decide whether they agree (more games or runs).\n";
  }
  if (elo_leaders.size() == 2) {
    const auto& a = elo_leaders[0];
    const auto& b = elo_leaders[1];
    if (a.size() == 1 && b.size() == 1)
      out += a == b ? "The backend the games choose is the same under both profiles.\n"
                    : "The backend the games choose changes with the profile (" + a[0] + " -> " +
                          b[0] + ").\n";
    else
      out += "Whether the games' choice transfers between the profiles is not decided.\n";
  }
  return out;
}

}  // namespace

std::optional<TimeFactor> time_factor(const TransferRow& row, const TransferProfile& p) {
  const auto& d = p.doubling;
  if (!row.time_elo || !d || d->pairs < kMinSeparatingPairs || !(d->lower > 0)) return std::nullopt;
  const auto f = common::time_factor_interval(*row.time_elo, *d);
  if (!f) return std::nullopt;
  return TimeFactor{f->factor, f->lower, f->upper};
}

std::vector<std::size_t> ranking(const std::vector<TransferRow>& rows, Measure m) {
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto va = value_of(rows[a], m), vb = value_of(rows[b], m);
    if (va && vb) return *va > *vb;
    return va.has_value() && !vb.has_value();
  });
  return order;
}

bool separated(const TransferRow& a, const TransferRow& b, Measure m) {
  if (m == Measure::Speedup) {
    if (!a.lab || !b.lab || a.lab->runs < 2 || b.lab->runs < 2) return false;
    return a.lab->paired_min > b.lab->paired_max || b.lab->paired_min > a.lab->paired_max;
  }
  const auto& ea = m == Measure::TimeElo ? a.time_elo : a.depth_elo;
  const auto& eb = m == Measure::TimeElo ? b.time_elo : b.depth_elo;
  const auto usable = [](const std::optional<common::EloEstimate>& e) {
    return e && e->pairs >= kMinSeparatingPairs && std::isfinite(e->lower) &&
           std::isfinite(e->upper);
  };
  if (!usable(ea) || !usable(eb)) return false;
  return ea->lower > eb->upper || eb->lower > ea->upper;
}

std::string transfer_text(const TransferTable& t) {
  std::string out = "transfer: " + std::to_string(t.threads) +
                    " threads against the serial search at 1 thread, per profile; games: " +
                    std::to_string(t.games) + " per match at " + t.time_control +
                    " and at a fixed depth; Elo with its 95 % interval\n";
  for (const TransferProfile& p : t.profiles) {
    out += "\nprofile " + p.profile + " (lab to depth " + std::to_string(p.lab_depth) +
           ", games at depth " + std::to_string(p.game_depth) + ")\n";
    out += "  the serial search with twice the clock against itself: " + elo_text(p.doubling) +
           " Elo per doubling (" + wdl_text(p.doubling_wdl) + ")\n";
    char line[320];
    std::snprintf(line, sizeof line, "%-14s %6s %6s  %-22s %-12s  %-20s  %-22s %-12s\n", "backend",
                  "S", "SO", "Elo (time)", "W=D-L", "time x (1 thread)", "Elo (depth)", "W=D-L");
    out += line;
    for (const TransferRow& r : p.rows) {
      std::snprintf(line, sizeof line, "%-14s %6s %6s  %-22s %-12s  %-20s  %-22s %-12s\n",
                    r.backend.c_str(), r.lab ? fmt("%.2f", r.lab->speedup).c_str() : "-",
                    r.lab ? fmt("%.2f", r.lab->overhead).c_str() : "-",
                    elo_text(r.time_elo).c_str(), wdl_text(r.time_wdl).c_str(),
                    factor_text(time_factor(r, p)).c_str(), elo_text(r.depth_elo).c_str(),
                    wdl_text(r.depth_wdl).c_str());
      out += line;
    }
    for (Measure m : {Measure::Speedup, Measure::TimeElo, Measure::DepthElo})
      out += std::string("  by ") + measure_name(m) + ": " + ranking_text(p.rows, m) + "\n";
  }
  out += "\n" + verdict(t);
  return out;
}

Json transfer_json(const TransferTable& t) {
  const auto elo_json = [](const std::optional<common::EloEstimate>& e) {
    if (!e) return Json();
    const auto finite = [](double v) { return std::isfinite(v) ? Json(v) : Json(); };
    return Json{{"elo", e->elo}, {"lower", finite(e->lower)}, {"upper", finite(e->upper)},
                {"los", e->los}, {"pairs", e->pairs}, {"interval", interval_kind(*e)}};
  };
  const auto wdl_json = [](const Wdl& w) {
    return Json{{"wins", w.wins}, {"draws", w.draws}, {"losses", w.losses}};
  };
  const auto factor_json = [](const std::optional<TimeFactor>& f) {
    if (!f) return Json();
    const auto finite = [](double v) { return std::isfinite(v) ? Json(v) : Json(); };
    return Json{{"factor", f->factor}, {"lower", finite(f->lower)}, {"upper", finite(f->upper)}};
  };
  Json profiles = Json::array();
  for (const TransferProfile& p : t.profiles) {
    Json rows = Json::array();
    for (const TransferRow& r : p.rows)
      rows.push_back(Json{{"backend", r.backend},
                          {"time_factor", factor_json(time_factor(r, p))},
                          {"speedup", r.lab ? Json(r.lab->speedup) : Json()},
                          {"search_overhead", r.lab ? Json(r.lab->overhead) : Json()},
                          {"time", Json{{"elo", elo_json(r.time_elo)}, {"wdl", wdl_json(r.time_wdl)}}},
                          {"depth", Json{{"elo", elo_json(r.depth_elo)}, {"wdl", wdl_json(r.depth_wdl)}}}});
    Json ranks;
    for (Measure m : {Measure::Speedup, Measure::TimeElo, Measure::DepthElo})
      ranks[m == Measure::Speedup ? "speedup" : m == Measure::TimeElo ? "time_elo" : "depth_elo"] =
          ranking_text(p.rows, m);
    profiles.push_back(Json{{"profile", p.profile}, {"lab_depth", p.lab_depth},
                            {"game_depth", p.game_depth},
                            {"doubling", Json{{"elo", elo_json(p.doubling)}, {"wdl", wdl_json(p.doubling_wdl)}}},
                            {"rows", rows}, {"rankings", ranks}});
  }
  return Json{{"threads", t.threads}, {"time_control", t.time_control}, {"games", t.games},
              {"profiles", profiles}, {"verdict", verdict(t)}};
}

}  // namespace xq::lab::games
