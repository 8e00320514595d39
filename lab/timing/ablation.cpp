#include "lab/timing/ablation.h"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

#include "lab/common/stats.h"
#include "lab/common/text.h"

namespace xq::lab::timing {
namespace {

std::vector<AblationConfig> make_configs(bool extras) {
  // Quiescence and check extension everywhere; see ablation.h.
  constexpr const char* kBase = "qsearch,checkext";
  constexpr const char* kTt = "tt,ttmove";
  constexpr const char* kOrd = "mvvlva,killers,history";
  auto f = [&](std::initializer_list<const char*> parts) {
    std::string s = kBase;
    for (const char* p : parts) s += std::string(",") + p;
    return Features::parse(s);
  };
  std::vector<AblationConfig> v = {
      {"ab", "AB", Algorithm::AlphaBeta, f({})},
      {"pvs", "PVS", Algorithm::Pvs, f({})},
      {"mtdf", "MTD(f)", Algorithm::Mtdf, f({})},
      {"ab+tt", "AB+TT", Algorithm::AlphaBeta, f({kTt})},
      {"ab+ord", "AB+ordering", Algorithm::AlphaBeta, f({kOrd})},
      {"mtdf+tt+ord", "MTD(f)+TT+ordering", Algorithm::Mtdf, f({kTt, kOrd})},
      {"mtdf+tt+ord+null", "MTD(f)+TT+ordering+null", Algorithm::Mtdf, f({kTt, kOrd, "null"})},
      {"pvs+tt+ord", "PVS+TT+ordering", Algorithm::Pvs, f({kTt, kOrd})},
      {"pvs+tt+ord+null", "PVS+TT+ordering+null", Algorithm::Pvs, f({kTt, kOrd, "null"})},
  };
  if (extras) {
    v.push_back({"default", "default (PVS, thesis profile)", Algorithm::Pvs, Features::thesis()});
    // Plain AB whose captures (quiescence included) are MVV-LVA ordered: shows
    // how much of AB's cost is unordered quiescence.
    v.push_back({"ab+mvvlva", "AB+MVV-LVA", Algorithm::AlphaBeta, f({"mvvlva"})});
  }
  return v;
}

// The modern profile's features, one name each (search/options.h), less
// `stability`: it only moves a clock's soft limit, which a fixed-depth
// ablation never has (its rows would repeat the ones without it).
constexpr const char* kModernFeatures[] = {"lmr",      "histgravity", "rfp",      "razor",
                                           "lmp",      "futility",    "see",      "nullplus",
                                           "iir",      "probcut",     "singular", "aspdelta",
                                           "knowledge"};

// The modern profile's ablation: the thesis's engine, it plus each modern
// feature alone ("+lmr"), the modern profile, and it less each one
// ("modern-lmr"). `defaults`: only the first three kinds (the default rows
// of --profile modern).
std::vector<AblationConfig> make_modern_configs(bool defaults) {
  std::vector<AblationConfig> v = {
      {"thesis", "thesis profile", Algorithm::Pvs, Features::thesis()}};
  for (const char* x : kModernFeatures)
    v.push_back({std::string("+") + x, std::string("thesis + ") + x, Algorithm::Pvs,
                 Features::parse(Features::thesis().to_string() + "," + x)});
  v.push_back({"modern", "modern profile", Algorithm::Pvs, Features::modern()});
  if (defaults) return v;
  for (const char* x : kModernFeatures) {
    std::string rest;
    for (const char* y : kModernFeatures)
      if (std::string(y) != x) rest += std::string(",") + y;
    v.push_back({std::string("modern-") + x, std::string("modern - ") + x, Algorithm::Pvs,
                 Features::parse(Features::thesis().to_string() + rest)});
  }
  return v;
}

// Collects the cumulative node count and time after every iteration.
class IterationLog final : public Observer {
 public:
  struct Point {
    std::uint64_t nodes = 0, qnodes = 0;
    double ms = 0;
  };
  std::map<Depth, Point> points;
  void on_iteration(const SearchResult& r) override {
    points[r.depth] = {std::uint64_t(r.stats.nodes), std::uint64_t(r.stats.qnodes),
                       r.seconds * 1000.0};
  }
};

Depth parse_depth(const std::string& text) {
  const std::optional<int> d = common::whole_int(text);
  if (!d || *d < 1 || *d > kMaxDepth)
    throw std::invalid_argument("--depths needs whole numbers in 1.." + std::to_string(kMaxDepth) +
                                ", got '" + text + "'");
  return Depth(*d);
}

// Adds one position's logs (one per repeat) to the row's cells.
void add_position(AblationRow& row, std::vector<bool>& depth_ok,
                  const std::vector<IterationLog>& logs, const std::vector<Depth>& depths) {
  for (std::size_t i = 0; i < depths.size(); ++i) {
    auto it = logs.front().points.find(depths[i]);
    if (it == logs.front().points.end()) {
      depth_ok[i] = false;
      continue;
    }
    std::vector<double> times;
    for (const IterationLog& log : logs) times.push_back(log.points.at(depths[i]).ms);
    AblationCell& cell = row.cells[i];
    cell.positions += 1;
    cell.nodes += it->second.nodes;
    cell.qnodes += it->second.qnodes;
    cell.ms += common::median(times);
  }
}

}  // namespace

const std::vector<AblationConfig>& ablation_configs() {
  static const std::vector<AblationConfig> v = make_configs(false);
  return v;
}

const std::vector<AblationConfig>& modern_ablation_configs() {
  static const std::vector<AblationConfig> v = make_modern_configs(true);
  return v;
}

const std::vector<AblationConfig>& all_ablation_configs() {
  static const std::vector<AblationConfig> v = [] {
    std::vector<AblationConfig> all = make_configs(true);
    for (AblationConfig& c : make_modern_configs(false)) all.push_back(std::move(c));
    return all;
  }();
  return v;
}

const AblationConfig& find_ablation_config(const std::string& name) {
  std::string known;
  for (const AblationConfig& c : all_ablation_configs()) {
    if (c.name == name) return c;
    known += (known.empty() ? "" : ", ") + c.name;
  }
  throw std::invalid_argument("unknown configuration '" + name + "' (known: " + known + ")");
}

std::vector<Depth> parse_depths(const std::string& text) {
  std::vector<Depth> out;
  if (const auto dots = text.find(".."); dots != std::string::npos) {
    const Depth lo = parse_depth(text.substr(0, dots));
    const Depth hi = parse_depth(text.substr(dots + 2));
    if (lo > hi) throw std::invalid_argument("--depths range '" + text + "' is empty");
    for (Depth d = lo; d <= hi; ++d) out.push_back(d);
    return out;
  }
  std::string item;
  for (char c : text + ",") {
    if (c != ',') {
      item += c;
      continue;
    }
    out.push_back(parse_depth(item));
    item.clear();
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<AblationRow> run_ablation(const std::vector<common::SuiteEntry>& suite,
                                      const std::vector<const AblationConfig*>& configs,
                                      const AblationSettings& s) {
  if (s.depths.empty()) throw std::invalid_argument("ablation needs at least one depth");
  std::vector<AblationRow> rows;
  for (const AblationConfig* config : configs) {
    std::unique_ptr<Backend> backend = make_backend(s.backend, s.backend_config);
    AblationRow row;
    row.config = config;
    row.cells.resize(s.depths.size());
    std::vector<bool> depth_ok(s.depths.size(), true);
    SearchOptions opt;
    opt.algorithm = config->algorithm;
    opt.features = config->features;
    opt.limits.depth = s.depths.back();
    opt.limits.nodes = s.node_limit;
    for (const common::SuiteEntry& entry : suite) {
      std::vector<IterationLog> logs(std::size_t(std::max(1, s.repeat)));
      for (IterationLog& log : logs) {
        backend->clear();
        const SearchResult r = backend->search(entry.pos, opt, log);
        if (r.stopped) ++row.incomplete;
        if (s.on_search) s.on_search(*config, entry, r);
      }
      add_position(row, depth_ok, logs, s.depths);
    }
    for (std::size_t i = 0; i < s.depths.size(); ++i) {
      if (!depth_ok[i]) row.cells[i] = AblationCell{};
      row.cells[i].depth = s.depths[i];
    }
    rows.push_back(std::move(row));
  }
  for (AblationRow& row : rows)
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const AblationCell& base = rows.front().cells[i];
      AblationCell& c = row.cells[i];
      if (base.complete() && c.complete() && c.nodes)
        c.node_reduction = double(base.nodes) / double(c.nodes);
    }
  return rows;
}

void to_json(Json& j, const AblationCell& c) {
  j = Json{{"depth", c.depth}, {"complete", c.complete()}};
  if (!c.complete()) return;
  j.update(Json{{"positions", c.positions},
                {"avg_nodes", c.avg_nodes()},
                {"avg_qnodes", c.avg_qnodes()},
                {"avg_ms", c.avg_ms()},
                {"nps", c.nps()},
                {"node_reduction", c.node_reduction}});
}

void to_json(Json& j, const AblationRow& r) {
  j = Json{{"config", r.config->name},
           {"label", r.config->label},
           {"algorithm", algorithm_name(r.config->algorithm)},
           {"features", r.config->features.to_string()},
           {"incomplete_searches", r.incomplete},
           {"depths", r.cells}};
}

}  // namespace xq::lab::timing
