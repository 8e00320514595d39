#include "lab/timing/solve.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>

#include "lab/common/csv.h"
#include "lab/common/stats.h"
#include "lab/common/text.h"
#include "parallel/params.h"
#include "search/virtual_time.h"

namespace xq::lab::timing {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Timestamps every best move the search reports: the wall time since the
// start, or on a simulated machine the reporting logical thread's virtual
// time (the machine starts at 0 for each search).
class Recorder final : public Observer {
 public:
  explicit Recorder(Clock::time_point start) : start_(start) {}
  void on_iteration(const SearchResult& r) override {
    const sim::Clock* virt = sim::current();
    reports.push_back({virt ? virt->now_seconds() : seconds_since(start_), r.best_move});
  }
  std::vector<MoveReport> reports;

 private:
  Clock::time_point start_;
};

}  // namespace

std::vector<SolveEntry> load_solve_suite(const std::string& path) {
  std::vector<common::SuiteEntry> positions = common::load_suite(path);
  const common::CsvTable t = common::read_csv(path);
  const int solution_col = t.column("solution"), mate_col = t.column("mate");
  if (solution_col < 0)
    throw std::invalid_argument(path + ": header has no 'solution' column (the move to find, ICCS)");
  std::vector<SolveEntry> out;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    SolveEntry e;
    e.name = positions[i].name;
    e.pos = positions[i].pos;
    const std::string& text = t.rows[i][std::size_t(solution_col)];
    e.solution = e.pos.parse_move(text);
    if (e.solution == Move::none())
      throw std::invalid_argument(t.where(i) + ": solution '" + text +
                                  "' is not a legal move of the position");
    if (mate_col >= 0 && !t.rows[i][std::size_t(mate_col)].empty()) {
      const std::string& m = t.rows[i][std::size_t(mate_col)];
      const std::optional<int> n = common::whole_int(m);
      if (!n || *n < 1 || *n > 60)
        throw std::invalid_argument(t.where(i) + ": mate '" + m + "' is not a length 1-60");
      e.mate = *n;
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::optional<double> time_to_solution(const std::vector<MoveReport>& reports, Move final_move,
                                       double end, Move solution) {
  if (final_move != solution) return std::nullopt;
  double from = end;  // solved only by the final move: at the end
  for (auto it = reports.rbegin(); it != reports.rend() && it->move == solution; ++it)
    from = it->seconds;
  return from;
}

std::vector<SolveRun> run_solve(const SolveSettings& s, const std::vector<SolveEntry>& suite,
                                const std::function<void(const SolveRun&)>& on_search,
                                std::atomic<bool>* stop) {
  const auto stopped = [&] { return stop && stop->load(); };
  SearchOptions options;
  options.limits.movetime_ms = s.movetime_ms;
  options.features = s.features;
  options.stop_signal = stop;
  if (s.sim) check_simulable(s.configs);
  std::vector<SolveRun> out;
  for (int run = 0; run < s.runs && !stopped(); ++run)
    for (std::size_t p = 0; p < suite.size() && !stopped(); ++p)
      for (std::size_t k = 0; k < s.configs.size() && !stopped(); ++k) {
        // As the lab interleaves (lab/timing/runner.h): A B C, then C B A.
        const std::size_t ci = p % 2 == 0 ? k : s.configs.size() - 1 - k;
        const LabConfig& c = s.configs[ci];
        const BackendConfig bc = backend_config(s.base, c);
        std::unique_ptr<Backend> backend = make_backend(c.backend, bc);
        const Clock::time_point t0 = Clock::now();
        Recorder recorder(t0);
        SolveRun x;
        SearchResult r;
        if (s.sim) {
          const std::uint64_t seed = s.sim->seed == 0 ? 0 : s.sim->seed + std::uint64_t(run);
          SimulatedSearch sim = simulate_search(*backend, suite[p].pos, options, *s.sim, seed,
                                                backend->simulated_threads(), &recorder);
          r = std::move(sim.result);
          x.searched = sim.seconds;
        } else {
          r = backend->search(suite[p].pos, options, recorder);
          x.searched = seconds_since(t0);
        }
        x.config = int(ci);
        x.run = run;
        x.position = int(p);
        if (stopped()) return out;  // abandoned, not a finished search
        const std::optional<double> t =
            time_to_solution(recorder.reports, r.best_move, x.searched, suite[p].solution);
        x.solved = t.has_value();
        x.seconds = t ? *t : s.movetime_ms / 1000.0;
        x.depth = r.depth;
        x.nodes = r.stats.nodes;
        x.best_move = r.best_move;
        if (on_search) on_search(x);
        out.push_back(x);
      }
  return out;
}

std::vector<SolveSummary> summarize_solve(const SolveSettings& s, const std::vector<SolveRun>& runs) {
  const std::vector<int> reference_of = reference_configs(s.configs);
  std::vector<SolveSummary> out(s.configs.size());
  // Per configuration and position: the times of the runs that solved it,
  // and whether every run did.
  std::map<std::pair<int, int>, std::vector<double>> solved_times;
  std::map<std::pair<int, int>, bool> always;
  for (std::size_t c = 0; c < out.size(); ++c) out[c].config = int(c);
  std::vector<std::vector<double>> times(out.size());
  for (const SolveRun& r : runs) {
    SolveSummary& x = out[std::size_t(r.config)];
    ++x.searches;
    x.penalised_seconds += r.seconds;
    const auto key = std::pair(r.config, r.position);
    always.try_emplace(key, true);
    if (!r.solved) {
      always[key] = false;
      continue;
    }
    ++x.solved;
    times[std::size_t(r.config)].push_back(r.seconds);
    solved_times[key].push_back(r.seconds);
  }
  for (std::size_t c = 0; c < out.size(); ++c) {
    SolveSummary& x = out[c];
    const std::vector<double>& t = times[c];
    if (!t.empty()) {
      x.median_seconds = common::median(t);
      double sum = 0;
      for (double v : t) sum += v;
      x.mean_seconds = sum / double(t.size());
    }
    const int ref = reference_of[c];
    if (ref < 0) continue;
    const SolveSummary& base = out[std::size_t(ref)];
    if (x.penalised_seconds > 0) x.speedup = base.penalised_seconds / x.penalised_seconds;
    std::vector<double> ratios;
    for (const auto& [key, ok] : always) {
      if (key.first != int(c) || !ok) continue;
      const auto rk = std::pair(ref, key.second);
      const auto it = always.find(rk);
      if (it == always.end() || !it->second) continue;
      const double mine = common::median(solved_times[key]);
      const double theirs = common::median(solved_times[rk]);
      // A time of 0 (a solution before the first report's clock tick) cannot
      // make a ratio.
      if (mine > 0 && theirs > 0) ratios.push_back(theirs / mine);
    }
    x.paired_positions = int(ratios.size());
    if (!ratios.empty()) x.paired = common::median(ratios);
  }
  return out;
}

}  // namespace xq::lab::timing
