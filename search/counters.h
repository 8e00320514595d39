// Counters declared where they are counted. SearchStats (search/result.h)
// keeps the counters every search has (nodes, the table, selectivity, the
// time parts); a family of backends declares its own next to its
// parameters, as an inline variable of its own header:
//
//   inline const DeclaredCount stolen_tasks{{.group = "tasks", .name = "stolen_tasks", ...}};
//   ++stats[stolen_tasks];
//
// Each declaration takes a slot of every SearchStats when the program
// starts, and the one mechanism that serves the core serves it: summing
// over threads and ranks (by its Merge), the wire between ranks, the lab's
// journal and documents (by name), and the lab's tables, which render a
// family's counters generically (by their Show). Nothing outside the family
// names them.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace xq {

// How the counts of two threads or ranks combine.
enum class Merge : std::uint8_t { Sum, Max };

// How the lab shows a counter, from its sum over a suite's positions
// (median over runs):
enum class Show : std::uint8_t {
  Total,            // the sum
  PerSearch,        // the sum over the positions searched
  PerSecond,        // per second of search (wall, or virtual when simulated)
  Ratio,            // over another counter's sum, named by `of` (a share, a mean)
  ThreadShare,      // seconds over the threads' time (processors x wall)
  SerialNodesOver,  // the serial reference's nodes over it (a bound on the speedup)
};
const char* show_name(Show s);

struct CounterSpec {
  const char* group = "";    // the family that counts it ("tasks", "wire", ...)
  const char* name = "";     // unique: JSON key, journal key, reach-floor name
  const char* unit = "";     // "count", "nodes", "bytes", "seconds", ...
  Merge merge = Merge::Sum;
  Show show = Show::PerSearch;
  const char* of = "";       // Show::Ratio: the counter it is divided by
  const char* meaning = "";  // one line for the tables' legends
};

// A declared counter of kind T (std::uint64_t or double): its spec and its
// slot among the declared counters of that kind.
template <class T>
class Declared {
 public:
  explicit Declared(const CounterSpec& spec);
  Declared(const Declared&) = delete;
  Declared& operator=(const Declared&) = delete;
  const CounterSpec& spec() const { return spec_; }
  int slot() const { return slot_; }

 private:
  CounterSpec spec_;
  int slot_;
};
using DeclaredCount = Declared<std::uint64_t>;
using DeclaredSeconds = Declared<double>;

// The slots every SearchStats holds for declared counters, per kind; a
// declaration past them stops the program at start with a one-line message.
inline constexpr int kDeclaredCountSlots = 40;
inline constexpr int kDeclaredSecondsSlots = 8;

// One declared counter as the registry keeps it.
struct DeclaredRef {
  const CounterSpec* spec;
  bool seconds;  // a DeclaredSeconds (else a DeclaredCount)
  int slot;
};
// Every counter declared in this program, in the order the program's
// static initialisation met them (the same in every process and rank of
// one binary, which is what the wire needs).
const std::vector<DeclaredRef>& declared_counters();
// The declared counter named `name`, or nullptr.
const DeclaredRef* find_declared(std::string_view name);

}  // namespace xq
