// What a search reports: best move, score, principal variation, depth reached,
// and statistics summed over every thread that took part.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "board/types.h"

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
// may read them while the search runs.
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
  // The modern profile's selectivity (search/search.h): late-move reduced
  // searches and those re-searched at full depth after failing high; moves
  // pruned unsearched (move count, futility, SEE); nodes cut off by their
  // static value or a shallow search (reverse futility, razoring, ProbCut,
  // multi-cut); singular extensions.
  Counter reductions;
  Counter reduction_researches;
  Counter pruned_moves;
  Counter static_cutoffs;
  Counter singular_extensions;
  // Parallel machinery (zero for the serial backend).
  Counter splits;
  Counter eldest_splits;     // splits made before the node's eldest brother was searched
  Counter joins;             // helpers that joined a split point
  Counter aborts;            // split points stopped by a cutoff
  RelaxedCounter<double> idle_seconds;  // time helpers spent waiting for work
  // How deep the split machinery reached (split-point backends).
  Counter nested_joins;      // joins of a split point made inside another
  Counter master_joins;      // joins by an owner waiting for its helpers
  // Where the threads' time went (split-point backends; seconds summed over
  // threads): searching, waiting on split-point locks, copying positions at
  // splits and joins; and the nodes searched under split points that a
  // cutoff aborted (work thrown away).
  RelaxedCounter<double> search_seconds;
  RelaxedCounter<double> lock_seconds;
  RelaxedCounter<double> copy_seconds;
  // Each thread's span (from the search's start to its end), summed: the
  // four parts above add up to it (parallel/split/timing.h).
  RelaxedCounter<double> span_seconds;
  Counter wasted_nodes;
  // Shared-table coordination (ABDADA and its simplified form).
  Counter busy_answers;      // exclusive probes answered "being searched"
  Counter deferrals;         // moves put aside to the deferred pass
  Counter deferred_searches; // deferred moves searched in the second pass
  Counter cutoff_reprobes;   // table re-probes made because a move was deferred
  Counter root_retests;      // root fail highs re-tested at another thread's raised best
  Counter root_adoptions;    // root bests taken from another thread (or rank)
  Counter mark_underflows;   // releases that found a count already at zero
  Counter mark_leaks;        // busy marks still set when the search ended
  // DTS-style splitting (dts): split points published while no thread was
  // idle; joins of a split point published gratuitously or already joined
  // by another helper; split points whose node was predicted ALL or CUT
  // (Knuth-Moore) when they closed, and how many of those predictions held
  // (ALL: no cutoff, CUT: a cutoff).
  Counter gratuitous_splits;
  Counter late_joins;
  Counter predicted_all;
  Counter predicted_cut;
  Counter prediction_held;
  // Task parallelism (jamboree): tasks run, tasks run by another thread
  // than the one that spawned them, younger brothers re-searched after
  // their null-window test failed high, the critical path in nodes
  // (Kuszmaul's C: the longest chain of nodes that had to be searched one
  // after another; summing keeps the maximum), and the time from a cutoff
  // to the end of its group's wait (summed over cutoffs: / aborts = the
  // mean abort latency).
  Counter tasks;
  Counter stolen_tasks;
  Counter researches;
  Counter critical_path;
  RelaxedCounter<double> cancel_wait_seconds;
  // CPU time of helper processes (lazysmp-proc), which the parent's own
  // getrusage does not count: the lab adds it to the search's CPU time.
  RelaxedCounter<double> helper_cpu_seconds;
  // PV-splitting (pvsplit): the least time, in nodes, that any schedule of
  // the run's regions could take on its threads: the master's nodes outside
  // regions plus, for each region, the larger of its longest move and its
  // nodes over the thread count. Serial nodes over it bound the speedup any
  // PV-splitting schedule could reach on this tree.
  Counter schedule_bound;
  // APHID (aphid): passes of the master over its top tree, the leaves those
  // passes met whose value was still a guess (summed over passes), and leaf
  // searches by the searchers (a search of a leaf again at a depth already
  // searched, with another window, counts in `researches` too).
  Counter master_passes;
  Counter uncertain_leaves;
  Counter leaf_searches;
  // The deepest ply a quiescence node reached, plus one (UCI "seldepth");
  // summing keeps the maximum.
  Counter seldepth;
  // Distributed backends (parallel/distributed/), summed over ranks: message
  // bodies sent and received over the wire (after a search the sums agree),
  // table entries deep enough to share that the threads offered, those the
  // ranks shipped (the rest were displaced by deeper ones before a tick took
  // them), and those that arrived from other ranks.
  Counter msgs_sent;
  Counter bytes_sent;
  Counter msgs_received;
  Counter bytes_received;
  Counter entries_offered;
  Counter entries_shipped;
  Counter entries_received;
  // mpi-abdada: claims of nodes homed at another rank (round trips), and
  // the seconds the threads waited for their answers.
  Counter remote_probes;
  RelaxedCounter<double> remote_wait_seconds;

  SearchStats& operator+=(const SearchStats& o);
  double first_move_cutoff_rate() const {
    const std::uint64_t n = fail_highs;
    return n ? double(fail_high_first.load()) / double(n) : 0.0;
  }
};

// Every counter of SearchStats, in declaration order: the one list of them
// (summing, sending counters between processes).
#define XQ_SEARCH_COUNTERS(X) \
  X(nodes) X(qnodes) X(tt_probes) X(tt_hits) X(tt_cutoffs) X(tt_torn) X(bad_tt_moves) \
  X(tt_rejected) X(fail_highs) X(fail_high_first) X(null_tries) X(null_cutoffs) X(reductions) \
  X(reduction_researches) X(pruned_moves) X(static_cutoffs) X(singular_extensions) X(splits) \
  X(eldest_splits) X(joins) X(aborts) X(idle_seconds) X(nested_joins) X(master_joins) \
  X(search_seconds) X(lock_seconds) X(copy_seconds) X(span_seconds) X(wasted_nodes) \
  X(busy_answers) X(deferrals) X(deferred_searches) X(cutoff_reprobes) X(root_retests) \
  X(root_adoptions) \
  X(mark_underflows) X(mark_leaks) X(gratuitous_splits) X(late_joins) X(predicted_all) \
  X(predicted_cut) X(prediction_held) X(tasks) X(stolen_tasks) X(researches) X(critical_path) \
  X(cancel_wait_seconds) X(helper_cpu_seconds) X(schedule_bound) X(master_passes) \
  X(uncertain_leaves) X(leaf_searches) X(seldepth) X(msgs_sent) X(bytes_sent) X(msgs_received) \
  X(bytes_received) X(entries_offered) X(entries_shipped) X(entries_received) X(remote_probes) \
  X(remote_wait_seconds)

// Calls f(name, counter) for every counter of `s` (a SearchStats, const or
// not); a counter is a RelaxedCounter of std::uint64_t or of double.
template <class Stats, class F>
void for_each_counter(Stats& s, F&& f) {
#define XQ_VISIT(n) f(#n, s.n);
  XQ_SEARCH_COUNTERS(XQ_VISIT)
#undef XQ_VISIT
}
// Every counter is 8 bytes, so a counter missing from the list shows here.
inline constexpr int kSearchCounters = 62;
static_assert(sizeof(SearchStats) == kSearchCounters * 8, "XQ_SEARCH_COUNTERS misses a counter");

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
