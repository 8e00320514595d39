// Bookkeeping every backend shares, so each backend file holds only its own
// parallel machinery: the configuration, the table (configured for the
// backend's thread count), and the one body of Backend::search. A backend
// supplies the parts that differ: readying its threads, running the search
// on the caller's thread, parking its threads, and summing their counters.
#pragma once

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

#include "hashing/memory.h"
#include "parallel/backend.h"
#include "search/search.h"

namespace xq {

// Sizes `table` as the configuration says, with `slots` thread slots.
template <class Table>
void configure_table(Table& table, const BackendConfig& c, int slots,
                     TableMemory memory = TableMemory::Private) {
  if (c.hash_bytes != 0)
    table.configure_bytes(c.hash_bytes, slots, c.replacement, memory);
  else
    table.configure(c.hash_mib, slots, c.replacement, memory);
}

template <class Table>
class BackendBase : public Backend {
 public:
  // `memory`: TableMemory::Shared for a backend whose helpers are processes;
  // `extra_slots`: table thread slots beyond the search threads' (a
  // distributed backend's wire thread stores what other ranks send).
  explicit BackendBase(const BackendConfig& c, TableMemory memory = TableMemory::Private,
                       int extra_slots = 0)
      : config_(c) {
    configure_table(tt_, config_, config_.threads + extra_slots, memory);
  }
  const BackendConfig& config() const override { return config_; }

  void stop() override {
    std::lock_guard lock(mutex_);
    if (current_) current_->stop.store(true, std::memory_order_relaxed);
  }

  // Template method: the steps are the same for every backend. end_search()
  // runs on every path, a throw from run_search() (an Observer's, say)
  // included, so no helper outlives the search frame it works on and the
  // backend stays usable; the exception then reaches the caller.
  SearchResult search(const Position& pos, const SearchOptions& options,
                      Observer& observer) final {
    SearchShared shared;
    shared.options = options;
    const ActiveSearch active(*this, shared);
    SearchResult r;
    {
      const EndSearch end{*this};
      begin_search(pos, shared);
      r = run_search(shared, observer);
    }
    r.stats = thread_stats();
    r.ranks = rank_figures();
    r.round_trips = round_trips();
    r.stats.tt_torn = tt_.counters().torn_detected - active.torn_before();
    return r;
  }

 protected:
  // Readies the backend's threads for a search of `pos` (helpers may start).
  virtual void begin_search(const Position& pos, SearchShared& shared) = 0;
  // Runs iterative deepening on the caller's thread until a limit or stop.
  virtual SearchResult run_search(SearchShared& shared, Observer& observer) = 0;
  // Returns once no helper touches search state; called after run_search()
  // returns or throws, and after a begin_search() that threw.
  virtual void end_search() noexcept {}
  // The counters summed over every thread (called after end_search()).
  virtual SearchStats thread_stats() const = 0;
  // A distributed backend's ranks (called after end_search()).
  virtual std::vector<RankFigures> rank_figures() const { return {}; }
  // A distributed backend's remote probes (called after end_search()).
  virtual RoundTrips round_trips() const { return {}; }

  // Thread ids index the table's per-thread slots without a check on the hot
  // path, so a backend states here, once, how many threads it runs.
  void require_thread_slots(int threads) const {
    if (threads > tt_.threads())
      throw std::invalid_argument("backend runs " + std::to_string(threads) +
                                  " threads but its table has " + std::to_string(tt_.threads()) +
                                  " thread slots");
  }

  BackendConfig config_;
  Table tt_;

 private:
  // While it lives, stop() reaches `shared`. Starts a new table generation
  // and remembers the torn-entry count, to report the search's own.
  class ActiveSearch {
   public:
    ActiveSearch(BackendBase& b, SearchShared& shared) : b_(b) {
      {
        std::lock_guard lock(b_.mutex_);
        b_.current_ = &shared;
      }
      b_.tt_.new_search();
      torn_before_ = b_.tt_.counters().torn_detected;
    }
    ~ActiveSearch() {
      std::lock_guard lock(b_.mutex_);
      b_.current_ = nullptr;
    }
    ActiveSearch(const ActiveSearch&) = delete;
    ActiveSearch& operator=(const ActiveSearch&) = delete;
    std::uint64_t torn_before() const { return torn_before_; }

   private:
    BackendBase& b_;
    std::uint64_t torn_before_ = 0;
  };

  struct EndSearch {
    BackendBase& b;
    ~EndSearch() { b.end_search(); }
  };

  std::mutex mutex_;
  SearchShared* current_ = nullptr;  // guarded by mutex_
};

// Readies a worker for a new search from `pos`.
inline void reset_worker(Worker& w, const Position& pos) {
  w.pos = pos;
  w.stats = SearchStats{};
  w.next_time_check = 0;
  w.flushed_nodes = 0;
  w.sim_nodes = w.sim_qnodes = 0;
  w.clear_heuristics();
}

}  // namespace xq
