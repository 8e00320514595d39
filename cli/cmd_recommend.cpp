// xqlab recommend: which parallel backend to ship for a thread count and a
// time control. Runs the time-to-depth lab on the candidates (or reads its
// JSON with --lab-json) and a round-robin SPRT match among them, then prints
// the ranking with its evidence and says whether it is decided
// (lab/games/recommend.h). The defaults finish in a few minutes on two cores.
// With several thread counts (or --from-documents) it searches nothing and
// plays nothing: one decision per count from the lab and transfer documents
// given (lab/games/recommend_threads.h), in seconds.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/match_run.h"
#include "cli/lab_print.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/meta.h"
#include "lab/games/recommend.h"
#include "lab/games/recommend_threads.h"
#include "lab/games/recommend_values.h"
#include "lab/timing/document.h"
#include "lab/timing/runner.h"
#include "lab/timing/summary.h"
#include "parallel/params.h"

namespace xq::cli {
namespace {

struct RecommendArgs {
  std::vector<std::string> candidates, sprt{"elo0=0", "elo1=20", "alpha=0.05", "beta=0.05"};
  std::vector<std::string> lab_json, transfer_json, match_json;
  std::string hash = "xor", tc, suite = lab::common::default_suite_path(), results;
  BookArgs book;
  std::vector<int> threads{2};
  int games = 10, lab_depth = 7, lab_runs = 1;
  std::int64_t movetime = 0, margin = 50;
  bool json = false, from_documents = false;
  std::string param_verdict;  // from documents: which setting of this parameter
  std::string profile = "thesis";
  CLI::App* app = nullptr;  // to tell which options were given
};

// One decision per thread count from documents alone: no search, no game.
int run_from_documents(const RecommendArgs& a) {
  for (const char* o : {"--candidates", "--tc", "--movetime", "--games", "--sprt", "--results",
                        "--lab-depth", "--lab-runs", "--suite", "--book", "--hash"})
    if (a.app->count(o) > 0)
      throw UsageError(std::string("recommend from documents searches and plays nothing: ") + o +
                       " does not apply (give one thread count without --from-documents to "
                       "measure)");
  if (a.lab_json.empty() && a.transfer_json.empty() && a.match_json.empty())
    throw UsageError("recommend from documents: give --lab-json, --transfer-json or --match-json files");
  std::vector<lab::games::EvidenceDoc> labs, games;
  for (const std::string& f : a.lab_json)
    for (auto& d : lab::games::read_evidence(f, "--lab-json")) labs.push_back(std::move(d));
  for (const std::string& f : a.transfer_json)
    for (auto& d : lab::games::read_evidence(f, "--transfer-json")) games.push_back(std::move(d));
  for (const std::string& f : a.match_json)
    for (auto& d : lab::games::read_evidence(f, "--match-json")) games.push_back(std::move(d));
  if (!a.param_verdict.empty()) {
    if (a.param_verdict != "hash") find_param(a.param_verdict);  // unknown: one line, exit 2
    if (labs.empty()) throw UsageError("--param-verdict reads lab documents: give --lab-json files");
    const auto rows = lab::games::recommend_values(a.threads, a.profile, a.param_verdict, labs);
    if (a.json)
      print_json(Json{{"meta", lab::common::run_meta(invocation())},
                      {"recommend_values", lab::games::values_json(rows, a.profile, a.param_verdict)}});
    else std::printf("%s", lab::games::values_text(rows, a.profile, a.param_verdict).c_str());
    return 0;
  }
  const auto rows = lab::games::recommend_threads(a.threads, a.profile, labs, games);
  if (a.json)
    print_json(Json{{"meta", lab::common::run_meta(invocation())},
                    {"recommend_threads", lab::games::threads_json(rows, a.profile)}});
  else std::printf("%s", lab::games::threads_text(rows, a.profile).c_str());
  return 0;
}

std::vector<std::string> default_candidates(int threads) {
  std::vector<std::string> out;
  for (const BackendInfo& b : backends())
    if (threads == 1 || b.name != "serial") out.emplace_back(b.name);
  return out;
}

std::vector<lab::games::LabFigures> run_lab_for(const RecommendArgs& a,
                                                const std::vector<std::string>& names) {
  lab::timing::LabSettings s = lab_settings(a.suite, a.lab_depth, a.lab_runs);
  s.features = profile_features(a.profile);
  s.configs = lab::timing::build_configs(names, {a.hash}, a.threads, [](const std::string& what) {
    std::fprintf(stderr, "recommend: lab skips %s\n", what.c_str());
  });
  const auto suite = lab::common::load_suite(s.suite_path);
  lab::timing::LabCallbacks cb;
  cb.on_pass = [&](const lab::timing::LabConfig& c, int, double seconds, double) {
    std::fprintf(stderr, "recommend: lab %-22s depth %d  %.2f s\n", c.label().c_str(), s.depth, seconds);
  };
  const auto rows = lab::timing::summarise(s, suite.size(), lab::timing::run_lab(s, suite, cb));
  return lab::games::lab_figures(lab::timing::lab_summary_json(s, suite.size(), rows));
}

int run(const RecommendArgs& a) {
  if (a.from_documents || a.threads.size() > 1 || !a.param_verdict.empty())
    return run_from_documents(a);
  if (!a.transfer_json.empty() || !a.match_json.empty())
    throw UsageError("--transfer-json and --match-json are read from documents only (--from-documents)");
  if (a.lab_json.size() > 1)
    throw UsageError("one --lab-json file when recommend measures (several with --from-documents)");
  const int threads = a.threads.front();
  const std::vector<std::string> names = a.candidates.empty() ? default_candidates(threads) : a.candidates;
  if (names.size() < 2) throw UsageError("give at least two candidates (--candidates a,b)");
  lab::games::MatchConfig c;
  for (const std::string& n : names)
    c.engines.push_back("xqlab:backend=" + n + ",hash=" + a.hash + ",threads=" + std::to_string(threads) +
                        ",profile=" + a.profile + ",name=" + n);
  if (!a.tc.empty() && a.movetime > 0) throw UsageError("give --tc or --movetime, not both");
  // A game clock by default: a fixed move time is overstepped on a loaded
  // machine often enough to turn the match into a test of time keeping.
  if (a.movetime > 0) c.tc.movetime_ms = a.movetime;
  else c.tc = lab::games::parse_time_control(a.tc.empty() ? "1+0.1" : a.tc);
  c.tc.margin_ms = a.margin;
  c.adjudication.resign = lab::games::ResignRule{};
  c.adjudication.draw = lab::games::DrawRule{};
  c.games = a.games;
  c.openings_path = a.book.path;
  c.openings = book_openings(a.book, c.games + c.games % 2, "recommend");
  c.sprt = lab::games::parse_sprt(a.sprt);
  c.results_path = a.results;
  c.resume = !a.results.empty();  // a recommend run continues its own file
  for (const std::string& n : names) check_pair(n, a.hash);
  const std::vector<lab::games::LabFigures> lab =
      a.lab_json.empty() ? run_lab_for(a, names) : lab::games::read_lab_json(a.lab_json.front());
  const lab::common::RunMeta meta = lab::common::run_meta(invocation());  // the start of the run
  const lab::games::MatchResult m = run_match_until_sigint(c, "recommend: ");
  const lab::games::Recommendation r = lab::games::recommend(c, m, names, threads, lab);
  if (a.json)
    print_json(Json{{"meta", meta}, {"match", lab::games::match_json(c, m)},
                    {"recommendation", lab::games::recommendation_json(r)}});
  else std::printf("%s", lab::games::recommendation_text(r, c, threads).c_str());
  if (m.interrupted) throw Interrupted("interrupted; the recommendation above covers the games played");
  return 0;
}

}  // namespace

Command add_recommend(CLI::App& root) {
  auto a = std::make_shared<RecommendArgs>();
  CLI::App* app = root.add_subcommand("recommend", "rank backends for a thread count and a time control "
                                                   "(time to depth + SPRT games); for several thread "
                                                   "counts, one decision each from documents");
  a->app = app;
  add_backends_option(app, "--candidates", a->candidates,
                      "backends to compare (default: every parallel one)");
  add_threads_option(app, a->threads)->capture_default_str()->description(
      "thread counts, comma-separated: one measures (lab + games); several decide from documents "
      "(--lab-json, --transfer-json) without searching or playing");
  add_hash_option(app, a->hash)->capture_default_str();
  app->add_option("--tc", a->tc, "game clock BASE+INC in seconds (default 1+0.1)");
  app->add_option("--movetime", a->movetime, "fixed time per move in ms")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
  app->add_option("--timemargin", a->margin, "ms an engine may overstep its time")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{60000}))->capture_default_str();
  app->add_option("--games", a->games, "most games per pairing")->check(CLI::Range(2, 100000))->capture_default_str();
  app->add_option("--sprt", a->sprt, "elo0=0 elo1=20 alpha=0.05 beta=0.05 [model=...]")
      ->expected(1, 5)->capture_default_str();
  app->add_option("--lab-json", a->lab_json,
                  "read the time-to-depth figures from `xqlab lab --json` output (repeatable with "
                  "--from-documents: measured and SIMULATED lab documents)");
  app->add_option("--transfer-json", a->transfer_json,
                  "from documents: `xqlab transfer --json` output, the Elo of each backend at its "
                  "thread count (repeatable)");
  app->add_option("--match-json", a->match_json,
                  "from documents: `xqlab match --json` output, head-to-head games of two xqlab "
                  "backends at a thread count (repeatable)");
  app->add_option("--param-verdict", a->param_verdict,
                  "from documents: for each backend and thread count, which setting of this "
                  "backend parameter the --lab-json documents support (rows that ran it with "
                  "lab --vary against the same backend at its defaults), instead of which backend; "
                  "'hash': which scheme, each against the same backend's xor row of one document, "
                  "times paired by run (implies --from-documents)");
  app->add_flag("--from-documents", a->from_documents,
                "decide from --lab-json, --transfer-json and --match-json documents alone, one "
                "decision per "
                "thread count: no search, no game (implied by several --threads)");
  app->add_option("--lab-depth", a->lab_depth, "depth of the lab's searches")
      ->check(CLI::Range(1, int(kMaxDepth)))->capture_default_str();
  app->add_option("--lab-runs", a->lab_runs, "lab runs")->check(CLI::Range(1, 100))->capture_default_str();
  app->add_option("--suite", a->suite, "the lab's positions (time to depth)")->capture_default_str();
  add_book_options(app, a->book, "verdict", false, true);
  app->add_option("--results", a->results, "match results file (continued when it exists)");
  app->add_flag("--json", a->json, "one JSON object on stdout");
  add_profile_option(app, a->profile);
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
