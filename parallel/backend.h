// The one run-time seam of the lab (DESIGN.md §3): a Backend runs one search
// on one position and returns the result with statistics summed over its
// threads. Virtual calls happen here only, once per search; inside, each
// backend runs Search<Table, Hooks> compiled for the hash scheme it was
// created with (dispatched once, in the factory, through visit_scheme).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board/position.h"
#include "hashing/entry.h"
#include "search/options.h"
#include "search/result.h"

namespace xq {

// A backend parameter as the backend that reads it declares it, in its own
// file (or its family's header, when several read it): name, meaning, an
// integer range or named choices (the value is then the choice's index), and
// the default. `xqlab list`, --help, the JSON and the README's check read
// these declarations (parallel/params.h).
struct ParamSpec {
  std::string_view name;
  std::string_view summary;
  std::int64_t min = 0, max = 0;
  std::vector<std::string_view> choices;
  std::int64_t default_value = 0;
  // False for an ablation that selects another algorithm (tree splitting,
  // Mandatory Work First) rather than a setting of one: `tune` leaves it at
  // its default unless asked.
  bool tuned = true;

  bool enumerated() const { return !choices.empty(); }
  // The index of a choice, or -1.
  std::int64_t index_of(std::string_view choice) const;
};

// What every backend shares; each backend reads its own parameters by name
// (param()) into its own typed settings.
struct BackendConfig {
  std::string hash = "xor";  // hash scheme name (hashing/schemes.h)
  int threads = 1;
  std::size_t hash_mib = 16;
  // Tests only: when nonzero, the table's size in bytes instead of hash_mib
  // (rounded down to whole buckets), for tables far smaller than 1 MiB.
  std::size_t hash_bytes = 0;
  Replacement replacement = Replacement::DepthPreferred;
  // The backend parameters that were set, by name, in the order they were.
  std::vector<std::pair<std::string, std::int64_t>> params;

