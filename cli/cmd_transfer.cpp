// xqlab transfer: does the backend ranking survive a change of search
// profile? Per profile, the time-to-depth lab (serial at 1 thread and every
// backend at T threads), the serial search with twice the clock against
// itself (Elo per doubling: each backend's time factor), then for each
// backend two matches against the same profile's serial search at 1 thread
// -- one at a time control, one at a fixed depth -- and the table that ranks
// the backends by each measure and says where the evidence decides
// (lab/games/transfer.h). Long: (2 x backends + 1) x profiles matches;
// `--games` and the presets in docs/RESULTS.md say what they cost on two
// cores.
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/lab_print.h"
#include "cli/match_run.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/meta.h"
#include "lab/common/text.h"
#include "lab/games/match_stats.h"
#include "lab/games/transfer.h"
#include "lab/timing/document.h"
#include "lab/timing/runner.h"
#include "lab/timing/summary.h"

namespace xq::cli {
namespace {

// A depth per profile: "D" for every profile, or "thesis=D,modern=D" (a
// profile not named keeps its default). The defaults give both profiles
// about the same nodes per search on data/openings.csv (serial, 1 thread,
// mean of the first 8 openings: thesis depth 6 192,102 and depth 7 585,582
// nodes; modern depth 12 154,779 and depth 15 571,914): the modern profile
// prunes so hard that one depth for both would compare a second's search
// with a few milliseconds'.
struct ProfileDepths {
  std::map<std::string, int> depth;
  int of(const std::string& profile) const { return depth.at(profile); }
};

ProfileDepths parse_depths(const std::string& option, const std::string& text,
                           ProfileDepths defaults, int max_depth) {
  const auto number = [&](const std::string& s) {
    const std::optional<int> v = lab::common::whole_int(s);
    if (!v || *v < 1 || *v > max_depth)
      throw UsageError(option + ": '" + s + "' is not a depth in 1.." + std::to_string(max_depth));
    return *v;
  };
  if (text.find('=') == std::string::npos) {
    const int d = number(text);
    for (auto& [profile, depth] : defaults.depth) depth = d;
    return defaults;
  }
  for (const std::string& item : lab::common::split_commas(text)) {
    const std::size_t eq = item.find('=');
    const std::string profile = item.substr(0, eq);
    if (eq == std::string::npos || !defaults.depth.count(profile))
      throw UsageError(option + ": expected D or PROFILE=D[,PROFILE=D] (profiles thesis, modern), "
                       "got '" + item + "'");
    defaults.depth[profile] = number(item.substr(eq + 1));
  }
  return defaults;
}

constexpr const char* kGameDepths = "thesis=6,modern=12";
constexpr const char* kLabDepths = "thesis=7,modern=15";

// `text` over the defaults `fallback`.
ProfileDepths profile_depths(const std::string& option, const std::string& text,
                             const std::string& fallback, int max_depth) {
  const ProfileDepths none{{{"thesis", 0}, {"modern", 0}}};
  return parse_depths(option, text, parse_depths(option, fallback, none, max_depth), max_depth);
}

struct TransferArgs {
  std::vector<std::string> profiles{"thesis", "modern"}, backends;
  std::string hash = "xor", tc = "1+0.1", suite = lab::common::default_suite_path(), results;
  BookArgs book;
  std::string game_depth_text = kGameDepths, lab_depth_text = kLabDepths;
  ProfileDepths game_depth, lab_depth;
  int threads = 2, games = 10, lab_runs = 3;
  std::int64_t margin = 50;
  bool json = false;
};

std::vector<lab::games::LabFigures> run_lab(const TransferArgs& a, const std::string& profile) {
  lab::timing::LabSettings s = lab_settings(a.suite, a.lab_depth.of(profile), a.lab_runs);
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

// An in-process engine of `backend` at `threads` in `profile`.
std::string xqlab_spec(const TransferArgs& a, const std::string& profile, const std::string& backend,
                       int threads, const std::string& name) {
  return "xqlab:backend=" + backend + ",hash=" + a.hash + ",threads=" + std::to_string(threads) +
         ",profile=" + profile + ",name=" + name;
}

// One match of engine `spec` against the serial search at 1 thread, both in
// `profile`, into PREFIX-PROFILE-WHAT-KIND.csv; its games from spec's side.
std::vector<lab::games::GameScore> play(const TransferArgs& a, const std::string& profile,
                                        const std::string& spec, const std::string& what,
                                        const lab::games::TimeControl& tc, const std::string& kind,
                                        bool& interrupted) {
  lab::games::MatchConfig c;
  // Every match plays against the serial search at 1 thread.
  c.engines = {spec, xqlab_spec(a, profile, "serial", 1, "serial-1t")};
  c.tc = tc;
  c.adjudication.resign = lab::games::ResignRule{};
  c.adjudication.draw = lab::games::DrawRule{};
  c.games = a.games;
  c.openings_path = a.book.path;
  c.openings = load_book(a.book);
  if (!a.results.empty()) {
    c.results_path = a.results + "-" + profile + "-" + what + "-" + kind + ".csv";
    c.resume = true;  // a transfer run continues its own files
  }
  const lab::games::MatchResult m =
      run_match_until_sigint(c, "transfer: " + profile + " " + what + " " + kind + ": ");
  interrupted = interrupted || m.interrupted;
  return m.pairings.empty() ? std::vector<lab::games::GameScore>{} : m.pairings.front().scores;
}

int run(const TransferArgs& a0) {
  TransferArgs a = a0;
  // Checked once, before any game: every match of the run plays this book.
  const std::size_t openings = book_openings(a.book, a.games + a.games % 2, "transfer").size();
  a.game_depth = profile_depths("--game-depth", a.game_depth_text, kGameDepths, 64);
  a.lab_depth = profile_depths("--lab-depth", a.lab_depth_text, kLabDepths, kMaxDepth);
  if (a.backends.empty())
    for (const BackendInfo& b : backends())
      if (b.name != "serial") a.backends.emplace_back(b.name);
  for (const std::string& b : a.backends) check_pair(b, a.hash);
  lab::games::TimeControl timed = lab::games::parse_time_control(a.tc);
  timed.margin_ms = a.margin;
  const lab::common::RunMeta meta = lab::common::run_meta(invocation());
  lab::games::TransferTable t;
  t.threads = a.threads;
  t.time_control = timed.text();
  t.games = a.games + a.games % 2;
  bool interrupted = false;
  for (const std::string& profile : a.profiles) {
    lab::games::TransferProfile p;
    p.profile = profile;
    p.lab_depth = a.lab_depth.of(profile);
    p.game_depth = a.game_depth.of(profile);
    lab::games::TimeControl fixed;
    fixed.depth = p.game_depth;
    const std::vector<lab::games::LabFigures> lab = run_lab(a, profile);
    // Elo per doubling of the clock, for the time factors.
    lab::games::TimeControl twice = timed;
    twice.base_ms *= 2;
    twice.inc_ms *= 2;
    const auto doubling =
        play(a, profile, xqlab_spec(a, profile, "serial", 1, "serial-1t-2x") + ",tc=" + twice.text(), "serial",
             timed, "doubling", interrupted);
    p.doubling_wdl = lab::games::wdl_of(doubling);
    p.doubling = lab::games::elo_of(doubling, openings);
    for (const std::string& b : a.backends) {
      if (interrupted) break;
      lab::games::TransferRow r;
      r.backend = b;
      for (const lab::games::LabFigures& f : lab)
        if (f.backend == b && f.threads == a.threads) r.lab = f;
      const std::string spec =
          xqlab_spec(a, profile, b, a.threads, b + "-" + std::to_string(a.threads) + "t");
      const auto time_games = play(a, profile, spec, b, timed, "time", interrupted);
      r.time_wdl = lab::games::wdl_of(time_games);
      r.time_elo = lab::games::elo_of(time_games, openings);
      if (!interrupted) {
        const auto depth_games = play(a, profile, spec, b, fixed, "depth", interrupted);
        r.depth_wdl = lab::games::wdl_of(depth_games);
        r.depth_elo = lab::games::elo_of(depth_games, openings);
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
  app->add_option("--game-depth", a->game_depth_text,
                  "depth of the fixed-depth games: D, or per profile thesis=D,modern=D")
      ->capture_default_str();
  app->add_option("--games", a->games, "games per match (even)")
      ->check(CLI::Range(2, 100000))->capture_default_str();
  app->add_option("--lab-depth", a->lab_depth_text,
                  "depth of the lab's searches: D, or per profile thesis=D,modern=D")
      ->capture_default_str();
  app->add_option("--lab-runs", a->lab_runs, "lab runs (2 or more to separate speedups)")
      ->check(CLI::Range(1, 100))->capture_default_str();
  app->add_option("--suite", a->suite, "the lab's positions (time to depth)")->capture_default_str();
  add_book_options(app, a->book, "verdict", false, true);
  app->add_option("--results", a->results, "prefix of the matches' results files (continued "
                  "when they exist): PREFIX-PROFILE-BACKEND-time.csv, ...-depth.csv, "
                  "PREFIX-PROFILE-serial-doubling.csv");
  app->add_flag("--json", a->json, "one JSON object on stdout");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
