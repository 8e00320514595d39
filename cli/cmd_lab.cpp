// xqlab lab: the laboratory's main job. Compares parallel backends and hash
// schemes by time to depth on a position suite (lab/timing/runner.h and
// lab/timing/summary.h have the definitions). With no arguments: every
// registered backend, the xor scheme, 1 and 2 threads, the opening suite, at a
// depth chosen so the whole run ends in about ten minutes on two cores.
//
// A long run survives an interruption: every finished search is appended to
// a journal (--journal FILE, by default FILE.journal beside --json-file;
// lab/timing/journal.h), Ctrl-C or SIGTERM stops the search in flight and
// says what is missing, and --resume continues from the journal, searching
// only what is missing; its tables equal those of an uninterrupted run. The
// --json-file document is replaced atomically, and only by a complete run.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/lab_print.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/files.h"
#include "lab/common/meta.h"
#include "lab/common/engines.h"
#include "lab/common/progress.h"
#include "lab/games/external_backend.h"
#include "lab/timing/document.h"
#include "lab/timing/journal.h"
#include "lab/timing/runner.h"
#include "lab/timing/summary.h"

namespace xq::cli {
namespace {

// Depth 8 with 3 runs: about 21 s of serial search per pass over the
// 16-position opening suite on the (shared, loaded) 2-core lab machine
// (docs/journal/2026-11-22.md, lab runner). The default comparison runs the
// serial reference and one representative backend per way of sharing work
// (BackendInfo::in_default_lab), at 1 and 2 threads, so that its time grows
// with the kinds of parallelism, not with the backends (`--backends all`:
// every one); its running time is in docs/RESULTS.md. Depth 9 would take
// ~3x that.
constexpr Depth kDefaultLabDepth = 8;
constexpr int kDefaultRuns = 3;

// Off a terminal, a progress line at least this often (seconds).
constexpr double kKeepAliveSeconds = 60;

struct LabArgs {
  std::string suite = lab::common::default_suite_path(), csv, json_file, journal, by;
  std::vector<std::string> backends, hash{"xor"}, params, engines;
  std::vector<int> threads{1, 2};
  std::vector<int> ranks;  // --ranks: each distributed backend at these rank counts
  // --vary NAME=V1,V2,... (repeatable: their cross product): each reader once per value
  std::vector<std::string> vary;
  int depth = kDefaultLabDepth, runs = kDefaultRuns;
  std::size_t hash_mb = 16;
  bool json = false, quiet = false, resume = false;
  SimArgs sim;  // --simulate (lab/timing/simulation.h)
  std::string profile = "thesis";
  std::string suite_half = "all";
};

std::atomic<bool> g_lab_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
extern "C" void on_lab_signal(int) { g_lab_stop.store(true, std::memory_order_relaxed); }

// SIGINT and SIGTERM set g_lab_stop while the lab runs. After an interruption
// the flag-only handlers stay until the process ends: a second signal
// (timeout(1) forwards one to the child and another to its process group;
// Ctrl-C pressed twice) must not kill the process while it says what is
// missing.
class StopOnSignal {
 public:
  StopOnSignal() {
    g_lab_stop.store(false);
    int_ = std::signal(SIGINT, on_lab_signal);
    term_ = std::signal(SIGTERM, on_lab_signal);
  }
  ~StopOnSignal() {
    if (g_lab_stop.load()) return;
    std::signal(SIGINT, int_);
    std::signal(SIGTERM, term_);
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

 private:
  void (*int_)(int) = SIG_DFL;
  void (*term_)(int) = SIG_DFL;
};

// The journal's path: --journal, else beside --json-file, else none.
std::string journal_path(const LabArgs& a) {
  if (!a.journal.empty()) return a.journal;
  return a.json_file.empty() ? "" : a.json_file + ".journal";
}

// What an interrupted run is missing, on `out`, and the one line main()
// prints as it exits with status 130.
[[noreturn]] void interrupted(std::FILE* out, const lab::timing::LabSettings& s,
                              std::size_t positions, const std::vector<lab::timing::LabRun>& runs,
                              const std::string& journal) {
  const std::size_t all = lab::timing::lab_searches(s, positions);
  std::fprintf(out, "\nxqlab lab: interrupted: %zu of %zu searches finished, %zu missing; no "
               "summary, no --json-file from a part of the searches\n", runs.size(), all,
               all - runs.size());
  for (const std::string& line : lab::timing::missing_searches(s, positions, runs))
    std::fprintf(out, "  missing %s\n", line.c_str());
  std::fflush(out);
  throw Interrupted("interrupted after " + std::to_string(runs.size()) + " of " +
                    std::to_string(all) + " searches; " +
                    (journal.empty() ? "no journal keeps them (--journal FILE)"
                                     : "the journal " + journal +
                                           " keeps them: the same command with --resume "
                                           "continues"));
}

void print_settings(std::FILE* head, const lab::timing::LabSettings& s, std::size_t positions) {
  if (s.sim) std::fprintf(head, "%s\n", lab::timing::sim_banner(*s.sim, s.runs).c_str());
  std::fprintf(head, "lab settings: suite %s, %zu positions, depth %d, runs %d, %zu MiB, %zu "
               "configurations:", suite_text(s).c_str(), positions, s.depth, s.runs,
               s.base.hash_mib, s.configs.size());
  for (const lab::timing::LabConfig& c : s.configs) std::fprintf(head, " %s", c.label().c_str());
  std::fprintf(head, "\n");
  if (const std::string note = lab::timing::oversubscription_note(s); !note.empty())
    std::fprintf(head, "%s\n", note.c_str());
  std::fflush(head);
}

// Atomically: a reader, or a run interrupted while writing, finds the old
// document or the whole new one.
void write_json_file(const std::string& path, const Json& doc) {
  try {
    lab::common::write_file_atomically(path, lab::common::dump_line(doc) + "\n");
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("--json-file: ") + e.what());
  }
}

// The external engines of the configurations, in order: the text tables
// call the k-th "engineK" (a command line does not fit their columns).
std::vector<std::string> external_engines(const lab::timing::LabSettings& s) {
  std::vector<std::string> out;
  for (const lab::timing::LabConfig& c : s.configs)
    if (lab::common::is_external_engine(c.backend) &&
        std::find(out.begin(), out.end(), c.backend) == out.end())
      out.push_back(c.backend);
  return out;
}

std::string shown_name(const std::vector<std::string>& engines, const std::string& backend) {
  const auto it = std::find(engines.begin(), engines.end(), backend);
  return it == engines.end() ? backend : "engine" + std::to_string(it - engines.begin() + 1);
}

// The text tables with the engines' short names.
void print_tables(const lab::timing::LabSettings& s, std::size_t positions,
                  std::vector<lab::timing::LabSummary> rows,
                  std::vector<lab::timing::WorkSpanFit> fits) {
  const std::vector<std::string> engines = external_engines(s);
  lab::timing::LabSettings shown = s;
  for (lab::timing::LabConfig& c : shown.configs) c.backend = shown_name(engines, c.backend);
  for (lab::timing::LabSummary& r : rows) r.config.backend = shown_name(engines, r.config.backend);
  for (lab::timing::WorkSpanFit& f : fits) f.backend = shown_name(engines, f.backend);
  print_lab_text(shown, positions, rows, fits);
}

// What the external engines reported: their depth is their own (their plies,
// extensions and reductions), so only their speedup compares with xqlab's;
// an engine that reports no nodes has no NPS or search overhead.
void print_engine_notes(std::FILE* out, const lab::timing::LabSettings& s,
                        const std::vector<lab::timing::LabRun>& runs) {
  const std::vector<std::string> engines = external_engines(s);
  for (const std::string& e : engines) {
    const lab::timing::LabConfig c{e, "own", 1, {}};
    bool nodes = false;
    int depth = 0;
    for (const lab::timing::LabRun& r : runs) {
      if (s.configs[std::size_t(r.config)].backend != c.backend) continue;
      nodes = nodes || r.result.stats.nodes > 0;
      depth = std::max(depth, int(r.result.depth));
    }
    std::fprintf(out, "%s = %s: its depth is its own plies (compare its speedup, not its depth "
                 "or nodes, with xqlab's); %s; %s\n", shown_name(engines, e).c_str(), e.c_str(),
                 depth > 0 ? ("reports depth up to " + std::to_string(depth)).c_str()
                           : "reports NO depth",
                 nodes ? "reports nodes" : "reports NO nodes: no NPS, no search overhead");
  }
}

int run(const LabArgs& a) {
  lab::timing::LabSettings s = lab_settings(a.suite, a.depth, a.runs, a.hash_mb, a.params);
  s.suite_half = a.suite_half;
  s.sim = sim_settings(a.sim);
  s.features = profile_features(a.profile);
  std::vector<std::string> names;
  const bool all = std::find(a.backends.begin(), a.backends.end(), "all") != a.backends.end();
  for (const BackendInfo& b : backends())
    if (all || (a.backends.empty() && b.in_default_lab)) names.emplace_back(b.name);
  if (!all) names.insert(names.end(), a.backends.begin(), a.backends.end());
  names.insert(names.end(), a.engines.begin(), a.engines.end());
  s.configs = lab::timing::build_configs(names, a.hash, a.threads, [](const std::string& what) {
    std::fprintf(stderr, "lab: skipping %s\n", what.c_str());
  });
  if (!a.ranks.empty()) s.configs = lab::timing::with_ranks(std::move(s.configs), a.ranks);
  for (const std::string& v : a.vary) {
    try {
      s.configs = lab::timing::with_variants(std::move(s.configs), v);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (s.sim) lab::timing::check_simulable(s.configs);
  s.external = [](const lab::timing::LabConfig& c, const BackendConfig& bc) {
    return lab::games::make_external_backend(c.backend, bc);
  };
  // An engine that cannot start or rejects its options fails here, in one
  // line, before any search.
  for (const std::string& e : a.engines) (void)lab::games::make_external_backend(e, s.base);
  const std::vector<lab::common::SuiteEntry> suite =
      lab::common::load_book(s.suite_path, s.suite_half, true);
  // --by: the labels are read before any search, so a missing column fails first.
  const std::vector<std::string> labels =
      a.by.empty() ? std::vector<std::string>{}
                   : lab::common::suite_column(s.suite_path, a.by, s.suite_half);
  std::FILE* text = a.json ? stderr : stdout;
  if (!a.json_file.empty()) {  // fail before work, without touching the file
    try {
      lab::common::check_writable(a.json_file);
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("--json-file: ") + e.what());
    }
  }
  const std::string journal = journal_path(a);
  lab::timing::LabResume resume;
  resume.done = journal_start(a.resume, journal, s, suite, "lab");
  resume.stop = &g_lab_stop;
  std::optional<lab::timing::JournalWriter> writer;
  open_journal(writer, journal, s, suite, resume.done);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> csv(nullptr, std::fclose);
  if (!a.csv.empty()) {
    csv.reset(std::fopen(a.csv.c_str(), "w"));
    if (!csv) throw UsageError("cannot write --csv file '" + a.csv + "'");
    std::fprintf(csv.get(), "%s\n", lab::timing::lab_csv_header().c_str());
  }
  print_settings(text, s, suite.size());
  lab::common::Progress progress("lab", s.configs.size() * std::size_t(s.runs), a.quiet);
  progress.keep_alive(kKeepAliveSeconds);
  const auto what = [&](const lab::timing::LabRun& r) {
    return "run " + std::to_string(r.run + 1) + "/" + std::to_string(s.runs) + "  " +
           s.configs[std::size_t(r.config)].label() + "  position " +
           std::to_string(r.position + 1) + "/" + std::to_string(suite.size());
  };
  lab::timing::LabCallbacks cb;
  cb.on_finished = [&](const lab::timing::LabRun& r) {
    if (writer) writer->append(r);
    progress.working(what(r));
  };
  cb.on_search = [&](const lab::timing::LabRun& r) {
    progress.working(what(r));
    if (!csv) return;
    std::fprintf(csv.get(), "%s\n",
                 lab::timing::lab_csv_row(s, r, suite[std::size_t(r.position)]).c_str());
    std::fflush(csv.get());
  };
  cb.on_pass = [&](const lab::timing::LabConfig& c, int run, double seconds, double) {
    char label[160];
    std::snprintf(label, sizeof label, "run %d/%d  %-22s %zu positions  %8.3f s", run + 1, s.runs,
                  c.label().c_str(), suite.size(), seconds);
    progress.done(label);
  };
  std::vector<lab::timing::LabRun> runs;
  {
    const StopOnSignal on_signal;
    runs = lab::timing::run_lab(s, suite, cb, resume);
  }
  progress.finish();
  if (g_lab_stop.load()) interrupted(text, s, suite.size(), runs, writer ? journal : "");
  const std::vector<lab::timing::LabSummary> rows = lab::timing::summarise(s, suite.size(), runs);
  const std::vector<lab::timing::GroupSummary> groups =
      a.by.empty() ? std::vector<lab::timing::GroupSummary>{}
                   : lab::timing::summarise_by(s, labels, runs);
  if (a.json || !a.json_file.empty()) {
    Json doc = lab::timing::lab_document(lab::common::run_meta(invocation()), s, suite, runs, rows);
    if (!a.by.empty()) doc["by"] = lab::timing::groups_json(a.by, groups);
    if (!a.json_file.empty()) write_json_file(a.json_file, doc);
    if (a.json) print_json(doc);
  }
  if (!a.json) print_tables(s, suite.size(), rows, lab::timing::fit_work_span(s, runs));
  if (!a.json && !a.by.empty()) print_lab_groups(s, a.by, groups);
  print_engine_notes(text, s, runs);
  return 0;
}

}  // namespace

Command add_lab(CLI::App& root) {
  auto a = std::make_shared<LabArgs>();
  CLI::App* app = root.add_subcommand("lab", "time-to-depth speedup / efficiency / search "
                                             "overhead of backends x schemes x threads");
  app->add_option("--suite", a->suite, "position suite (CSV with a fen column)")
      ->capture_default_str();
  add_suite_half_option(app, a->suite_half);
  app->add_option("--by", a->by,
                  "also give the figures per group of positions: the suite's column COLUMN names "
                  "each position's group (e.g. --by size on data/stratified.csv)");
  std::string defaults;  // the default list: serial and one backend per way of sharing work
  for (const BackendInfo& b : backends())
    if (b.in_default_lab) defaults += (defaults.empty() ? "" : ",") + std::string(b.name);
  app->add_option("--backends", a->backends,
                  "backends, comma-separated, or 'all' for every registered backend (default: " +
                      defaults + ": the serial reference and one representative per way the "
                      "threads share work)")
      ->delimiter(',')
      ->check(CLI::IsMember({std::string("all")}) | backend_name());
  app->add_option("--engine", a->engines,
                  "an external engine beside the backends, repeatable: uci:COMMAND[,KEY=VALUE...] "
                  "(UCI options; Threads and Hash come from --threads and --hash-mb), e.g. "
                  "uci:/usr/games/fairy-stockfish; searched at every --threads count, its "
                  "reference is itself at one thread")
      ->check([](const std::string& v) {
        return lab::common::is_external_engine(v) ? std::string()
                                                  : "an engine is uci:COMMAND[,KEY=VALUE...]";
      });
  add_hash_option(app, a->hash)->capture_default_str();
  add_threads_option(app, a->threads)->capture_default_str();
  app->add_option("--vary", a->vary,
                  "NAME=V1,V2,...: every configuration whose backend reads parameter NAME runs "
                  "once per value, side by side in each run (e.g. history_share=thread,all); "
                  "NAME1,NAME2=V1,V2 sets both to each value; repeated: every combination; its "
                  "rows show the values after the backend's name, its JSON rows a params list");
  app->add_option("--ranks", a->ranks,
                  "rank counts, comma-separated: each distributed backend (mpi-lazy, mpi-abdada, "
                  "mpi-aphid) runs at every one, with --threads threads per rank (over MPI: "
                  "mpirun -np the largest)")
      ->delimiter(',')
      ->check(CLI::Range(1, 64));
  add_table_options(app, a->hash_mb, a->params);
  app->add_option("--depth", a->depth, "depth of every search")
      ->check(CLI::Range(1, int(kMaxDepth)))->capture_default_str();
  app->add_option("--runs", a->runs, "runs per configuration (time is the median)")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  app->add_option("--csv", a->csv, "write one row per search to this file");
  app->add_flag("--json", a->json, "the summary as one JSON object on stdout");
  app->add_option("--json-file", a->json_file, "also write that JSON document to this file "
                  "(the input of 'xqlab report'), atomically and only when every search is done");
  app->add_option("--journal", a->journal, "append every finished search to this file (default: "
                  "the --json-file's path + .journal)");
  app->add_flag("--resume", a->resume, "continue an interrupted run from its journal: search "
                "only what is missing (same options as that run)");
  app->add_flag("--quiet", a->quiet, "no progress on stderr");
  add_sim_options(app, a->sim);
  add_profile_option(app, a->profile);
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
