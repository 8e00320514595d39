// Bookkeeping every backend shares, so each backend file holds only its own
// parallel machinery: the configuration, the table (configured for the
// backend's thread count), routing stop() to the running search, the table's
// generation and torn-entry count per search, and summing per-thread stats.
#pragma once

#include <cstdint>
#include <mutex>

#include "parallel/backend.h"
#include "search/search.h"

namespace xq {

template <class Table>
class BackendBase : public Backend {
 public:
  explicit BackendBase(const BackendConfig& c) : config_(c) {
    if (config_.hash_bytes != 0)
      tt_.configure_bytes(config_.hash_bytes, config_.threads, config_.replacement);
    else
      tt_.configure(config_.hash_mib, config_.threads, config_.replacement);
  }
  const BackendConfig& config() const override { return config_; }

  void stop() override {
    std::lock_guard lock(mutex_);
    if (current_) current_->stop.store(true, std::memory_order_relaxed);
  }

 protected:
  // One search in progress: while it lives, stop() reaches `shared`. Starts a
  // new table generation and counts the torn entries the search ran into.
  class Running {
   public:
    Running(BackendBase& b, SearchShared& shared) : b_(b) {
      {
        std::lock_guard lock(b_.mutex_);
        b_.current_ = &shared;
      }
      b_.tt_.new_search();
      torn_before_ = b_.tt_.counters().torn_detected;
    }
    ~Running() {
      std::lock_guard lock(b_.mutex_);
      b_.current_ = nullptr;
    }
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;

    // Sets r's stats: the threads' summed counters plus the table's
    // torn-entry count for this search.
    void finish(SearchResult& r, const SearchStats& summed) const {
      r.stats = summed;
      r.stats.tt_torn = b_.tt_.counters().torn_detected - torn_before_;
    }

   private:
    BackendBase& b_;
    std::uint64_t torn_before_ = 0;
  };

  BackendConfig config_;
  Table tt_;

 private:
  std::mutex mutex_;
  SearchShared* current_ = nullptr;  // guarded by mutex_
};

// Readies a worker for a new search from `pos`.
inline void reset_worker(Worker& w, const Position& pos) {
  w.pos = pos;
  w.stats = SearchStats{};
  w.next_time_check = 0;
  w.flushed_nodes = 0;
  w.clear_heuristics();
}

}  // namespace xq
