#include "cli/options.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "cli/usage_error.h"
#include "hashing/schemes.h"
#include "lab/common/suite.h"
#include "lab/timing/journal.h"
#include "parallel/params.h"

namespace xq::cli {
namespace {

// A validator from a function that throws std::invalid_argument on bad input.
template <class F>
CLI::Validator from_throwing(F check, const std::string& name) {
  return CLI::Validator(
      [check](std::string& text) -> std::string {
        try {
          check(text);
          return "";
        } catch (const std::invalid_argument& e) {
          return e.what();
        }
      },
      name);
}

std::string params_help() {
  std::string s = "backend parameter, repeatable:";
  for (const BackendParam& p : backend_params())
    s += " " + std::string(p.name) + "=" + p.range_text();
  return s + " ('xqlab list' describes them)";
}

}  // namespace

CLI::Validator scheme_name() {
  // visit_scheme holds the one unknown-scheme message.
  return from_throwing([](const std::string& s) { visit_scheme(s, [](auto) { return 0; }); },
                       "SCHEME");
}

CLI::Validator backend_name() {
  return from_throwing([](const std::string& s) { (void)find_backend(s); }, "BACKEND");
}

CLI::Validator param_assignment() {
  return from_throwing(
      [](const std::string& s) {
        BackendConfig scratch;
        set_param(scratch, s);
      },
      "NAME=VALUE");
}

CLI::Validator fen_or_startpos() {
  return from_throwing(
      [](const std::string& s) {
        Position pos;
        if (s.empty()) throw std::invalid_argument("empty FEN (give a FEN or 'startpos')");
        if (s == "startpos") return;
        if (const std::string err = pos.set_fen(s); !err.empty())
          throw std::invalid_argument(err);
      },
      "FEN");
}

CLI::Option* add_hash_option(CLI::App* app, std::string& target) {
  return app->add_option("--hash", target, "hash scheme ('xqlab list' names them)")
      ->check(scheme_name());
}

CLI::Option* add_hash_option(CLI::App* app, std::vector<std::string>& target) {
  return app->add_option("--hash", target, "hash schemes, comma-separated")
      ->delimiter(',')
      ->check(scheme_name());
}

CLI::Option* add_threads_option(CLI::App* app, int& target) {
  return app->add_option("--threads", target, "threads")
      ->check(CLI::Range(1, kMaxBackendThreads));
}

CLI::Option* add_threads_option(CLI::App* app, std::vector<int>& target) {
  return app->add_option("--threads", target, "thread counts, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1, kMaxBackendThreads));
}

void add_table_options(CLI::App* app, std::size_t& hash_mb, std::vector<std::string>& params) {
  app->add_option("--hash-mb", hash_mb, "transposition table size in MiB")
      ->check(CLI::Range(std::int64_t{1}, kMaxHashMib))
      ->capture_default_str();
  app->add_option("--param", params, params_help())
      ->allow_extra_args(false)
      ->check(param_assignment());
  // Defined after --param: CLI11 runs the callbacks in definition order, so
  // the file's assignments go in front of the ones --param already stored.
  app->add_option_function<std::string>(
         "--params",
         [&params](const std::string& path) {
           try {
             const std::vector<std::string> file = read_params_file(path);
             params.insert(params.begin(), file.begin(), file.end());
           } catch (const std::invalid_argument& e) {
             throw CLI::ValidationError("--params", e.what());
           }
         },
         "backend parameters from a file of NAME=VALUE lines (as 'xqlab tune --save' "
         "writes); --param overrides them")
      ->allow_extra_args(false);
}

std::vector<std::string> read_params_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read parameter file '" + path + "'");
  std::vector<std::string> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.pop_back();
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    line.erase(0, start);
    try {
      BackendConfig scratch;
      set_param(scratch, line);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ":" + std::to_string(n) + ": " + e.what());
    }
    out.push_back(line);
  }
  return out;
}

CLI::Option* add_backends_option(CLI::App* app, const std::string& name,
                                 std::vector<std::string>& target, const std::string& help) {
  return app->add_option(name, target, help)->delimiter(',')->check(backend_name());
}

void add_backend_options(CLI::App* app, BackendArgs& args) {
  app->add_option("--backend", args.backend, "parallel backend ('xqlab list' names them)")
      ->check(backend_name())
      ->capture_default_str();
  add_hash_option(app, args.hash);
  add_threads_option(app, args.threads)->capture_default_str();
  add_table_options(app, args.hash_mb, args.params);
}

