#include "lab/timing/simulation.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace xq::lab::timing {
namespace {

struct CostField {
  const char* name;
  sim::Time sim::Costs::*field;
  // The wire's costs are a network's, not the profiled machine's
  // (sim::Costs): a profile may leave them out, and then they keep their
  // defaults.
  bool optional = false;
};

constexpr CostField kFields[] = {
    {"node", &sim::Costs::node},          {"qnode", &sim::Costs::qnode},
    {"publish", &sim::Costs::publish},    {"join", &sim::Costs::join},
    {"lock", &sim::Costs::lock},          {"wake", &sim::Costs::wake},
    {"fork", &sim::Costs::fork},          {"barrier", &sim::Costs::barrier},
    {"idle_poll", &sim::Costs::idle_poll}, {"idle_timeout", &sim::Costs::idle_timeout},
    {"message", &sim::Costs::message, true}, {"latency", &sim::Costs::latency, true},
    {"byte", &sim::Costs::byte, true},    {"slice", &sim::Costs::slice, true},
    // What-if only (sim-calibrate does not measure it): 0, one speed factor
    // per thread for the whole search.
    {"jitter_period", &sim::Costs::jitter_period, true}};

const CostField* find_field(const std::string& name) {
  for (const CostField& f : kFields)
    if (name == f.name) return &f;
  return nullptr;
}

std::string known_names() {
  std::string s;
  for (const CostField& f : kFields) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s + ", jitter";
}

}  // namespace

const std::vector<std::string>& sim_cost_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const CostField& f : kFields) v.emplace_back(f.name);
    return v;
  }();
  return names;
}

SimSettings load_sim_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read simulation profile '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  Json j;
  try {
    j = Json::parse(text.str());
  } catch (const Json::exception& e) {
    throw std::runtime_error("simulation profile '" + path + "' is not JSON: " + e.what());
  }
  const auto fail = [&](const std::string& what) {
    return std::runtime_error("simulation profile '" + path + "': " + what);
  };
  if (!j.is_object() || !j.contains("costs_ps") || !j["costs_ps"].is_object())
    throw fail("no \"costs_ps\" object");
  SimSettings s;
  s.profile_path = path;
  if (j.contains("machine") && j["machine"].is_string()) s.machine = j["machine"];
  if (j.contains("measured") && j["measured"].is_string()) s.measured = j["measured"];
  for (const CostField& f : kFields) {
    const Json& c = j["costs_ps"];
    if (!c.contains(f.name) && f.optional) continue;
    if (!c.contains(f.name)) throw fail(std::string("cost \"") + f.name + "\" is missing");
    if (!c[f.name].is_number_integer() || c[f.name].get<std::int64_t>() < 0)
      throw fail(std::string("cost \"") + f.name + "\" must be a whole number of picoseconds >= 0");
    s.costs.*f.field = c[f.name].get<std::int64_t>();
  }
  if (s.costs.node <= 0 || s.costs.qnode <= 0) throw fail("node costs must be positive");
  if (s.costs.idle_timeout <= 0) throw fail("idle_timeout must be positive");
  if (s.costs.slice <= 0) throw fail("slice must be positive");
  if (j.contains("jitter")) {
    if (!j["jitter"].is_number() || j["jitter"].get<double>() < 0 || j["jitter"].get<double>() >= 1)
      throw fail("jitter must be a number in [0, 1)");
    s.costs.jitter = j["jitter"];
  }
  return s;
}

Json sim_profile_json(const SimSettings& s) {
  Json costs = Json::object();
  for (const CostField& f : kFields) costs[f.name] = s.costs.*f.field;
  return Json{{"machine", s.machine}, {"measured", s.measured}, {"costs_ps", costs},
              {"jitter", s.costs.jitter},
              {"carrier", sim::to_string(s.carrier)}};
}

