// APHID's table (Brockington & Schaeffer 1996; parallel/shared/aphid.cpp
// runs the backend): what the master knows of each leaf of its top tree and
// what the searchers found below it. A plain class, not thread-safe (the
// backend holds a lock around it), so tests can drive it without a search.
//
// The master part of a leaf: the line from the root to it, the depth the
// master needs it searched to, the window the master last looked at it with,
// the pass that last touched it and its rank in that pass (left to right),
// and its owner, the searcher it was dealt to round-robin when it first
// appeared (Brockington's deal: a leaf stays with one searcher across
// iterations, so a searcher with its own table finds its earlier work there).
// The searcher part: the bounds every search of the leaf proved, per depth,
// and the line of its deepest exact result.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "board/types.h"
#include "search/counters.h"

namespace xq::aphid {

// APHID's own counters (search/counters.h): passes of the master over its
// top tree, the leaves those passes met whose value was still a guess
// (summed over passes), and leaf searches by the searchers (a search of a
// leaf again at a depth already searched, with another window, counts in
// the core's `researches` too).
inline const DeclaredCount master_passes{{
    .group = "aphid", .name = "master_passes", .unit = "count",
    .meaning = "passes of the master over its top tree"}};
inline const DeclaredCount uncertain_leaves{{
    .group = "aphid", .name = "uncertain_leaves", .unit = "count", .show = Show::Ratio,
    .of = "master_passes", .meaning = "leaves met by a pass whose value was still a guess"}};
inline const DeclaredCount leaf_searches{{
    .group = "aphid", .name = "leaf_searches", .unit = "count",
    .meaning = "leaf searches by the searchers"}};

// A window from the point of view of the side to move at the leaf.
struct Window {
  Value alpha = -kInfinite;
  Value beta = kInfinite;
};

// What the searches of one leaf at one depth proved: lower <= value <= upper.
struct Bounds {
  Value lower = -kInfinite;
  Value upper = kInfinite;
  bool any() const { return lower > -kInfinite || upper < kInfinite; }
  bool exact() const { return lower == upper; }
};

struct Leaf {
  Key key = 0;
  std::vector<Move> path;  // from the root
  int owner = 0;           // the searcher it was dealt to
  // Master part.
  Depth need = 0;          // the depth the current iteration needs
  // The master's window: the union of the windows of the pass's visits
  // that the searches did not decide (a leaf can be visited more than once
  // in a pass: a PVS re-search, a transposition), else its first visit's.
  Window want;
  bool open = false;       // some visit of this pass was undecided
  std::uint64_t pass = 0;  // the last pass that visited it
  int order = 0;           // its rank among that pass's leaves
  // Searcher part.
  bool busy = false;          // a searcher is on it
  std::vector<Bounds> at;     // at[d]: what searches to depth d proved
  std::vector<Move> pv;       // the line of the deepest exact result
  Depth pv_depth = 0;
  Depth searched() const;     // the deepest depth with a result (0: none)
  const Bounds* bounds(Depth d) const;
};

// The master's reading of a leaf at its visit.
struct Answer {
  Value value = 0;
  bool certain = false;  // value is a proved fail-soft result for the window
  bool blind = false;    // nothing is known of the leaf: value is 0, the caller guesses
};

// A leaf search for a searcher: the leaf's line, the depth, the window, and
// the first depth to search (iterative deepening from the leaf's next
// unsearched depth up to `depth`, each depth recorded).
struct Job {
  Key key = 0;
  std::vector<Move> path;
  Depth first = 1;
  Depth depth = 0;
  Window window;
  bool speculative = false;  // one ply past what the master needs yet
  bool again = false;        // the depth was searched already, for another window
};

struct Settings {
  // Searcher ids, in dealing order (the master's id among them when it
  // searches leaves too).
  std::vector<int> searchers;
  // A searcher without a leaf of its own to search takes another's.
  bool steal = false;
  // A searcher without a leaf to search takes one of its own a ply deeper
  // (Brockington's speculative search), with the window `margin` around
  // what the leaf is known to be worth.
  bool speculate = true;
  Value margin = 30;
  // Whether a result deeper than the master needs decides a leaf (not in
  // exact mode: a deeper value is not the value the serial search finds).
  bool deeper_decides = true;
};

class Table {
 public:
  explicit Table(Settings s);

  // Forgets every leaf (a new search).
  void clear();

  // -- Master.
  // Starts a pass; the leaves it visits are ranked in visiting order.
  void begin_pass();
  std::uint64_t pass() const { return pass_; }
  // A visit of the leaf `key` (reached by `path`) that needs depth `need`
  // with window w: records the want (creating and dealing the leaf on its
  // first visit) and answers from what searches proved; when they prove
  // nothing for w, the value is a guess: what the deepest search at another
  // depth found (its exact value, else its bound), clamped into the bounds
  // known at `need`; blind when no search found anything.
  Answer visit(Key key, std::span<const Move> path, Depth need, Window w);
  // The line of the leaf's deepest exact result (empty if none or unknown).
  const std::vector<Move>* line(Key key) const;

  // -- Searchers.
  // The job `searcher` should do next, marked busy: its own leaf the last
  // pass wants and the searches do not decide yet, the least searched first,
  // then the leftmost; with steal, another's such leaf; with speculate, its
  // own decided leaf a ply deeper (if speculative_ok). None: nothing to do
  // until a pass or a result.
  std::optional<Job> take(int searcher, bool speculative_ok);
  // The result v of a search of `key` to depth d with window w (its line
  // when exact); clears busy when `done` (the job's last depth). A result
  // that contradicts earlier bounds at d (a search with a table can)
  // replaces them.
  void record(Key key, Depth d, Window w, Value v, std::span<const Move> pv, bool done = true);
  // A job given up without a result (a stop): clears busy.
  void release(Key key);
  // Bumped by every record() at a depth the master needs or deeper: the
  // master passes again when it moved.
  std::uint64_t version() const { return version_; }

  // Whether the last pass wants a leaf of `searcher` that no search decides
  // yet and nobody searches (a speculative search of it should yield).
  bool has_work(int searcher) const;

  std::size_t size() const { return leaves_.size(); }
  const Leaf* find(Key key) const;

 private:
  bool wanted(const Leaf& l) const;
  bool decided(const Leaf& l, Window w, Value* value) const;
  std::optional<Job> job(Leaf& l, bool speculative);

  Settings s_;
  std::vector<Leaf> leaves_;
  std::unordered_map<Key, std::size_t> index_;
  std::uint64_t pass_ = 0;
  int order_ = 0;
  std::uint64_t version_ = 0;
};

}  // namespace xq::aphid
