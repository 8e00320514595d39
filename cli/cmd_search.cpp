// xqlab search: one search of one position by one backend with one hash
// scheme, reporting every completed iteration and the final result (plain
// text, or one JSON object with --json).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/records/json.h"
#include "parallel/sim/machine.h"
#include "search/options.h"

namespace xq::cli {
namespace {

constexpr Depth kDefaultSearchDepth = 6;

struct SearchArgs {
  std::string fen, algo = "pvs", features, profile = "thesis";
  int depth = 0;
  std::int64_t movetime = 0;
  std::uint64_t nodes = 0;
  bool exact = false, json = false;
  BackendArgs backend;
  SimArgs sim;
  std::string timeline;  // --sim-timeline FILE
};

std::string pv_text(const std::vector<Move>& pv) {
  std::string s;
  for (Move m : pv) s += (s.empty() ? "" : " ") + move_name(m);
  return s;
}

std::string score_text(const SearchResult& r) {
  if (const auto mate = r.mate()) return "mate " + std::to_string(*mate);
  return "cp " + std::to_string(r.score);
}

// Prints one "info" line per completed iteration (plain output only).
class InfoPrinter final : public Observer {
 public:
  void on_iteration(const SearchResult& r) override {
    std::printf("info depth %d score %s nodes %llu qnodes %llu time %.0f nps %.0f pv %s\n",
                r.depth, score_text(r).c_str(), static_cast<unsigned long long>(r.stats.nodes),
                static_cast<unsigned long long>(r.stats.qnodes), r.seconds * 1000.0, r.nps(),
                pv_text(r.pv).c_str());
    std::fflush(stdout);
  }
};

SearchOptions search_options(const SearchArgs& a) {
  SearchOptions opt;
  opt.limits.depth = Depth(a.depth);
  opt.limits.movetime_ms = a.movetime;
  opt.limits.nodes = a.nodes;
  if (!a.depth && !a.movetime && !a.nodes) opt.limits.depth = kDefaultSearchDepth;
  opt.algorithm = parse_algorithm(a.algo);
  opt.features = search_features(a.profile, a.features);
  opt.exact = a.exact;
  return opt;
}

void print_text(const SearchResult& r, const std::string& backend, const BackendConfig& cfg) {
  const SearchStats& s = r.stats;
  auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  if (lab::records::no_iteration_completed(r)) {
    std::printf("bestmove (none)\nno iteration completed%s\n",
                r.stopped ? " (stopped by a limit)" : "");
  } else {
    std::printf("bestmove %s\n", move_name(r.best_move).c_str());
    std::printf("score %s (%d)  depth %d%s\n", score_text(r).c_str(), r.score, r.depth,
                r.stopped ? "  (stopped by a limit)" : "");
    std::printf("pv %s\n", pv_text(r.pv).c_str());
  }
  std::printf("nodes %llu  qnodes %llu  time %.3f s  nps %.0f\n", u(s.nodes), u(s.qnodes),
              r.seconds, r.nps());
  std::printf("tt probes %llu  hits %llu  cutoffs %llu  torn %llu  bad moves %llu\n",
              u(s.tt_probes), u(s.tt_hits), u(s.tt_cutoffs), u(s.tt_torn), u(s.bad_tt_moves));
  std::printf("first-move cutoff rate %.3f\n", s.first_move_cutoff_rate());
  std::printf("backend %s  hash %s  threads %d  splits %llu  joins %llu  aborts %llu\n",
              backend.c_str(), cfg.hash.c_str(), cfg.threads, u(s.splits), u(s.joins),
              u(s.aborts));
  // Seconds summed over threads (parallel/split_timing.h); backends without
  // split points do not measure them.
  if (s.search_seconds > 0)
    std::printf("thread time search %.3f s  idle %.3f s  lock %.3f s  copy %.3f s  wasted nodes "
                "%llu\n", double(s.search_seconds), double(s.idle_seconds),
                double(s.lock_seconds), double(s.copy_seconds), u(s.wasted_nodes));
  else
    std::printf("thread time not measured by this backend\n");
}

int run(const SearchArgs& a) {
  const Position pos = parse_position_arg(a.fen);
  const SearchOptions opt = search_options(a);
  const std::optional<lab::timing::SimSettings> sim = sim_settings(a.sim);
  if (!a.timeline.empty() && !sim) throw UsageError("--sim-timeline needs --simulate");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> timeline(nullptr, std::fclose);
  if (!a.timeline.empty()) {
    timeline.reset(std::fopen(a.timeline.c_str(), "w"));
    if (!timeline) throw UsageError("cannot write --sim-timeline file '" + a.timeline + "'");
  }
  const std::unique_ptr<Backend> engine = make_backend(a.backend.backend, backend_config(a.backend));
  InfoPrinter printer;
  Observer silent;
  Observer& observer = a.json ? static_cast<Observer&>(silent) : printer;
  SearchResult r;
  lab::timing::SimulatedSearch simulated;
  const int threads = engine->simulated_threads();
  if (sim) {
    if (!a.json) std::printf("%s\n", lab::timing::sim_banner(*sim, 1).c_str());
    simulated = lab::timing::simulate_search(*engine, pos, opt, *sim, sim->seed, threads,
                                             &observer, bool(timeline));
    r = simulated.result;
    r.seconds = simulated.seconds;
    if (timeline) {
      std::fprintf(timeline.get(), "virtual_us,thread,event,nodes,next\n");
      for (const sim::TimelineEvent& e : simulated.timeline)
        std::fprintf(timeline.get(), "%.3f,%d,%s,%llu,%d\n", double(e.at) / 1e6, e.thread,
                     sim::to_string(e.what), static_cast<unsigned long long>(e.nodes), e.next);
      if (std::fflush(timeline.get()) != 0)
        throw UsageError("cannot write --sim-timeline file '" + a.timeline + "'");
    }
  } else {
    r = engine->search(pos, opt, observer);
  }
  if (!a.json) {
    print_text(r, a.backend.backend, engine->config());
    if (sim && sim->cores > 0 && sim->cores < threads)
      std::printf("SIMULATED time slicing: %llu preemptions, %llu yields of idle threads, "
                  "%.1f %% of the threads' time waiting for a core\n",
                  static_cast<unsigned long long>(simulated.preemptions),
                  static_cast<unsigned long long>(simulated.yields),
                  100.0 * simulated.core_wait_seconds / std::max(1e-12, simulated.seconds * threads));
    return 0;
  }
  Json j{{"fen", pos.fen()}};
  if (sim) {
    j["mode"] = "simulated";
    j["simulation"] = lab::timing::sim_settings_json(*sim, 1);
    j["simulation"]["counts"] = lab::timing::simulated_counts_json(simulated, *sim, threads);
  }
  j.update(Json(r));
  j.update(lab::records::backend_json(a.backend.backend, engine->config()));
  j.update(Json{{"algo", algorithm_name(opt.algorithm)},
                {"profile", profile_name(opt.features)},
                {"features", opt.features.to_string()},
                {"exact", opt.exact}});
  print_json(j);
  return 0;
}

}  // namespace

Command add_search(CLI::App& root) {
  auto a = std::make_shared<SearchArgs>();
  CLI::App* app = root.add_subcommand("search", "one search by one backend (default depth 6)");
  add_fen_option(app, a->fen);
  app->add_option("--depth", a->depth, "depth limit")->check(CLI::Range(1, int(kMaxDepth)));
  app->add_option("--movetime", a->movetime, "time limit in milliseconds")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app->add_option("--nodes", a->nodes, "node limit")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62));
  app->add_option("--algo", a->algo, "pvs | alphabeta | mtdf")
      ->check(CLI::IsMember({"pvs", "alphabeta", "ab", "mtdf"}))->capture_default_str();
  add_profile_option(app, a->profile);
  app->add_option("--features", a->features,
                  "instead of a profile: all | none | thesis | modern | comma list (" +
                      feature_names() + ")");
  app->add_flag("--exact", a->exact, "exact mode: the minimax value whatever the backend");
  app->add_flag("--json", a->json, "one JSON object on stdout");
  add_backend_options(app, a->backend);
  add_sim_options(app, a->sim);
  app->add_option("--sim-timeline", a->timeline, "with --simulate: write every hand-over, idle "
                  "sleep, wake, spawn and exit of the logical threads to this CSV file");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
