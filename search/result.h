// What a search reports: best move, score, principal variation, depth reached,
// and statistics summed over every thread that took part.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "board/types.h"
#include "search/counters.h"

namespace xq {

// A counter with one writer, readable by any thread at any time: a relaxed
// load and store per increment (no read-modify-write, so on x86 it costs what
// a plain integer in memory costs), and a relaxed load to read. Readers see
// each counter whole but the counters of one SearchStats not necessarily at
// one instant; a copy is a snapshot of that kind. The same idiom as the
// table's ThreadCounters (hashing/cluster_table.h).
template <class T>
class RelaxedCounter {
 public:
  constexpr RelaxedCounter(T v = T{}) noexcept : v_(v) {}  // NOLINT: converts like a T
  RelaxedCounter(const RelaxedCounter& o) noexcept : v_(o.load()) {}
  RelaxedCounter& operator=(const RelaxedCounter& o) noexcept {
    store(o.load());
    return *this;
  }
  RelaxedCounter& operator=(T v) noexcept {
    store(v);
    return *this;
  }

  T load() const noexcept { return v_.load(std::memory_order_relaxed); }
  void store(T v) noexcept { v_.store(v, std::memory_order_relaxed); }
  operator T() const noexcept { return load(); }  // NOLINT: reads like a T

  // Only the owning thread may call these.
  RelaxedCounter& operator++() noexcept {
    store(load() + T{1});
    return *this;
  }
  RelaxedCounter& operator+=(T n) noexcept {
    store(load() + n);
    return *this;
  }

 private:
  std::atomic<T> v_;
};

// Per-thread search counters. Each Worker's are written by its own thread
// only, so another thread (a backend summing its helpers, a progress line)
// may read them while the search runs. These are the counters every search
// has; a family of backends declares its own (search/counters.h), which
// live in the `counts` and `seconds` slots and are reached by stats[c].
struct SearchStats {
  using Counter = RelaxedCounter<std::uint64_t>;
  Counter nodes;             // all nodes, quiescence included
  Counter qnodes;            // quiescence nodes
  Counter tt_probes;
  Counter tt_hits;
  Counter tt_cutoffs;
  Counter tt_torn;           // torn entries the table's check rejected
  Counter bad_tt_moves;      // table moves that failed validation
  Counter tt_rejected;       // entries with an impossible value, bound or depth
  Counter fail_highs;        // beta cutoffs
  Counter fail_high_first;   // ... on the first move searched
  Counter null_tries;
  Counter null_cutoffs;
  // The modern profile's selectivity (search/node_selectivity.h): late-move reduced
  // searches and those re-searched at full depth after failing high; moves
  // pruned unsearched (move count, futility, SEE); nodes cut off by their
  // static value or a shallow search (reverse futility, razoring, ProbCut,
  // multi-cut); singular extensions.
  Counter reductions;
  Counter reduction_researches;
  Counter pruned_moves;
  Counter static_cutoffs;
  Counter singular_extensions;
  // The deepest ply a quiescence node reached, plus one (UCI "seldepth");
  // summing keeps the maximum.
  Counter seldepth;
  // Parallel work (zero for the serial backend): units of work handed to
  // another thread (split points, tasks), those made before the node's
  // eldest brother was searched, helpers that joined one, and those
  // stopped by a cutoff.
  Counter splits;
  Counter eldest_splits;
  Counter joins;
  Counter aborts;
  // Searches of a node or leaf again with another window after the first
  // failed high (younger brothers, guessed leaves, root windows).
  Counter researches;
  // The critical path in nodes (Kuszmaul's C: the longest chain of nodes
  // that had to be searched one after another, or a root share's busiest
  // thread); summing keeps the maximum. Nodes over it: the parallelism W/C.
  Counter critical_path;
  // Where the threads' time went (backends that account it; seconds summed
  // over threads): waiting for work, searching, waiting on locks, copying
  // positions; each thread's span (from the search's start to its end),
  // which the four parts add up to (parallel/split/timing.h); and the nodes
  // searched under work that a cutoff aborted (work thrown away).
  RelaxedCounter<double> idle_seconds;
  RelaxedCounter<double> search_seconds;
  RelaxedCounter<double> lock_seconds;
  RelaxedCounter<double> copy_seconds;
  RelaxedCounter<double> span_seconds;
  Counter wasted_nodes;
  // CPU time of helper processes, which the parent's own getrusage does not
  // count: the lab adds it to the search's CPU time.
  RelaxedCounter<double> helper_cpu_seconds;
  // The declared counters' slots (search/counters.h), by kind.
  std::array<Counter, kDeclaredCountSlots> counts{};
  std::array<RelaxedCounter<double>, kDeclaredSecondsSlots> seconds{};

  Counter& operator[](const DeclaredCount& c) { return counts[std::size_t(c.slot())]; }
  const Counter& operator[](const DeclaredCount& c) const { return counts[std::size_t(c.slot())]; }
  RelaxedCounter<double>& operator[](const DeclaredSeconds& c) {
    return seconds[std::size_t(c.slot())];
  }
  const RelaxedCounter<double>& operator[](const DeclaredSeconds& c) const {
    return seconds[std::size_t(c.slot())];
  }

