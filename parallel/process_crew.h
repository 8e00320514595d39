// The process executor of the backends whose helpers are worker processes
// (lazysmp-proc, ybwc-proc): what a thread pool (thread_pool.h) is to
// threads. The helpers are forked once, when the backend is built, and live
// until it is destroyed; between searches they sleep on a futex word in
// shared memory. What they share with the parent was mapped before the fork:
// the crew's control block (the search's root, options, start, and the
// start / stop / parked words), one slot per thread, and whatever the
// backend mapped (its table, its split points).
//
// A search: the parent's begin() writes the search into the control block
// and wakes every helper, which builds its own view of the search (a
// SearchShared from the control block) and runs the backend's job in it;
// finish() sets the `done` word, waits until every helper has parked, and
// throws one line when one died or hung.
//
// Stopping. Every searching thread of every process calls should_stop() at
// each node (the backend's hooks' aborted()): it publishes the thread's node
// count every 1,024 nodes (the node limit binds the sum over processes), turns
// the crew's `done` word into the process's own stop flag, and a stop of its
// own (its time limit) into `done` for the others. A watch thread of the
// parent relays what only the parent can see (the caller's stop signal, a
// stop while thread 0 waits) every millisecond.
//
// Faults. The watch reaps a helper that dies (killed, or its job threw): it
// records one line naming it, its pid and its signal, kills and reaps every
// other helper, stops the search and calls the backend's on_death (which
// releases the locks the dead one may have held in shared memory, on which
// the parent could spin for ever). The next begin() forks fresh helpers and
// calls the backend's on_respawn first (which clears what they shared). A parent that dies leaves no
// helper behind: they look for it every 100 ms while idle and every 1,024
// nodes while searching, and leave when it is gone (not PR_SET_PDEATHSIG,
// which follows the forking thread: the thread that respawns helpers may end
// before them). Ctrl-C reaches the parent alone.
//
// ThreadSanitizer does not see across processes: the backends' contract
// tests check the protocol instead (exact values, counters that add up,
// start/stop cycles, killed helpers).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "board/position.h"
#include "hashing/memory.h"
#include "hashing/processes.h"
#include "search/options.h"
#include "search/shared.h"
#include "search/worker.h"

namespace xq {

// Written by the parent before it bumps `epoch`; read by the helpers after.
struct CrewControl {
  // Root moves a search may ban (UCCI banmoves), in a fixed array: more than
  // any Xiangqi position has legal moves.
  static constexpr int kMaxBanned = 256;

  std::atomic<std::uint32_t> epoch{0};   // futex word: +1 per search, +1 to quit
  std::atomic<std::uint32_t> parked{0};  // futex word: helpers done with this search
  std::atomic<bool> quit{false};
  std::atomic<bool> done{false};  // the search is over or stopped: helpers stop
  std::atomic<int> root_depth{0};  // thread 0's SearchShared::root_depth
  std::uint8_t generation = 0;    // the table's, for the helpers' stores
  Position root;
  Limits limits;
  Algorithm algorithm = Algorithm::Pvs;
  Features features;
  SearchTuning tuning;
  bool exact = false;
  int banned = 0;
  std::array<Move, kMaxBanned> banned_moves{};
  std::chrono::steady_clock::time_point start{};  // the parent's SearchShared::start
};

class ProcessCrew {
 public:
  // Runs in helper process `id` (1..helpers) for one search, with `shared`
  // built from the control block; returns when the search is over for it.
  using Job = std::function<void(int id, SearchShared& shared)>;
  // on_death runs in the parent's watch thread after a helper died and every
  // other was killed: release what the dead one may have held. on_respawn
  // runs in begin() before fresh helpers replace them: clear what they shared.
  using Callback = std::function<void()>;

  // `backend` names the backend in errors; forks `helpers` processes at once.
  ProcessCrew(std::string backend, int helpers, Job job, Callback on_death, Callback on_respawn);
  ~ProcessCrew();
  ProcessCrew(const ProcessCrew&) = delete;
  ProcessCrew& operator=(const ProcessCrew&) = delete;

  int helpers() const { return helpers_; }
  CrewControl& control() const { return control_[0]; }

  // Parent, before a search, once everything the helpers read is set.
  // Throws std::invalid_argument (one line) on a simulated machine or for
  // too many banned moves. Forks fresh helpers when a helper died in an
  // earlier search. Writes the search into the control block, wakes the
  // helpers and starts the watch; a stop requested before the search began
  // reaches them at their first node.
  void begin(const Position& pos, SearchShared& shared, std::uint8_t generation);
  // Parent: ends the helpers' search and waits until every one has parked.
  // Throws std::runtime_error (one line) when one died or hung; the others
  // are killed then, and the next begin() forks fresh ones.
  void finish();
  // finish() that swallows the error (the search's own error, if any, stands).
  void end() noexcept;

  // Any searching thread, at each node: whether the search is over for it
  // (see the header comment). next_check: the thread's own counter. It also
  // carries the deepest iteration begun (SearchShared::root_depth, which
  // the singular extension reads) from thread 0 to the helpers, every 1,024
  // nodes.
  bool should_stop(const Worker& w, SearchShared& local, std::uint64_t& next_check) const;
  // The CPU seconds the helpers' jobs took in the last search (after finish()).
  double helper_cpu_seconds() const;

 private:
  struct alignas(64) Slot {
    std::atomic<std::uint64_t> live_nodes{0};
    double cpu_seconds = 0;
  };

  void spawn();
  void serve(int id, std::uint32_t seen);
  void start_watch(SearchShared& shared);
  void stop_watch() noexcept;
  void quit() noexcept;

  const std::string backend_;
  const int helpers_;
  Job job_;
  Callback on_death_, on_respawn_;
  TableBlock<CrewControl> control_;
  TableBlock<Slot> slots_;  // slot i: thread i (0: the parent's searching thread)
  bool running_ = false;  // helpers are in a search (the parent's searching thread only)
  bool broken_ = false;   // a helper died or hung: respawn at the next begin()
  std::string failure_;   // what the watch saw, this search (read after it ended)
  std::thread watch_;
  std::mutex watch_mutex_;
  std::condition_variable watch_cv_;
  bool watch_stop_ = false;  // guarded by watch_mutex_
  std::optional<WorkerProcesses> workers_;
};

}  // namespace xq
