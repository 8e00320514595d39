#include "lab/games/evolve.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <stdexcept>

namespace xq::lab::games {
namespace {



std::mt19937_64 generation_rng(const EvolveConfig& c, int g) { return step_rng(c.seed, g); }

double uniform(std::mt19937_64& rng) { return std::uniform_real_distribution<double>(0, 1)(rng); }

std::size_t pick(std::mt19937_64& rng, std::size_t n) {
  return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}

// The fitter of two (ties broken at random).
std::size_t duel(std::mt19937_64& rng, const std::vector<double>& f, std::size_t a, std::size_t b) {
  if (f[a] != f[b]) return f[a] > f[b] ? a : b;
  return uniform(rng) < 0.5 ? a : b;
}

std::size_t two_stage_tournament(std::mt19937_64& rng, const std::vector<double>& f) {
  const std::size_t n = f.size();
  const std::size_t first = duel(rng, f, pick(rng, n), pick(rng, n));
  const std::size_t second = duel(rng, f, pick(rng, n), pick(rng, n));
  return duel(rng, f, first, second);
}

std::string random_bits(std::mt19937_64& rng, std::size_t n) {
  std::string s(n, '0');
  for (char& b : s) b = uniform(rng) < 0.5 ? '0' : '1';
  return s;
}

}  // namespace

std::vector<GeneCoding> gene_codings(const EvolveConfig& c) {
  std::vector<GeneCoding> out;
  for (const TunableParam* p : c.setup.params) {
    const int half = std::max(1, int(std::lround(c.spread * double(p->max - p->min))));
    GeneCoding g;
    g.lo = std::max(p->min, p->default_value() - half);
    g.hi = std::min(p->max, p->default_value() + half);
    const int span = g.hi - g.lo;
    while (g.bits < 10 && (1 << g.bits) - 1 < span) ++g.bits;
    g.bits = std::max(g.bits, 1);
    out.push_back(g);
  }
  return out;
}

std::vector<int> decode(const std::vector<GeneCoding>& genes, const std::string& bits) {
  std::vector<int> v;
  std::size_t at = 0;
  for (const GeneCoding& g : genes) {
    unsigned code = 0;
    for (int i = 0; i < g.bits; ++i) code = code * 2 + (bits.at(at++) == '1');
    const double top = double((1u << g.bits) - 1);
    v.push_back(g.lo + int(std::lround(double(code) * double(g.hi - g.lo) / top)));
  }
  return v;
}

std::string encode(const std::vector<GeneCoding>& genes, const std::vector<int>& values) {
  std::string bits;
  for (std::size_t i = 0; i < genes.size(); ++i) {
    const GeneCoding& g = genes[i];
    const unsigned top = (1u << g.bits) - 1;
    const double x = g.hi == g.lo ? 0 : double(values.at(i) - g.lo) * top / double(g.hi - g.lo);
    const unsigned code = unsigned(std::clamp(std::lround(x), 0l, long(top)));
    for (int b = g.bits - 1; b >= 0; --b) bits += (code >> b) & 1u ? '1' : '0';
  }
  return bits;
}

double adaptive_pc(const EvolveConfig& c, double f_parent, double f_avg, double f_max) {
  if (f_parent < f_avg || f_max <= f_avg) return c.pc_max;
  return c.pc_max - (c.pc_max - c.pc_min) * (f_parent - f_avg) / (f_max - f_avg);
}

double adaptive_pm(const EvolveConfig& c, double f, double f_avg, double f_max) {
  if (f < f_avg || f_max <= f_avg) return c.pm_max;
  return c.pm_max - (c.pm_max - c.pm_min) * (f - f_avg) / (f_max - f_avg);
}

EvolveState first_generation(const EvolveConfig& c) {
  if (c.population < 4 || c.population % 2 != 0)
    throw std::invalid_argument("--population must be even and at least 4");
  const std::vector<GeneCoding> genes = gene_codings(c);
  std::size_t width = 0;
  for (const GeneCoding& g : genes) width += std::size_t(g.bits);
  std::mt19937_64 rng = generation_rng(c, -1);
  EvolveState s;
  s.population.push_back(encode(genes, default_values(c.setup)));
  while (int(s.population.size()) < c.population) s.population.push_back(random_bits(rng, width));
  return s;
}

EvolveState evolve(const EvolveConfig& c, EvolveState state,
                   const std::function<void(const std::string&)>& progress,
                   const std::function<void(const EvolveState&)>& checkpoint,
                   const std::atomic<bool>* stop) {
  const std::vector<GeneCoding> genes = gene_codings(c);
  const std::size_t n = std::size_t(c.population);
  while (state.generation < c.generations) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds_used();
    const int g = state.generation;
    std::mt19937_64 rng = generation_rng(c, g);
    std::vector<std::vector<int>> values;
    for (const std::string& bits : state.population) values.push_back(decode(genes, bits));
    // Stage one: the games.
    std::vector<PairJob> jobs;
    std::vector<std::pair<std::size_t, std::size_t>> who;
    for (int r = 0; r < c.rounds; ++r) {
      std::vector<std::size_t> order(n);
      std::iota(order.begin(), order.end(), std::size_t(0));
      std::shuffle(order.begin(), order.end(), rng);
      for (std::size_t i = 0; i + 1 < n; i += 2) {
        jobs.push_back({values[order[i]], values[order[i + 1]], pick(rng, c.setup.openings.size())});
        who.emplace_back(order[i], order[i + 1]);
      }
    }
    const auto outcomes = play_pairs(c.setup, jobs, stop);
    if (!outcomes) {
      state.interrupted = true;
      return state;
    }
    GenerationRecord rec;
    rec.generation = g;
    rec.population = state.population;
    std::vector<double> points(n, 0);
    std::vector<int> games(n, 0);
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      points[who[j].first] += (*outcomes)[j].a_points;
      points[who[j].second] += 2 - (*outcomes)[j].a_points;
      games[who[j].first] += 2;
      games[who[j].second] += 2;
      rec.forfeits += (*outcomes)[j].forfeits;
    }
    rec.games = int(jobs.size()) * 2;
    for (std::size_t i = 0; i < n; ++i) rec.fitness.push_back(points[i] / double(games[i]));
    const std::vector<double>& f = rec.fitness;
    rec.best = int(std::max_element(f.begin(), f.end()) - f.begin());
    rec.best_values = values[std::size_t(rec.best)];
    rec.mean = std::accumulate(f.begin(), f.end(), 0.0) / double(n);
    const double f_max = f[std::size_t(rec.best)];
    // Stage two: selection, crossover, mutation; the fittest passes as is.
    std::vector<std::string> next = {state.population[std::size_t(rec.best)]};
    double pc_sum = 0, pm_sum = 0;
    int pcs = 0, pms = 0;
    while (next.size() < n) {
      const std::size_t p1 = two_stage_tournament(rng, f), p2 = two_stage_tournament(rng, f);
      std::string c1 = state.population[p1], c2 = state.population[p2];
      const double pc = adaptive_pc(c, std::max(f[p1], f[p2]), rec.mean, f_max);
      pc_sum += pc;
      ++pcs;
      if (uniform(rng) < pc && c1.size() > 1) {
        std::size_t a = pick(rng, c1.size()), b = pick(rng, c1.size());
        if (a > b) std::swap(a, b);
        for (std::size_t i = a; i <= b; ++i) std::swap(c1[i], c2[i]);
      }
      for (auto& [child, parent] : {std::pair<std::string&, std::size_t>{c1, p1}, {c2, p2}}) {
        const double pm = adaptive_pm(c, f[parent], rec.mean, f_max);
        pm_sum += pm;
        ++pms;
        for (char& bit : child)
          if (uniform(rng) < pm) bit = bit == '1' ? '0' : '1';
      }
      next.push_back(c1);
      if (next.size() < n) next.push_back(c2);
    }
    rec.pc_mean = pc_sum / pcs;
    rec.pm_mean = pm_sum / pms;
    rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rec.cpu_seconds = cpu_seconds_used() - cpu0;
    state.population = std::move(next);
    state.history.push_back(rec);
    state.generation = g + 1;
    char line[256];
    std::snprintf(line, sizeof line,
                  "generation %d/%d: best %.3f (individual %d), mean %.3f, Pc %.2f, Pm %.3f, "
                  "%d games, %.1f s",
                  g + 1, c.generations, f_max, rec.best, rec.mean, rec.pc_mean, rec.pm_mean,
                  rec.games, rec.seconds);
    progress(std::string(line) + ": " + values_text(c.setup, rec.best_values));
    checkpoint(state);
  }
  return state;
}