  SearchStats& operator+=(const SearchStats& o);
  double first_move_cutoff_rate() const {
    const std::uint64_t n = fail_highs;
    return n ? double(fail_high_first.load()) / double(n) : 0.0;
  }
};

// The core counters of SearchStats, in declaration order: the one list of
// them (summing, the wire, the journal).
#define XQ_SEARCH_COUNTERS(X) \
  X(nodes) X(qnodes) X(tt_probes) X(tt_hits) X(tt_cutoffs) X(tt_torn) X(bad_tt_moves) \
  X(tt_rejected) X(fail_highs) X(fail_high_first) X(null_tries) X(null_cutoffs) X(reductions) \
  X(reduction_researches) X(pruned_moves) X(static_cutoffs) X(singular_extensions) X(seldepth) \
  X(splits) X(eldest_splits) X(joins) X(aborts) X(researches) X(critical_path) X(idle_seconds) \
  X(search_seconds) X(lock_seconds) X(copy_seconds) X(span_seconds) X(wasted_nodes) \
  X(helper_cpu_seconds)
inline constexpr int kCoreCounters = 31;
// Every counter is 8 bytes, so a core counter missing from the list shows here.
static_assert(sizeof(SearchStats) == (kCoreCounters + kDeclaredCountSlots + kDeclaredSecondsSlots) * 8,
              "XQ_SEARCH_COUNTERS misses a counter");

// Calls f(name, counter) for every core counter of `s` (a SearchStats,
// const or not), then for every declared one (search/counters.h) in the
// registry's order; a counter is a RelaxedCounter of std::uint64_t or of
// double.
template <class Stats, class F>
void for_each_counter(Stats& s, F&& f) {
#define XQ_VISIT(n) f(#n, s.n);
  XQ_SEARCH_COUNTERS(XQ_VISIT)
#undef XQ_VISIT
  for (const DeclaredRef& d : declared_counters()) {
    if (d.seconds) f(d.spec->name, s.seconds[std::size_t(d.slot)]);
    else f(d.spec->name, s.counts[std::size_t(d.slot)]);
  }
}
// How many counters for_each_counter visits.
inline int search_counter_count() { return kCoreCounters + int(declared_counters().size()); }
// The counter of `s` named `name`, as a double (0 when no counter has that name).
double counter_value(const SearchStats& s, std::string_view name);

// One rank of a distributed search (parallel/distributed/): its nodes and what it
// sent and received over the wire, message bodies only.
struct RankFigures {
  std::uint64_t nodes = 0, msgs_sent = 0, bytes_sent = 0, msgs_received = 0, bytes_received = 0;
};

// The round trips of a distributed search's remote probes (mpi-abdada): a
// histogram over quarter octaves of microseconds, bucket b holding the
// times in [2^((b-1)/4), 2^(b/4)) us (bucket 0: under 1 us; the last: all
// from about 0.9 s on). Quantiles are read at a bucket's geometric middle,
// so they are good to about 9 %.
struct RoundTrips {
  static constexpr int kBuckets = 80;
  std::array<std::uint64_t, kBuckets> count{};

  void add(double seconds) {
    const double us = seconds * 1e6;
    int b = us < 1 ? 0 : 1 + int(4 * std::log2(us));
    count[std::size_t(std::clamp(b, 0, kBuckets - 1))] += 1;
  }
  RoundTrips& operator+=(const RoundTrips& o) {
    for (int b = 0; b < kBuckets; ++b) count[std::size_t(b)] += o.count[std::size_t(b)];
    return *this;
  }
  std::uint64_t total() const {
    std::uint64_t n = 0;
    for (std::uint64_t c : count) n += c;
    return n;
  }
  // The q-quantile in microseconds (0 when there was no round trip).
  double quantile_us(double q) const {
    const std::uint64_t n = total();
    if (n == 0) return 0;
    const auto rank = std::uint64_t(std::ceil(q * double(n)));
    std::uint64_t seen = 0;
    for (int b = 0; b < kBuckets; ++b) {
      seen += count[std::size_t(b)];
      if (seen >= std::max<std::uint64_t>(rank, 1))
        return b == 0 ? 0.5 : std::exp2((double(b) - 0.5) / 4);
    }
    return std::exp2((kBuckets - 0.5) / 4);
  }
};

struct SearchResult {
  Move best_move;
  Value score = 0;
  Depth depth = 0;              // last fully completed iteration
  // False when no iteration completed (a limit or stop came first): then
  // depth is 0 and score and pv mean nothing; best_move is the first legal
  // move, so that a protocol has a move to send. True, with depth 0, for a
  // root without legal moves (score: mated).
  bool completed = false;
  std::vector<Move> pv;
  SearchStats stats;
  double seconds = 0;
  bool stopped = false;         // a limit or stop request ended the search early
  int hashfull = -1;            // table fill in permille after the iteration; -1 unknown
  // A distributed backend's ranks, rank 0 first (empty for the others).
  std::vector<RankFigures> ranks;
  // Its remote probes' round trips (empty for the others).
  RoundTrips round_trips;
  // Moves to mate as UCI's "score mate N": positive when the side to move
  // mates, negative when it is mated; empty when no mate is proven.
  std::optional<int> mate() const;
  double nps() const { return seconds > 0 ? double(stats.nodes) / seconds : 0.0; }
};

// Called after every completed iteration of iterative deepening.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_iteration(const SearchResult&) {}
};

}  // namespace xq
