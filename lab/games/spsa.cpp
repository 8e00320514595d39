#include "lab/games/spsa.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>

namespace xq::lab::games {
namespace {

double c_end_of(const SpsaConfig& c, std::size_t i) {
  const TunableParam& p = *c.setup.params[i];
  return std::max(1.0, c.c_end * double(p.max - p.min));
}

double big_a(const SpsaConfig& c) { return 0.1 * double(c.iterations); }

int clip_round(const TunableParam& p, double x) {
  return int(std::clamp(std::lround(x), long(p.min), long(p.max)));
}

}  // namespace

double spsa_c(const SpsaConfig& c, std::size_t i, int k) {
  const double big_c = c_end_of(c, i) * std::pow(double(c.iterations), c.gamma);
  return big_c / std::pow(double(k), c.gamma);
}

double spsa_a(const SpsaConfig& c, std::size_t i, int k) {
  const double a_end = c.r_end * c_end_of(c, i) * c_end_of(c, i);
  const double a = a_end * std::pow(big_a(c) + double(c.iterations), c.alpha);
  return a / std::pow(big_a(c) + double(k), c.alpha);
}

std::vector<int> spsa_values(const SpsaConfig& c, const std::vector<double>& theta) {
  std::vector<int> v;
  for (std::size_t i = 0; i < theta.size(); ++i) v.push_back(clip_round(*c.setup.params[i], theta[i]));
  return v;
}

SpsaState spsa_start(const SpsaConfig& c) {
  SpsaState s;
  for (const int v : default_values(c.setup)) s.theta.push_back(double(v));
  return s;
}

SpsaState spsa(const SpsaConfig& c, SpsaState state,
               const std::function<void(const std::string&)>& progress,
               const std::function<void(const SpsaState&)>& checkpoint,
               const std::atomic<bool>* stop) {
  const std::size_t n = c.setup.params.size();
  while (state.iteration < c.iterations) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds_used();
    const int k = state.iteration + 1;
    std::mt19937_64 rng = step_rng(c.seed, k);
    std::vector<double> delta(n), plus(n), minus(n);
    for (std::size_t i = 0; i < n; ++i) {
      delta[i] = (rng() & 1) ? 1.0 : -1.0;
      plus[i] = state.theta[i] + spsa_c(c, i, k) * delta[i];
      minus[i] = state.theta[i] - spsa_c(c, i, k) * delta[i];
    }
    std::vector<PairJob> jobs;
    for (int j = 0; j < c.pairs; ++j)
      jobs.push_back({spsa_values(c, plus), spsa_values(c, minus),
                      std::size_t(rng() % c.setup.openings.size())});
    const auto outcomes = play_pairs(c.setup, jobs, stop);
    if (!outcomes) {
      state.interrupted = true;
      return state;
    }
    // Wins minus losses of theta+: each pair's points are 0..2 of 2 games.
    double points = 0;
    SpsaStep step;
    for (const PairOutcome& o : *outcomes) {
      points += o.a_points;
      step.forfeits += o.forfeits;
    }
    step.result = int(std::lround(2 * points - 2.0 * c.pairs));
    step.k = k;
    step.c_k = spsa_c(c, 0, k);
    step.a_k = spsa_a(c, 0, k);
    for (std::size_t i = 0; i < n; ++i) {
      const TunableParam& p = *c.setup.params[i];
      const double moved =
          state.theta[i] + spsa_a(c, i, k) / spsa_c(c, i, k) * step.result * delta[i];
      state.theta[i] = std::clamp(moved, double(p.min), double(p.max));
    }
    step.theta = state.theta;
    state.history.push_back(step);
    state.iteration = k;
    state.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.cpu_seconds += cpu_seconds_used() - cpu0;
    char line[160];
    std::snprintf(line, sizeof line, "iteration %d/%d: result %+d over %d pairs, c_k %.2f", k,
                  c.iterations, step.result, c.pairs, step.c_k);
    progress(std::string(line) + ": " + values_text(c.setup, spsa_values(c, state.theta)));
    checkpoint(state);
  }
  return state;
}

namespace {

Json spsa_config_json(const SpsaConfig& c) {
  return Json{{"setup", setup_json(c.setup)}, {"iterations", c.iterations}, {"pairs", c.pairs},
              {"c_end", c.c_end},             {"r_end", c.r_end},           {"alpha", c.alpha},
              {"gamma", c.gamma},             {"seed", c.seed}};
}

}  // namespace

Json spsa_json(const SpsaConfig& c, const SpsaState& s) {
  Json history = Json::array();
  for (const SpsaStep& h : s.history)
    history.push_back(Json{{"k", h.k},
                           {"c_k", h.c_k},
                           {"a_k", h.a_k},
                           {"result", h.result},
                           {"forfeits", h.forfeits},
                           {"theta", h.theta}});
  const std::vector<int> values = spsa_values(c, s.theta);
  return Json{{"kind", "spsa"},
              {"config", spsa_config_json(c)},
              {"iteration", s.iteration},
              {"theta", s.theta},
              {"values", values},
              {"spec", values_text(c.setup, values)},
              {"seconds", s.seconds},
              {"cpu_seconds", s.cpu_seconds},
              {"history", history}};
}

SpsaState spsa_state_from_json(const SpsaConfig& c, const Json& j) {
  return read_state(j, "spsa", spsa_config_json(c), [&] {
    SpsaState s;
    s.iteration = j.at("iteration");
    s.theta = j.at("theta").get<std::vector<double>>();
    s.seconds = j.at("seconds");
    s.cpu_seconds = j.at("cpu_seconds");
    if (s.theta.size() != c.setup.params.size())
      throw std::invalid_argument("its theta has another length");
    for (const Json& h : j.at("history")) {
      SpsaStep step;
      step.k = h.at("k");
      step.c_k = h.at("c_k");
      step.a_k = h.at("a_k");
      step.result = h.at("result");
      step.forfeits = h.at("forfeits");
      step.theta = h.at("theta").get<std::vector<double>>();
      s.history.push_back(std::move(step));
    }
    if (int(s.history.size()) != s.iteration)
      throw std::invalid_argument("its history does not match its iteration count");
    return s;
  });
}

}  // namespace xq::lab::games