  // A parameter's value: the one set, or its declared default. Throws
  // std::invalid_argument for a name no backend declares.
  std::int64_t param(std::string_view name) const;
  // Sets a parameter without a range check (set_param() checks; tests).
  void set(std::string_view name, std::int64_t value);
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  virtual const BackendConfig& config() const = 0;
  // Runs one search to the options' limits and blocks until it is over. The
  // observer hears each completed iteration (from the main thread).
  virtual SearchResult search(const Position& pos, const SearchOptions& options,
                              Observer& observer) = 0;
  // Asks a running search to stop as soon as possible; callable from any
  // thread, a no-op when no search runs.
  virtual void stop() = 0;
  // Forgets everything learnt (table, history, killers): for independent runs.
  virtual void clear() = 0;
  // Whether it holds something no second backend can have while it lives
  // (a distributed backend over MPI: the ranks serve one backend at a
  // time), so that whoever replaces it must destroy it first.
  virtual bool exclusive() const { return false; }
  // The logical threads it runs on a simulated machine (parallel/sim): its
  // threads, plus for a distributed backend its other ranks' threads and
  // every rank's wire thread.
  virtual int simulated_threads() const { return config().threads; }
};

// How a backend's threads divide the work, and so which counter shows that
// they did (the suites that check every backend's parallel work read it,
// so that a new backend needs no case of its own there).
enum class Sharing : std::uint8_t {
  None,    // one thread (serial)
  Splits,  // split points or tasks: `splits` (pvsplit, ybwc, dts, jamboree)
  Marks,   // the shared table's busy marks: `busy_answers` (abdada, abdada-simple)
  Table,   // the shared table alone: no counter of its own (lazysmp)
  Root,    // shares of the root: the busiest thread's nodes, `critical_path`,
           // are not all of them (aspiration, uidpabs)
  Leaves,  // a master's leaves searched by the others: `leaf_searches` (aphid)
};
// Whether `stats` of one search show the threads sharing the work the way
// `sharing` says; false for None and Table, which no counter shows.
bool shows_sharing(Sharing sharing, const SearchStats& stats);

// A lower bound on one counter of SearchStats, by its name
// (for_each_counter), summed over a test suite's searches.
struct CounterFloor {
  std::string_view counter;
  std::uint64_t at_least;
};

// What a backend declares of itself for the suites that iterate the
// registry, so that no test keeps a list of backends: a backend added later
// states its own expectations here, in its own file.
struct BackendExpectations {
  // The reach suite (tests/parallel/stress_reach_test.cpp: 3 threads,
  // min_split_depth and task_depth 2, exact and full searches, summed): the
  // counters its machinery must move there, each to its floor. Empty: the
  // suite does not run it (a backend whose threads meet in the table alone,
  // whose reach the shared-table suites assert).
  std::vector<CounterFloor> reach;
  // The least parallelism W / C (nodes over `critical_path`) it must show
  // there; 0: none asserted.
  double reach_parallelism = 0;
  // Whether its threads book their time in parts (search, idle, lock, copy)
  // that add up to each thread's span (parallel/split/timing.h): the
  // time-accounting suites, real and simulated, check every such backend.
  bool books_split_time = false;
  // The setting that makes it split a node before the node's eldest
  // brother is searched (`param` = `value`; its opposite, 1 - value, waits
  // for the eldest), and the parameter of its least split depth: the
  // split-first suites (tests/parallel/split_first_test.cpp) run every
  // backend that names one. Empty param: it has no such policy.
  struct SplitFirst {
    std::string_view param, depth_param;
    std::int64_t value = 0;
  } split_first = {};
  // Parameters that let a small test search (depth 3-8) reach its
  // machinery, set by the suites that build it for such searches (the MPI
  // lane's tests/mpi/mpi_support.h): a distributed backend's shipping or
  // home depth, say. Empty: its defaults do.
  std::vector<std::pair<std::string_view, std::int64_t>> small_search = {};
};

struct BackendInfo {
  std::string_view name;
  std::string_view summary;
  // The scheme used when the user names none (the pairing its design assumes).
  std::string_view default_hash;
  Sharing sharing;
  // Whether the backend can run with a hash scheme.
  bool (*supports)(std::string_view scheme);
  // Builds the backend; throws std::invalid_argument on a bad configuration
  // (unknown or unsupported scheme, threads < 1, zero-sized table).
  std::unique_ptr<Backend> (*make)(const BackendConfig& config);
  // The parameters it reads (nullptr: none).
  const std::vector<ParamSpec>& (*params)() = nullptr;
  // Whether its one-thread search is the serial search, node for node
  // (jamboree's is not: it runs the same tasks as at p threads, one after
  // another, so that its 1-thread figures show the task machinery's cost;
  // nor are the root backends', whose windows are their own).
  bool serial_at_one_thread = true;
  // Whether `xqlab lab` without --backends runs it: the serial reference
  // and at most one representative per way of sharing work (Sharing), so
  // that the default lab -- the main job -- grows with the kinds of
  // parallelism, not with the backends (`--backends all` runs every one;
  // tests/parallel/backend_contract_test.cpp holds the rule).
  bool in_default_lab = true;
  // Whether the simulated machine (parallel/sim/) can run it at more than one
  // thread: not when its helpers are processes, which it cannot schedule.
  bool simulable = true;
  // Whether it runs across ranks (parallel/distributed/): it reads the
  // parameter `ranks`, and the lab's --ranks multiplies its configurations.
  bool distributed = false;
  // What the suites that iterate the registry expect of it (tests/parallel/).
  BackendExpectations expect = {};
  // The groups of declared counters (search/counters.h) it counts beyond
  // the core: the lab writes and shows them per configuration, one table
  // per group (and any other group a run moved).
  std::vector<std::string_view> counter_groups = {};
};

// Whether this build compiled the backends for a scheme's table (CMake
// XQLAB_SCHEMES and XQLAB_TEST_SCHEMES; parallel/backend_factory.h): a scheme
// that exists but is not built is refused with its own message.
bool scheme_built(std::string_view scheme);
// The error of a scheme a backend is asked to run on but does not (or that
// the build left out): one line, naming the build's schemes.
std::string refused_scheme_message(std::string_view scheme);

// Every registered backend, "serial" first.
const std::vector<BackendInfo>& backends();
// Their names, in the same order.
std::vector<std::string> backend_names();
// Throws std::invalid_argument ("unknown backend 'x' (known: ...)").
const BackendInfo& find_backend(std::string_view name);
// The one (backend, scheme) check: throws std::invalid_argument for an unknown
// backend, an unknown scheme, or a scheme the backend cannot use.
const BackendInfo& check_pair(std::string_view backend, std::string_view scheme);
std::unique_ptr<Backend> make_backend(std::string_view name, const BackendConfig& config);

}  // namespace xq
