// Test helpers for the engine: a collector of one search's callbacks, and a
// hang detector that waits for the best move with a generous bound (a hang
// guard, never a timing assertion).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "engine/engine.h"

namespace xq::test {

// Long enough for a loaded 2-core machine under ThreadSanitizer; reaching it
// means a search that was asked to end did not.
constexpr auto kHangBound = std::chrono::seconds(60);

class Collector {
 public:
  SearchCallbacks callbacks() {
    SearchCallbacks cb;
    cb.on_iteration = [this](const SearchResult& r) {
      std::lock_guard lock(mutex_);
      iterations_.push_back(r.depth);
    };
    cb.on_info = [this](std::string_view text) {
      std::lock_guard lock(mutex_);
      infos_.emplace_back(text);
    };
    cb.on_bestmove = [this](const SearchResult& r) {
      std::lock_guard lock(mutex_);
      ++bestmoves_;
      best_.set_value(r);
    };
    return cb;
  }
  // The best move's result, or nullopt if none came within kHangBound.
  std::optional<SearchResult> result() {
    if (future_.wait_for(kHangBound) != std::future_status::ready) return std::nullopt;
    return future_.get();
  }
  std::vector<Depth> iterations() const {
    std::lock_guard lock(mutex_);
    return iterations_;
  }
  std::vector<std::string> infos() const {
    std::lock_guard lock(mutex_);
    return infos_;
  }
  int bestmoves() const {
    std::lock_guard lock(mutex_);
    return bestmoves_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Depth> iterations_;
  std::vector<std::string> infos_;
  int bestmoves_ = 0;
  std::promise<SearchResult> best_;
  std::future<SearchResult> future_ = best_.get_future();
};

inline bool is_legal_in(const Position& pos, Move m) { return MoveList(pos).contains(m); }

inline EngineOptions options_for(const std::string& backend, int threads) {
  EngineOptions o;
  o.set("Backend", backend);
  o.set("Threads", std::to_string(threads));
  o.set("Hash", "4");
  return o;
}

inline GoLimits infinite() {
  GoLimits g;
  g.infinite = true;
  return g;
}

inline GoLimits to_depth(Depth d) {
  GoLimits g;
  g.depth = d;
  return g;
}

}  // namespace xq::test
