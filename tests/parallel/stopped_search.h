// One unlimited search of `pos` on `b`, stopped after `delay`: the stop is
// repeated until the search returns (a stop before the search has begun is
// a no-op). For the start/stop cycle tests of the distributed backends.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#include "parallel/backend.h"

namespace xq::test {

inline SearchResult stopped_search(Backend& b, const Position& pos,
                                   std::chrono::microseconds delay) {
  SearchOptions o;  // no limit: only the stop ends it
  Observer quiet;
  SearchResult r;
  std::atomic<bool> done{false};
  std::thread t([&] {
    r = b.search(pos, o, quiet);
    done.store(true);
  });
  std::this_thread::sleep_for(delay);
  while (!done.load()) {
    b.stop();
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  t.join();
  return r;
}

}  // namespace xq::test
