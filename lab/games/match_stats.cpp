#include "lab/games/match_stats.h"

#include <sstream>
#include <stdexcept>

namespace xq::lab::games {

Wdl wdl_of(const std::vector<GameScore>& games) {
  Wdl r;
  for (GameScore g : games) {
    if (g == GameScore::Win) ++r.wins;
    else if (g == GameScore::Draw) ++r.draws;
    else ++r.losses;
  }
  return r;
}

common::Penta penta_of(const std::vector<GameScore>& games) {
  common::Penta p{};
  for (std::size_t i = 0; i + 1 < games.size(); i += 2)
    ++p[std::size_t(games[i]) + std::size_t(games[i + 1])];
  return p;
}

std::optional<common::EloEstimate> elo_of(const std::vector<GameScore>& games,
                                          std::size_t openings) {
  const std::size_t pairs = games.size() / 2;
  if (openings == 0 || pairs <= openings) return common::elo_estimate(penta_of(games));
  std::vector<int> points;
  std::vector<std::int64_t> cluster;
  for (std::size_t k = 0; k < pairs; ++k) {
    points.push_back(int(games[2 * k]) + int(games[2 * k + 1]));
    cluster.push_back(std::int64_t(k % openings));
  }
  return common::elo_estimate_clustered(points, cluster);
}

std::string interval_kind(const common::EloEstimate& e) {
  if (!e.estimable) return "not estimable";
  return e.clustered ? "clustered by opening" : "pentanomial";
}

std::vector<std::string> option_items(const std::vector<std::string>& words) {
  std::vector<std::string> items;
  for (const std::string& w : words) {
    std::istringstream in(w);
    for (std::string s; in >> s;) items.push_back(s);
  }
  return items;
}

common::SprtParams parse_sprt(const std::vector<std::string>& words) {
  common::SprtParams p;
  for (const std::string& s : option_items(words)) {
    const auto eq = s.find('=');
    const std::string k = s.substr(0, eq), v = eq == std::string::npos ? "" : s.substr(eq + 1);
    if (k == "model") {
      const auto m = common::parse_sprt_model(v);
      if (!m) throw std::invalid_argument("sprt: model must be normalized or logistic, not '" + v + "'");
      p.model = *m;
      continue;
    }
    double x = 0;
    try {
      std::size_t used = 0;
      x = std::stod(v, &used);
      if (used != v.size()) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw std::invalid_argument("sprt: '" + s + "' is not KEY=NUMBER (elo0, elo1, alpha, beta, model)");
    }
    if (k == "elo0") p.elo0 = x;
    else if (k == "elo1") p.elo1 = x;
    else if (k == "alpha") p.alpha = x;
    else if (k == "beta") p.beta = x;
    else throw std::invalid_argument("sprt: unknown key '" + k + "' (elo0, elo1, alpha, beta, model)");
  }
  common::validate(p);
  return p;
}

}  // namespace xq::lab::games
