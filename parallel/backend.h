// The one run-time seam of the lab (DESIGN.md §3): a Backend runs one search
// on one position and returns the result with statistics summed over its
// threads. Virtual calls happen here only, once per search; inside, each
// backend runs Search<Table, Hooks> compiled for the hash scheme it was
// created with (dispatched once, in the factory, through visit_scheme).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "board/position.h"
#include "hashing/entry.h"
#include "search/options.h"
#include "search/result.h"

namespace xq {

struct BackendConfig {
  std::string hash = "xor";  // hash scheme name (hashing/schemes.h)
  int threads = 1;
  std::size_t hash_mib = 16;
  // Tests only: when nonzero, the table's size in bytes instead of hash_mib
  // (rounded down to whole buckets), for tables far smaller than 1 MiB.
  std::size_t hash_bytes = 0;
  Replacement replacement = Replacement::DepthPreferred;
  // Split-point backends: only nodes with at least this remaining depth split.
  Depth min_split_depth = 4;
  // Split-point backends: most split points one thread may own at once.
  int max_splits_per_thread = 8;
  // pvsplit: OpenMP schedule(dynamic,1) instead of the thesis's static,1.
  bool omp_dynamic = false;
  // abdada-simple: the busy-move side table (buckets x ways, Kerrigan's
  // 32768 x 4), the least remaining depth at which moves are marked and
  // deferred, and the least at which a node that deferred a move re-probes
  // the table before each further move.
  int busy_entries = 32768;
  int busy_ways = 4;
  Depth simple_mark_depth = 3;
  Depth simple_reprobe_depth = 4;
  // lazysmp: the helpers' depth-skip schedule (0 none, 1 Stockfish 7's
  // half-density rows, 2 Stockfish 9's SkipSize/SkipPhase), the shift of
  // their aspiration windows, and whether a search without a depth limit
  // returns the thread a vote picks instead of the main thread's result.
  int skip_schedule = 2;
  Value window_offset = 0;
  bool vote = false;
  // dts: nodes with at least this remaining depth split even when no thread
  // is idle (gratuitous split points) ...
  Depth gratuitous_depth = 6;
  // ... while their thread has fewer than this many such split points open.
  int gratuitous_limit = 2;
  // dts: whether nodes predicted CUT may split gratuitously too.
  bool gratuitous_at_cut = false;
  // dts: most helpers at one split point besides its owner (0: no limit); a
  // thread that finds a split point full picks another.
  int split_max_helpers = 0;
  // dts: moves a node must have searched without a cutoff before it splits
  // gratuitously (1: right after its eldest brother).
  int gratuitous_moves = 1;
  // dts: how an idle thread picks among the open split points, an index into
  // dts::kPolicyNames (parallel/dts_policy.h): depth, moves, type, first,
  // proven.
  int split_policy = 0;
  // dts, policy proven: moves a non-PV split point must have searched
  // without a cutoff before it counts as a proven ALL node.
  int proven_moves = 2;
  // ybwc, dts: a younger brother searched at a split point checks a
  // null-window result against the node's current alpha, which other
  // threads may have raised, before its full-window re-search
  // (SplitContext::live_alpha). Off by default: on the shipped suites it
  // moved search overhead by less than its run-to-run spread.
  bool split_live_alpha = false;
  // abdada: nodes with less remaining depth neither mark their entry busy
  // nor are searched exclusively (never deferred).
  Depth abdada_defer_depth = 2;
  // abdada: whether the root's younger brothers may be deferred too.
  bool abdada_defer_root = true;
  // abdada: once a move was deferred at a node with at least this remaining
  // depth, the table is re-probed for a cutoff before each further move
  // (0: never).
  Depth abdada_reprobe_depth = 4;
  // abdada, abdada-simple: under a depth limit, the first thread to
  // complete it ends the search with its iteration
  // (parallel/first_complete.h); off: the main thread's completion does, as
  // for the other backends.
  bool abdada_first_complete = true;
  // abdada, abdada-simple: a younger root move whose null-window search
  // fails high is first re-tested against a root best another thread has
  // raised meanwhile, before its open-window re-search.
  bool root_retest = true;
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
};

struct BackendInfo {
  std::string_view name;
  std::string_view summary;
  // The scheme used when the user names none (the pairing its design assumes).
  std::string_view default_hash;
  // Whether the backend can run with a hash scheme.
  bool (*supports)(std::string_view scheme);
  // Builds the backend; throws std::invalid_argument on a bad configuration
  // (unknown or unsupported scheme, threads < 1, zero-sized table).
  std::unique_ptr<Backend> (*make)(const BackendConfig& config);
};

// Every registered backend, "serial" first.
const std::vector<BackendInfo>& backends();
// Throws std::invalid_argument ("unknown backend 'x' (known: ...)").
const BackendInfo& find_backend(std::string_view name);
// The one (backend, scheme) check: throws std::invalid_argument for an unknown
// backend, an unknown scheme, or a scheme the backend cannot use.
const BackendInfo& check_pair(std::string_view backend, std::string_view scheme);
std::unique_ptr<Backend> make_backend(std::string_view name, const BackendConfig& config);

}  // namespace xq