namespace {

Json evolve_config_json(const EvolveConfig& c) {
  return Json{{"setup", setup_json(c.setup)}, {"population", c.population},
              {"rounds", c.rounds},           {"spread", c.spread},
              {"seed", c.seed},               {"pc", {c.pc_min, c.pc_max}},
              {"pm", {c.pm_min, c.pm_max}}};
}

}  // namespace

Json evolve_json(const EvolveConfig& c, const EvolveState& s) {
  Json history = Json::array();
  for (const GenerationRecord& r : s.history)
    history.push_back(Json{{"generation", r.generation},
                           {"fitness", r.fitness},
                           {"population", r.population},
                           {"best", r.best},
                           {"best_values", r.best_values},
                           {"best_spec", values_text(c.setup, r.best_values)},
                           {"mean", r.mean},
                           {"pc_mean", r.pc_mean},
                           {"pm_mean", r.pm_mean},
                           {"games", r.games},
                           {"forfeits", r.forfeits},
                           {"seconds", r.seconds},
                           {"cpu_seconds", r.cpu_seconds}});
  return Json{{"kind", "evolve"},
              {"config", evolve_config_json(c)},
              {"generations", c.generations},
              {"generation", s.generation},
              {"population", s.population},
              {"history", history}};
}

EvolveState state_from_json(const EvolveConfig& c, const Json& j) {
  return read_state(j, "evolve", evolve_config_json(c), [&] {
    EvolveState s;
    s.generation = j.at("generation").get<int>();
    s.population = j.at("population").get<std::vector<std::string>>();
    std::size_t width = 0;
    for (const GeneCoding& g : gene_codings(c)) width += std::size_t(g.bits);
    if (int(s.population.size()) != c.population)
      throw std::invalid_argument("its population has another size");
    for (const std::string& bits : s.population)
      if (bits.size() != width || bits.find_first_not_of("01") != std::string::npos)
        throw std::invalid_argument("an individual is not " + std::to_string(width) + " bits");
    for (const Json& h : j.at("history")) {
      GenerationRecord r;
      r.generation = h.at("generation");
      r.fitness = h.at("fitness").get<std::vector<double>>();
      r.population = h.at("population").get<std::vector<std::string>>();
      r.best = h.at("best");
      r.best_values = h.at("best_values").get<std::vector<int>>();
      r.mean = h.at("mean");
      r.pc_mean = h.at("pc_mean");
      r.pm_mean = h.at("pm_mean");
      r.games = h.at("games");
      r.forfeits = h.at("forfeits");
      r.seconds = h.at("seconds");
      r.cpu_seconds = h.at("cpu_seconds");
      s.history.push_back(std::move(r));
    }
    if (int(s.history.size()) != s.generation)
      throw std::invalid_argument("its history does not match its generation count");
    return s;
  });
}

}  // namespace xq::lab::games
