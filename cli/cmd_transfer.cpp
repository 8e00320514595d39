// xqlab transfer: does the backend ranking survive a change of search
// profile? Per profile, the time-to-depth lab (serial at 1 thread and every
// backend at T threads), then for each backend two matches against the same
// profile's serial search at 1 thread -- one at a time control, one at a
// fixed depth -- and the table that ranks the backends by each measure and
// says where the evidence decides (lab/games/transfer.h). Long: 2 x backends
// x profiles matches; `--games` and the presets in docs/RESULTS.md say what
// they cost on two cores.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/lab_print.h"
#include "cli/match_run.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/meta.h"
#include "lab/games/match_stats.h"
#include "lab/games/transfer.h"
#include "lab/timing/document.h"
#include "lab/timing/runner.h"
#include "lab/timing/summary.h"

namespace xq::cli {
namespace {

struct TransferArgs {
  std::vector<std::string> profiles{"thesis", "modern"}, backends;
  std::string hash = "xor", tc = "1+0.1", openings = lab::common::default_suite_path(), results;
  int threads = 2, games = 10, game_depth = 6, lab_depth = 7, lab_runs = 3;
  std::int64_t margin = 50;
  bool json = false;
};

std::vector<lab::games::LabFigures> run_lab(const TransferArgs& a, const std::string& profile) {
  lab::timing::LabSettings s = lab_settings(a.openings, a.lab_depth, a.lab_runs);
  s.features = profile_features(profile);
  s.configs = lab::timing::build_configs(a.backends, {a.hash}, {a.threads}, [](const std::string& what) {
    std::fprintf(stderr, "transfer: lab skips %s\n", what.c_str());
  });
  const auto suite = lab::common::load_suite(s.suite_path);
  lab::timing::LabCallbacks cb;
  cb.on_pass = [&](const lab::timing::LabConfig& c, int, double seconds, double) {
    std::fprintf(stderr, "transfer: %s lab %-22s depth %d  %.2f s\n", profile.c_str(),
                 c.label().c_str(), s.depth, seconds);
  };
  const auto rows = lab::timing::summarise(s, suite.size(), lab::timing::run_lab(s, suite, cb));
  return lab::games::lab_figures(lab::timing::lab_summary_json(s, suite.size(), rows));
}

// One match of backend b at T threads against serial at 1 thread, both in
// `profile`; its games from b's side.
std::vector<lab::games::GameScore> play(const TransferArgs& a, const std::string& profile,
                                        const std::string& b, const lab::games::TimeControl& tc,
                                        const std::string& kind, bool& interrupted) {
  lab::games::MatchConfig c;
  c.engines = {"xqlab:backend=" + b + ",hash=" + a.hash + ",threads=" + std::to_string(a.threads) +
                   ",profile=" + profile + ",name=" + b + "-" + std::to_string(a.threads) + "t",
               "xqlab:backend=serial,hash=" + a.hash + ",threads=1,profile=" + profile +
                   ",name=serial-1t"};
  c.tc = tc;
  c.adjudication.resign = lab::games::ResignRule{};
  c.adjudication.draw = lab::games::DrawRule{};
  c.openings_path = a.openings;
  c.openings = lab::common::load_suite(a.openings);
  c.games = a.games;
  if (!a.results.empty()) {
    c.results_path = a.results + "-" + profile + "-" + b + "-" + kind + ".csv";
    c.resume = true;  // a transfer run continues its own files
  }
  const lab::games::MatchResult m =
      run_match_until_sigint(c, "transfer: " + profile + " " + b + " " + kind + ": ");
  interrupted = interrupted || m.interrupted;
  return m.pairings.empty() ? std::vector<lab::games::GameScore>{} : m.pairings.front().scores;
}

int run(const TransferArgs& a0) {
  TransferArgs a = a0;
  if (a.backends.empty())
    for (const BackendInfo& b : backends())
      if (b.name != "serial") a.backends.emplace_back(b.name);
  for (const std::string& b : a.backends) check_pair(b, a.hash);
  lab::games::TimeControl timed = lab::games::parse_time_control(a.tc);
  timed.margin_ms = a.margin;
  lab::games::TimeControl fixed;
  fixed.depth = a.game_depth;
  const lab::common::RunMeta meta = lab::common::run_meta(invocation());
  lab::games::TransferTable t;
  t.threads = a.threads;
  t.time_control = timed.text();
  t.game_depth = a.game_depth;
  t.games = a.games + a.games % 2;
  bool interrupted = false;
  for (const std::string& profile : a.profiles) {
    lab::games::TransferProfile p;
    p.profile = profile;
    const std::vector<lab::games::LabFigures> lab = run_lab(a, profile);
    for (const std::string& b : a.backends) {
      if (interrupted) break;
      lab::games::TransferRow r;
      r.backend = b;
      for (const lab::games::LabFigures& f : lab)
        if (f.backend == b && f.threads == a.threads) r.lab = f;
      const auto time_games = play(a, profile, b, timed, "time", interrupted);
      r.time_wdl = lab::games::wdl_of(time_games);
      r.time_elo = lab::common::elo_estimate(lab::games::penta_of(time_games));
      if (!interrupted) {
        const auto depth_games = play(a, profile, b, fixed, "depth", interrupted);
        r.depth_wdl = lab::games::wdl_of(depth_games);
        r.depth_elo = lab::common::elo_estimate(lab::games::penta_of(depth_games));
      }
      p.rows.push_back(r);
    }
    t.profiles.push_back(p);
    if (interrupted) break;
  }
  if (a.json) print_json(Json{{"meta", meta}, {"transfer", lab::games::transfer_json(t)}});
  else std::printf("%s", lab::games::transfer_text(t).c_str());
  if (interrupted) throw Interrupted("interrupted; the table above covers the games played");
  return 0;
}

}  // namespace

Command add_transfer(CLI::App& root) {
  auto a = std::make_shared<TransferArgs>();
  CLI::App* app = root.add_subcommand(
      "transfer", "per search profile, rank backends by time to depth and by Elo (timed and "
                  "fixed-depth games against serial at 1 thread)");
  app->add_option("--profiles", a->profiles, "profiles, comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"thesis", "modern"}))
      ->capture_default_str();
  add_backends_option(app, "--backends", a->backends, "backends (default: every parallel one)");
  add_threads_option(app, a->threads)->capture_default_str();
  add_hash_option(app, a->hash)->capture_default_str();
  app->add_option("--tc", a->tc, "game clock BASE+INC in seconds")->capture_default_str();
  app->add_option("--timemargin", a->margin, "ms an engine may overstep its time")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{60000}))->capture_default_str();
  app->add_option("--game-depth", a->game_depth, "depth of the fixed-depth games")
      ->check(CLI::Range(1, 64))->capture_default_str();
  app->add_option("--games", a->games, "games per match (even)")
      ->check(CLI::Range(2, 100000))->capture_default_str();
  app->add_option("--lab-depth", a->lab_depth, "depth of the lab's searches")
      ->check(CLI::Range(1, int(kMaxDepth)))->capture_default_str();
  app->add_option("--lab-runs", a->lab_runs, "lab runs (2 or more to separate speedups)")
      ->check(CLI::Range(1, 100))->capture_default_str();
  app->add_option("--openings", a->openings, "suite for the lab and the games")->capture_default_str();
  app->add_option("--results", a->results, "prefix of the matches' results files (continued "
                  "when they exist): PREFIX-PROFILE-BACKEND-time.csv, ...-depth.csv");
  app->add_flag("--json", a->json, "one JSON object on stdout");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
