#include "cli/ablation.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

#include "board/movegen.h"
#include "cli/args.h"

namespace xq::cli {
namespace {

// Splits one CSV record; quoted fields may hold commas and "" for a quote.
std::vector<std::string> split_csv(const std::string& line, bool& ok) {
  std::vector<std::string> out(1);
  bool quoted = false;
  ok = true;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') out.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else quoted = false;
    } else if (c == '"' && out.back().empty()) {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (quoted) ok = false;
  return out;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && s[b] == ' ') ++b;
  return s.substr(b);
}

Features features_of(const char* list) { return Features::parse(list); }

std::vector<AblationConfig> make_configs(bool extras) {
  // Quiescence and check extension everywhere; see ablation.h.
  constexpr const char* kBase = "qsearch,checkext";
  constexpr const char* kTt = "tt,ttmove";
  constexpr const char* kOrd = "mvvlva,killers,history";
  auto f = [&](std::initializer_list<const char*> parts) {
    std::string s = kBase;
    for (const char* p : parts) s += std::string(",") + p;
    return features_of(s.c_str());
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
    v.push_back({"default", "default (PVS, all on)", Algorithm::Pvs, Features::all()});
    // Plain AB whose captures (quiescence included) are MVV-LVA ordered: shows
    // how much of AB's cost is unordered quiescence.
    v.push_back({"ab+mvvlva", "AB+MVV-LVA", Algorithm::AlphaBeta, f({"mvvlva"})});
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
    points[r.depth] = {r.stats.nodes, r.stats.qnodes, r.seconds * 1000.0};
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::vector<SuiteEntry> load_suite(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read suite file '" + path + "'");
  std::string line;
  int line_no = 0;
  int fen_col = -1, name_col = -1;
  std::vector<SuiteEntry> out;
  while (std::getline(in, line)) {
    ++line_no;
    if (trim(line).empty()) continue;
    bool ok = true;
    std::vector<std::string> cols = split_csv(line, ok);
    const std::string where = path + ":" + std::to_string(line_no);
    if (!ok) throw UsageError(where + ": unterminated quoted field");
    for (auto& c : cols) c = trim(c);
    if (fen_col < 0) {  // header
      for (std::size_t i = 0; i < cols.size(); ++i) {
        if (cols[i] == "fen") fen_col = int(i);
        if (cols[i] == "name") name_col = int(i);
      }
      if (fen_col < 0) throw UsageError(where + ": header has no 'fen' column");
      continue;
    }
    if (int(cols.size()) <= fen_col) throw UsageError(where + ": no fen field");
    SuiteEntry e;
    e.name = name_col >= 0 && name_col < int(cols.size()) ? cols[name_col]
                                                          : "line " + std::to_string(line_no);
    if (const std::string err = e.pos.set_fen(cols[fen_col]); !err.empty())
      throw UsageError(where + ": " + err);
    if (MoveList(e.pos).size == 0) throw UsageError(where + ": position has no legal move");
    out.push_back(std::move(e));
  }
  if (out.empty()) throw UsageError("suite file '" + path + "' holds no positions");
  return out;
}

const std::vector<AblationConfig>& ablation_configs() {
  static const std::vector<AblationConfig> v = make_configs(false);
  return v;
}

const std::vector<AblationConfig>& all_ablation_configs() {
  static const std::vector<AblationConfig> v = make_configs(true);
  return v;
}

const AblationConfig& find_ablation_config(const std::string& name) {
  std::string known;
  for (const AblationConfig& c : all_ablation_configs()) {
    if (c.name == name) return c;
    known += (known.empty() ? "" : ", ") + c.name;
  }
  throw UsageError("unknown configuration '" + name + "' (known: " + known + ")");
}

std::vector<Depth> parse_depths(const std::string& text) {
  std::vector<Depth> out;
  const std::string what = "--depths";
  if (const auto dots = text.find(".."); dots != std::string::npos) {
    const Depth lo = Depth(parse_int(text.substr(0, dots), what, 1, kMaxDepth));
    const Depth hi = Depth(parse_int(text.substr(dots + 2), what, 1, kMaxDepth));
    if (lo > hi) throw UsageError("--depths range '" + text + "' is empty");
    for (Depth d = lo; d <= hi; ++d) out.push_back(d);
    return out;
  }
  std::string item;
  for (char c : text + ",") {
    if (c != ',') {
      item += c;
      continue;
    }
    out.push_back(Depth(parse_int(item, what, 1, kMaxDepth)));
    item.clear();
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<AblationRow> run_ablation(const std::vector<SuiteEntry>& suite,
                                      const std::vector<const AblationConfig*>& configs,
                                      const AblationSettings& s) {
  std::vector<AblationRow> rows;
  const Depth max_depth = s.depths.back();
  for (const AblationConfig* config : configs) {
    std::unique_ptr<Backend> backend = make_backend(s.backend, s.backend_config);
    AblationRow row;
    row.config = config;
    row.cells.resize(s.depths.size());
    std::vector<bool> depth_ok(s.depths.size(), true);
    SearchOptions opt;
    opt.algorithm = config->algorithm;
    opt.features = config->features;
    opt.limits.depth = max_depth;
    opt.limits.nodes = s.node_limit;
    for (const SuiteEntry& entry : suite) {
      std::vector<IterationLog> logs(std::size_t(std::max(1, s.repeat)));
      for (IterationLog& log : logs) {
        backend->clear();
        const SearchResult r = backend->search(entry.pos, opt, log);
        if (r.stopped) ++row.incomplete;
        if (s.progress)
          std::fprintf(stderr, "%s  %s  depth %d  nodes %llu  %.0f ms%s\n", config->name.c_str(),
                       entry.name.c_str(), r.depth, static_cast<unsigned long long>(r.stats.nodes),
                       r.seconds * 1000.0, r.stopped ? "  (node limit)" : "");
      }
      for (std::size_t i = 0; i < s.depths.size(); ++i) {
        auto it = logs.front().points.find(s.depths[i]);
        if (it == logs.front().points.end()) {
          depth_ok[i] = false;
          continue;
        }
        std::vector<double> times;
        for (const IterationLog& log : logs) times.push_back(log.points.at(s.depths[i]).ms);
        AblationCell& cell = row.cells[i];
        cell.positions += 1;
        cell.nodes += it->second.nodes;
        cell.qnodes += it->second.qnodes;
        cell.ms += median(times);
      }
    }
    for (std::size_t i = 0; i < s.depths.size(); ++i)
      if (!depth_ok[i]) row.cells[i] = AblationCell{};
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace xq::cli
