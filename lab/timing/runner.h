// The time-to-depth runner behind `xqlab lab`: every configuration (backend x
// hash scheme x thread count) on a position suite, repeated, interleaved
// position by position: in each run, every configuration searches a position
// before any searches the next (in an order reversed at every other
// position), so the times a ratio compares were taken seconds apart, not
// minutes, on a machine whose speed may drift. A fresh backend and table for
// every search. The report over the runs is in lab/timing/summary.h.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lab/common/suite.h"
#include "lab/timing/simulation.h"
#include "parallel/backend.h"
#include "search/result.h"

namespace xq::lab::timing {

struct LabConfig {
  std::string backend;
  std::string hash;
  int threads = 1;
  // "NAME=VALUE" backend parameters applied over LabSettings::base (the
  // settings `xqlab tune` compares); empty for the lab's configurations.
  std::vector<std::string> params;
  // A distributed backend's ranks (--ranks; BackendInfo::distributed): 0
  // leaves them to the base parameters (`--param ranks=R`, default 1).
  int ranks = 0;
  // "ybwc/xor/2t", then " NAME=VALUE..." when params are given, then
  // " ranks=R" when ranks are.
  std::string label() const;
};

struct LabSettings {
  std::string suite_path;
  // The suite's half the lab searches (a `half` column: "tune" or
  // "verdict"); "all": every position.
  std::string suite_half = "all";
  std::vector<LabConfig> configs;  // references (serial, 1 thread) first
  Depth depth = 7;
  int runs = 3;
  // Table size, replacement and backend parameters; hash and threads come
  // from each configuration.
  BackendConfig base;
  // Set: every search runs on a simulated machine (lab/timing/simulation.h)
  // and its time is virtual.
  std::optional<SimSettings> sim;
  // The search profile's features (search/options.h), the same for every
  // configuration.
  Features features = Features::thesis();
  // Makes the backend of a configuration that names an external engine
  // (lab/common/engines.h; lab/games/external_backend.h makes them, the CLI
  // sets this). Unset: such a configuration is refused.
  std::function<std::unique_ptr<Backend>(const LabConfig&, const BackendConfig&)> external;
};

// The configurations: the serial reference (1 thread) of every scheme first,
// then each backend x scheme x thread count it can run (invalid pairs are
// reported through `skipped`); an external engine (lab/common/engines.h)
// once per thread count, with its own table (scheme "own"). Throws std::invalid_argument for an unknown
// backend or scheme, or a backend that can use none of the schemes.
std::vector<LabConfig> build_configs(const std::vector<std::string>& backends,
                                     const std::vector<std::string>& schemes,
                                     const std::vector<int>& threads,
                                     const std::function<void(const std::string&)>& skipped);

// Whether `backend` is distributed (BackendInfo::distributed; an external
// engine is not).
bool has_ranks(const std::string& backend);

// The backend configuration one search of `c` runs with: `base` (the lab's),
// then c's scheme, threads, parameters and ranks.
BackendConfig backend_config(const BackendConfig& base, const LabConfig& c);

// The ranks a configuration runs (1 unless distributed): its own, else the
// lab's base parameters'.
int ranks_of(const LabSettings& s, const LabConfig& c);

// Each configuration of a distributed backend once per rank count (its
// `ranks` set); the others as they are. Throws std::invalid_argument when no
// configuration is distributed.
// --vary NAME=V1,V2,...: each configuration whose backend reads parameter
// NAME once per value (NAME=V among its params, values in the order given,
// next to one another so that a run interleaves them), every other one (the
// serial references, backends that do not read it) once. NAME1,NAME2=V1,V2
// sets both names to each value together (history_share,killer_share=thread,all).
// Throws std::invalid_argument, naming the problem, for an unknown parameter,
// a bad or repeated value, fewer than two values, or no configuration that
// reads it.
std::vector<LabConfig> with_variants(std::vector<LabConfig> configs, const std::string& vary);

std::vector<LabConfig> with_ranks(std::vector<LabConfig> configs, const std::vector<int>& ranks);

// Throws std::invalid_argument (one line) for a configuration the simulated
// machine cannot run (a backend whose helpers are processes, above 1 thread).
void check_simulable(const std::vector<LabConfig>& configs);

// The config index of each configuration's serial reference (-1 when none);
// an external engine's reference is the same engine at one thread.
std::vector<int> reference_configs(const std::vector<LabConfig>& configs);

// One search of one position by one configuration in one run.
struct LabRun {
  int config = 0;  // index into LabSettings::configs
  int run = 0;
  int position = 0;  // index into the suite
  double seconds = 0;  // wall time of Backend::search (virtual time when simulated)
  // CPU time the process got during the search (getrusage(RUSAGE_SELF):
  // user + system, every thread), and the 1-minute load average when it
  // started (-1: unknown). Against seconds x threads they tell whether the
  // search had the cores it was given (lab/timing/summary.h, contested()).
  double cpu_seconds = 0;
  double load_average = -1;
  SearchResult result;
  bool agrees = true;  // best move equals the serial reference's (run 0)
};

struct LabCallbacks {
  std::function<void(const LabRun&)> on_search;  // after every search (see below)
  // The moment a search finishes, before its agreement is known (the
  // journal's hook, lab/timing/journal.h); not for searches resumed.
  std::function<void(const LabRun&)> on_finished;
  // At the end of every run, for each configuration: the run's summed time
  // and the elapsed time since the start. on_search comes once every
  // configuration has searched the position (the agreement needs the
  // reference's move).
  std::function<void(const LabConfig&, int run, double seconds, double elapsed)> on_pass;
};

// How a run continues an earlier one and how it is stopped.
struct LabResume {
  // Searches an earlier, interrupted run finished (read from its journal):
  // not searched again, but returned and reported (on_search, on_pass) in
  // their places, so the result equals that of an uninterrupted run.
  std::vector<LabRun> done;
  // Set (from a signal handler) to stop: the search in flight is abandoned
  // and run_lab returns the searches finished so far.
  std::atomic<bool>* stop = nullptr;
};

// Every search in run order (run, then position, then the order of
// LabSettings::configs); fewer when `resume.stop` was set.
std::vector<LabRun> run_lab(const LabSettings& s, const std::vector<common::SuiteEntry>& suite,
                            const LabCallbacks& callbacks, const LabResume& resume = {});

// The number of searches a whole run makes: configs x positions x runs.
std::size_t lab_searches(const LabSettings& s, std::size_t positions);

// The raw per-search CSV: a header and one line per run (no line breaks).
std::string lab_csv_header();
std::string lab_csv_row(const LabSettings& s, const LabRun& r, const common::SuiteEntry& e);

}  // namespace xq::lab::timing