void apply_params(BackendConfig& config, const std::vector<std::string>& params) {
  for (const std::string& p : params) set_param(config, p);
}

BackendConfig backend_config(const BackendArgs& args) {
  const BackendInfo& info = find_backend(args.backend);
  BackendConfig c;
  c.hash = args.hash.empty() ? std::string(info.default_hash) : args.hash;
  c.threads = args.threads;
  c.hash_mib = args.hash_mb;
  apply_params(c, args.params);
  return c;
}

CLI::Option* add_fen_option(CLI::App* app, std::string& target) {
  return app->add_option("--fen", target, "a FEN string or 'startpos'")
      ->required()
      ->check(fen_or_startpos());
}

Position parse_position_arg(const std::string& fen) {
  Position pos;
  if (fen == "startpos") return pos;
  if (const std::string err = pos.set_fen(fen); !err.empty()) throw UsageError(err);
  return pos;
}

CLI::Option* add_profile_option(CLI::App* app, std::string& target) {
  return app->add_option("--profile", target,
                         "search profile: thesis (the 2012 thesis's engine) or modern (with "
                         "late-move reductions, pruning and extensions)")
      ->check(CLI::IsMember({"thesis", "modern"}))
      ->capture_default_str();
}

CLI::Option* add_nodes_option(CLI::App* app, std::uint64_t& target) {
  return app->add_option("--nodes", target,
                         "fixed node count per move, no clock: what a search change is worth per "
                         "node, the same on a loaded machine (a move that takes over 120 s is a "
                         "hang)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
}

Features search_features(const std::string& profile, const std::string& features) {
  if (features.empty()) return profile_features(profile.empty() ? "thesis" : profile);
  if (!profile.empty() && profile != "thesis")
    throw UsageError("give --profile or --features, not both");
  return Features::parse(features);
}

void print_json(const Json& j) {
  std::printf("%s\n", lab::common::dump_line(j).c_str());
  std::fflush(stdout);
}

void add_sim_options(CLI::App* app, SimArgs& a) {
  app->add_flag("--simulate", a.simulate, "run on a simulated machine (one logical thread per "
                "backend thread, virtual time; figures are SIMULATED, never measured)");
  app->add_option("--sim-profile", a.profile, "the simulated machine's costs (default: "
                  "data/sim/epyc-2c.json; written by 'xqlab sim-calibrate')");
  app->add_option("--sim-quantum", a.quantum, "nodes a logical thread runs before the processor "
                  "may go to another")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  app->add_option("--sim-seed", a.seed, "seed of the per-thread speed jitter (lab: of run 1, "
                  "run k uses seed + k - 1); 0: no jitter")
      ->capture_default_str();
  app->add_option("--sim-cores", a.cores, "virtual cores the logical threads are time-sliced on, "
                  "as an operating system does (a slice: the profile's 'slice'); 0: a core "
                  "for every thread")
      ->check(CLI::Range(0, 1 << 16))
      ->capture_default_str();
  app->add_option("--sim-carrier", a.carrier, "what the logical threads run on: fibers (user-space "
                  "contexts of one OS thread: fast hand-overs; the default) or threads (an OS "
                  "thread each: the default of sanitizer builds); the figures are the same")
      ->check(CLI::IsMember({"fibers", "threads"}));
  app->add_option("--sim-cost", a.costs, "what-if cost, NAME=FACTORx or NAME=TIME (ps, ns, us), "
                  "e.g. join=2x, the speed jitter as a fraction (jitter=0.05) and its "
                  "period as a time (jitter_period=100000us); repeatable")
      ->delimiter(',');
}

std::optional<lab::timing::SimSettings> sim_settings(const SimArgs& a) {
  const bool any = !a.profile.empty() || !a.costs.empty() ||
                   a.quantum != lab::timing::kDefaultSimQuantum || a.seed != 1 || a.cores != 0 ||
                   !a.carrier.empty();
  if (!a.simulate) {
    if (any)
      throw UsageError("--sim-profile, --sim-quantum, --sim-seed, --sim-cores, --sim-carrier and "
                       "--sim-cost need --simulate");
    return std::nullopt;
  }
  lab::timing::SimSettings s;
  try {
    // Without --sim-profile: this project's machine kind, when the data
    // folder is at hand; the built-in costs otherwise (the banner says which).
    const std::string path =
        a.profile.empty() ? lab::common::data_dir() + "/sim/epyc-2c.json" : a.profile;
    if (!a.profile.empty() || std::ifstream(path)) s = lab::timing::load_sim_profile(path);
    for (const std::string& c : a.costs) lab::timing::apply_sim_cost(s, c);
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  s.quantum = a.quantum;
  s.seed = a.seed;
  s.cores = a.cores;
  if (!a.carrier.empty())
    s.carrier = a.carrier == "threads" ? sim::Carrier::Threads : sim::Carrier::Fibers;
  return s;
}

std::vector<lab::timing::LabRun> journal_start(bool resume, const std::string& path,
                                               const lab::timing::LabSettings& s,
                                               const std::vector<lab::common::SuiteEntry>& suite,
                                               const char* who) {
  const auto exists = [](const std::string& f) { return std::ifstream(f).good(); };
  if (resume) {
    if (path.empty())
      throw UsageError("--resume needs the journal of the run: --journal FILE or --json-file FILE");
    if (!exists(path)) throw UsageError("--resume: no journal '" + path + "'");
    std::vector<lab::timing::LabRun> done = lab::timing::read_journal(path, s, suite);
    std::fprintf(stderr, "%s: resuming from %s: %zu of %zu searches already done\n", who,
                 path.c_str(), done.size(), lab::timing::lab_searches(s, suite.size()));
    return done;
  }
  if (!path.empty() && exists(path)) {
    if (std::rename(path.c_str(), (path + ".previous").c_str()) != 0)
      throw UsageError("cannot move the old journal '" + path + "' aside");
    std::fprintf(stderr, "%s: a fresh journal %s (the old one is now %s.previous; --resume "
                 "continues a journal)\n", who, path.c_str(), path.c_str());
  }
  return {};
}

void open_journal(std::optional<lab::timing::JournalWriter>& writer, const std::string& path,
                  const lab::timing::LabSettings& s,
                  const std::vector<lab::common::SuiteEntry>& suite,
                  const std::vector<lab::timing::LabRun>& done) {
  if (path.empty()) return;
  try {
    writer.emplace(path, s, suite, done);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("--journal: ") + e.what());
  }
}

void add_book_options(CLI::App* app, BookArgs& args, const std::string& default_half,
                      bool openings_alias, bool reuse_flag) {
  args.default_half = default_half;
  app->add_option(openings_alias ? "--book,--openings" : "--book", args.path,
                  "the games' opening book (CSV with a fen column; data/book.csv: balanced openings "
                  "in two halves)")
      ->capture_default_str();
  app->add_option("--book-half", args.half,
                  "the book's half the games play: tune, verdict or all (default " + default_half +
                      "; a suite without a half column is played whole)")
      ->check(CLI::IsMember({"tune", "verdict", "all"}));
  if (reuse_flag)
    app->add_flag("--reuse-openings", args.reuse,
                "allow more games than twice the book's openings (then Elo intervals are "
                "clustered by opening)");
}

void add_suite_half_option(CLI::App* app, std::string& half) {
  app->add_option("--suite-half", half,
                  "the suite's half to search: tune, verdict (a suite with a half column, e.g. "
                  "data/stratified.csv: tune on one half, take figures of record from the other) "
                  "or all")
      ->capture_default_str()
      ->check(CLI::IsMember({"tune", "verdict", "all"}));
}

std::vector<lab::common::SuiteEntry> load_book(const BookArgs& args) {
  const bool given = !args.half.empty();
  return lab::common::load_book(args.path, given ? args.half : args.default_half, given);
}

std::vector<lab::common::SuiteEntry> book_openings(const BookArgs& args, std::int64_t games,
                                                   const std::string& command) {
  std::vector<lab::common::SuiteEntry> book = load_book(args);
  const std::int64_t distinct = 2 * std::int64_t(book.size());
  if (games > distinct) {
    const std::string what = std::to_string(games) + " games per pairing replay openings of " +
                             std::to_string(book.size()) + " (each opening is one colour pair)";
    if (!args.reuse)
      throw UsageError(what + "; pass --reuse-openings to allow it, or a larger --book");
    std::fprintf(stderr, "xqlab %s: %s; Elo intervals are clustered by opening\n", command.c_str(),
                 what.c_str());
  }
  return book;
}

}  // namespace xq::cli