void apply_sim_cost(SimSettings& s, const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == assignment.size())
    throw std::invalid_argument("--sim-cost '" + assignment + "': expected NAME=VALUE (e.g. join=2x, "
                                "join=3us)");
  const std::string name = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  double number = 0;
  std::size_t used = 0;
  try {
    number = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = value.substr(used);
  const auto bad = [&] {
    return std::invalid_argument("--sim-cost '" + assignment + "': the value must be a factor (2x) "
                                 "or a time (500ps, 40ns, 2us), not negative");
  };
  if (used == 0 || !std::isfinite(number) || number < 0) throw bad();
  if (name == "jitter") {
    if (!unit.empty() || number >= 1) throw bad();
    s.costs.jitter = number;
  } else {
    const CostField* f = find_field(name);
    if (!f) throw std::invalid_argument("--sim-cost: unknown cost '" + name + "' (known: " +
                                        known_names() + ")");
    sim::Time& t = s.costs.*f->field;
    if (unit == "x") t = sim::Time(std::llround(double(t) * number));
    else if (unit == "ps") t = sim::Time(std::llround(number));
    else if (unit == "ns") t = sim::Time(std::llround(number * 1e3));
    else if (unit == "us") t = sim::Time(std::llround(number * 1e6));
    else throw bad();
    if ((name == "node" || name == "qnode" || name == "idle_timeout" || name == "slice") && t <= 0)
      throw std::invalid_argument("--sim-cost '" + assignment + "': " + name + " must stay positive");
  }
  s.overrides += (s.overrides.empty() ? "" : ",") + assignment;
}

Json sim_settings_json(const SimSettings& s, int runs) {
  Json seeds = Json::array();
  for (int k = 0; k < runs; ++k) seeds.push_back(s.seed == 0 ? 0 : s.seed + std::uint64_t(k));
  return Json{{"profile", s.profile_path.empty() ? Json() : Json(s.profile_path)},
              {"machine", s.machine},
              {"measured", s.measured},
              {"quantum_nodes", s.quantum},
              {"cores", s.cores == 0 ? Json() : Json(s.cores)},
              {"seeds", seeds},
              {"overrides", s.overrides},
              {"costs", sim_profile_json(s)["costs_ps"]},
              {"jitter", s.costs.jitter}};
}

std::string sim_banner(const SimSettings& s, int runs) {
  std::string seeds = s.seed == 0 ? "0 (no jitter)"
                                  : std::to_string(s.seed) +
                                        (runs > 1 ? "-" + std::to_string(s.seed + std::uint64_t(runs) - 1)
                                                  : "");
  std::string b = "SIMULATED machine (not measured): profile " +
                  (s.profile_path.empty() ? std::string("built-in") : s.profile_path) + " (" +
                  (s.machine.empty() ? std::string("no description") : s.machine) + "), quantum " +
                  std::to_string(s.quantum) + " nodes, seeds " + seeds;
  if (s.cores > 0) {
    char slice[32];
    std::snprintf(slice, sizeof slice, "%.3g", double(s.costs.slice) / 1e9);
    b += ", threads time-sliced on " + std::to_string(s.cores) + " core" +
         (s.cores == 1 ? "" : "s") + " (slice " + slice + " ms)";
  }
  if (!s.overrides.empty()) b += ", what-if costs " + s.overrides;
  return b;
}

SimulatedSearch simulate_search(Backend& backend, const Position& pos, const SearchOptions& options,
                                const SimSettings& s, std::uint64_t seed, int threads,
                                Observer* observer, bool timeline) {
  sim::Machine m(s.costs, s.quantum, seed, threads, s.cores, s.carrier);
  if (timeline) m.record_timeline();
  m.begin();
  struct End {
    sim::Machine& m;
    ~End() {
      try {
        m.end();
      } catch (...) {
      }
    }
  } end{m};
  Observer silent;
  SimulatedSearch out;
  out.result = backend.search(pos, options, observer ? *observer : silent);
  out.seconds = m.now_seconds();
  out.switches = m.switches();
  out.preemptions = m.preemptions();
  out.yields = m.yields();
  out.core_wait_seconds = sim::seconds(m.core_wait());
  if (timeline) out.timeline = m.timeline();
  return out;
}

Json simulated_counts_json(const SimulatedSearch& r, const SimSettings& s, int threads) {
  Json j{{"switches", r.switches}};
  if (s.cores > 0 && s.cores < threads) {
    j["preemptions"] = r.preemptions;
    j["yields"] = r.yields;
    j["core_wait_seconds"] = r.core_wait_seconds;
    // Of the threads' time (threads x the search's), the part spent ready
    // but without a core.
    j["core_wait_share"] = r.seconds > 0 ? r.core_wait_seconds / (r.seconds * threads) : 0.0;
  }
  return j;
}

}  // namespace xq::lab::timing
