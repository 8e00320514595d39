// Options several commands share, defined once so that the same thing has
// one name, one range and one help text everywhere: the backend and its
// table (--backend, --hash, --threads, --hash-mb, --param NAME=VALUE), and
// the position (--fen). Lists (lab's "--threads 1,2") use the same checks on
// every item.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "board/position.h"
#include "lab/common/json.h"
#include "lab/common/suite.h"
#include "lab/timing/journal.h"
#include "lab/timing/runner.h"
#include "lab/timing/simulation.h"
#include "parallel/backend.h"

namespace xq::cli {

// The validators behind the shared options (each message names the bad item).
CLI::Validator scheme_name();
CLI::Validator backend_name();
CLI::Validator param_assignment();
CLI::Validator fen_or_startpos();

struct BackendArgs {
  std::string backend = "serial";
  std::string hash;  // empty: the backend's default scheme
  int threads = 1;
  std::size_t hash_mb = 16;
  std::vector<std::string> params;  // "NAME=VALUE"
};

// --hash SCHEME and --threads T, single or comma-separated lists.
CLI::Option* add_hash_option(CLI::App* app, std::string& target);
CLI::Option* add_hash_option(CLI::App* app, std::vector<std::string>& target);
CLI::Option* add_threads_option(CLI::App* app, int& target);
CLI::Option* add_threads_option(CLI::App* app, std::vector<int>& target);
// A comma-separated list of backend names under the option `name`.
CLI::Option* add_backends_option(CLI::App* app, const std::string& name,
                                 std::vector<std::string>& target, const std::string& help);
// --hash-mb M, --param NAME=VALUE (repeatable) and --params FILE: the
// NAME=VALUE lines of FILE (blank lines and '#' comments skipped; what
// `xqlab tune --save` writes), applied before any --param, so that an
// explicit --param overrides the file.
void add_table_options(CLI::App* app, std::size_t& hash_mb, std::vector<std::string>& params);
// All of the above for one backend.
void add_backend_options(CLI::App* app, BackendArgs& args);

// The assignments of a --params file; throws std::invalid_argument naming
// the file and line for an unreadable file or a bad line.
std::vector<std::string> read_params_file(const std::string& path);
// Applies "NAME=VALUE" assignments (already validated) in order.
void apply_params(BackendConfig& config, const std::vector<std::string>& params);
// The configuration the arguments describe (make_backend checks the
// backend/scheme pair).
BackendConfig backend_config(const BackendArgs& args);

// --fen FEN|startpos (required); the position it names (already validated).
CLI::Option* add_fen_option(CLI::App* app, std::string& target);
Position parse_position_arg(const std::string& fen);

// --profile thesis|modern (default thesis): the search's feature set
// (search/options.h). With `features` (a command's --features text, empty
// when not given) the features are the profile's unless --features names
// them; giving both is a usage error.
CLI::Option* add_profile_option(CLI::App* app, std::string& target);
// --nodes N for games: a fixed node count per move, no clock (1 .. 2^40).
CLI::Option* add_nodes_option(CLI::App* app, std::uint64_t& target);
Features search_features(const std::string& profile, const std::string& features);

// Prints one JSON document on one line of stdout.
void print_json(const Json& j);

// The simulated machine's options (lab, search): --simulate, --sim-profile,
// --sim-quantum, --sim-seed, --sim-cost.
struct SimArgs {
  bool simulate = false;
  std::string profile;
  int quantum = lab::timing::kDefaultSimQuantum;
  std::uint64_t seed = 1;
  int cores = 0;
  std::string carrier;  // "": the build's default
  std::vector<std::string> costs;
};
void add_sim_options(CLI::App* app, SimArgs& args);
// The settings, or nothing without --simulate; throws UsageError for a
// --sim-* option without --simulate, an unreadable profile or a bad cost.
std::optional<lab::timing::SimSettings> sim_settings(const SimArgs& args);

// A run's journal (lab/timing/journal.h; `who`: the command, for messages):
// with `resume`, the searches the journal at `path` holds (UsageError when
// there is none or it belongs to other settings); otherwise none, and an
// old journal at `path` is moved aside to PATH.previous rather than
// overwritten.
std::vector<lab::timing::LabRun> journal_start(bool resume, const std::string& path,
                                               const lab::timing::LabSettings& s,
                                               const std::vector<lab::common::SuiteEntry>& suite,
                                               const char* who);
// Opens `writer` on the journal at `path` (nothing when `path` is ""),
// starting it with `done`; UsageError when it cannot be written.
void open_journal(std::optional<lab::timing::JournalWriter>& writer, const std::string& path,
                  const lab::timing::LabSettings& s,
                  const std::vector<lab::common::SuiteEntry>& suite,
                  const std::vector<lab::timing::LabRun>& done);

// The games' openings (match, recommend, transfer, evolve, spsa): --book
// FILE (default <data>/book.csv; match and the tuners also take the old
// name --openings), --book-half tune|verdict|all (the tuners play the tune
// half, the verdicts the verdict half) and, where games count per pairing,
// --reuse-openings.
struct BookArgs {
  std::string path = lab::common::default_book_path();
  std::string half;         // as given; "" = the command's default half
  std::string default_half;
  bool reuse = false;
};
// --suite-half: the half of the lab's suite (a `half` column, e.g.
// data/stratified.csv) that lab and tune search; "all" (default) every row.
void add_suite_half_option(CLI::App* app, std::string& half);

// The book's openings as the arguments name them (no count check).
std::vector<lab::common::SuiteEntry> load_book(const BookArgs& args);
void add_book_options(CLI::App* app, BookArgs& args, const std::string& default_half,
                      bool openings_alias, bool reuse_flag);
// The book's openings for `games` games per pairing, each opening once per
// colour pair: more games than twice the openings replays some, a
// UsageError unless --reuse-openings, which warns once on stderr (the Elo
// intervals are then clustered by opening). games 0: no check (the tuners,
// whose rounds replay their openings by design).
std::vector<lab::common::SuiteEntry> book_openings(const BookArgs& args, std::int64_t games,
                                                   const std::string& command);

}  // namespace xq::cli
