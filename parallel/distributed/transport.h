// The seam between a distributed backend and the wire that joins its ranks
// (processes with their own memory, each with a table and threads of its
// own): messages, each a tag and a byte string, sent from one rank to
// another. Two wires implement it: `loop` (parallel/distributed/loop.h: ranks as
// thread groups of one process, with an injectable latency, so that the
// distributed logic is built, tested and checked by ThreadSanitizer in every
// build) and, when the build has Open MPI, `mpi`.
//
// Between one sender and one receiver messages arrive in the order they were
// sent (MPI's non-overtaking rule; the loop wire's constant latency keeps it
// too). The protocols above rely on it: a rank's FIN is the last message it
// sends in a search, so FINs from every other rank mean nothing is in flight.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "search/virtual_time.h"

namespace xq::dist {

// The wire's clock: the host's steady clock, or on a simulated machine the
// calling logical thread's virtual time (ticks, waits and round trips are
// then virtual too).
using Clock = std::chrono::steady_clock;
inline Clock::time_point wire_now() {
  if (const sim::Clock* v = sim::current())
    return Clock::time_point(std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(v->now_seconds())));
  return Clock::now();
}

enum class Tag : std::uint8_t {
  Search = 1,  // rank 0 -> every rank: start a search (request below)
  Stop,        // rank 0 -> every rank: end the search
  Entries,     // any -> any: a batch of table entries
  Progress,    // a rank -> rank 0: its node count so far (node limits)
  Fin,         // any -> any: the sender sends nothing more in this search
  Result,      // a rank -> rank 0: its threads' ballots and counters
  Clear,       // rank 0 -> every rank: forget the table and heuristics
  Quit,        // rank 0 -> every rank: the backend is gone, leave its serve loop
  Config,      // rank 0 -> a rank (MPI): serve this backend (rank.h's codec)
  Shutdown,    // rank 0 -> every rank (MPI): rank 0 is leaving, leave too
  Claim,       // a thread -> an entry's home rank: probe and claim it (mpi-abdada)
  Answer,      // the home rank -> that thread's rank: the claim's outcome
  Release,     // any -> a home rank: a batch of claims to release
  LeafAsk,     // a searcher -> rank 0: give me a leaf (mpi-aphid)
  LeafJob,     // rank 0 -> a searcher's rank: a leaf to search
  LeafResult,  // a searcher -> rank 0: one depth of its leaf's search
  LeafYield,   // rank 0 -> a searcher's rank: give up a speculative search
  LeafDrop,    // a searcher -> rank 0: the leaf it gave up
  RootBest,    // a thread -> every other rank: a root move raised the best (mpi-abdada)
};

struct Message {
  int source = -1;
  Tag tag = Tag::Quit;
  std::vector<std::uint8_t> body;
};

// What one rank sent and received (bodies only: the tag and the source ride
// in the wire's envelope).
struct Traffic {
  std::uint64_t msgs_sent = 0, bytes_sent = 0, msgs_received = 0, bytes_received = 0;
  Traffic operator-(const Traffic& o) const {
    return {msgs_sent - o.msgs_sent, bytes_sent - o.bytes_sent, msgs_received - o.msgs_received,
            bytes_received - o.bytes_received};
  }
};

// One rank's end of the wire.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Queues `body` for rank `dest` (not this one) and returns; thread-safe.
  virtual void send(int dest, Tag tag, std::vector<std::uint8_t> body) = 0;
  // The next message for this rank, waiting at most `wait` for one; called
  // by one thread at a time.
  virtual std::optional<Message> receive(std::chrono::microseconds wait) = 0;
  // What this rank sent and received so far (any thread).
  Traffic traffic() const {
    return {sent_msgs_.load(std::memory_order_relaxed), sent_bytes_.load(std::memory_order_relaxed),
            received_msgs_.load(std::memory_order_relaxed),
            received_bytes_.load(std::memory_order_relaxed)};
  }

 protected:
  void count_sent(std::size_t bytes) {
    sent_msgs_.fetch_add(1, std::memory_order_relaxed);
    sent_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  }
  void count_received(std::size_t bytes) {
    received_msgs_.fetch_add(1, std::memory_order_relaxed);
    received_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  }

 private:
  std::atomic<std::uint64_t> sent_msgs_{0}, sent_bytes_{0}, received_msgs_{0},
      received_bytes_{0};
};

// Message bodies: trivially copyable values back to back, in the sender's
// byte order (every rank runs the same binary on the same kind of machine).
class Writer {
 public:
  template <class T>
  Writer& put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &v, sizeof(T));
    return *this;
  }
  Writer& put_string(const std::string& text) {
    put(std::uint16_t(text.size()));
    const std::size_t at = bytes_.size();
    bytes_.resize(at + text.size());
    if (!text.empty()) std::memcpy(bytes_.data() + at, text.data(), text.size());
    return *this;
  }
  // A count, then the items (a batch of entries or releases).
  template <class Items>
  Writer& put_batch(const Items& items) {
    put(std::uint32_t(std::size(items)));
    for (const auto& v : items) put(v);
    return *this;
  }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }
  std::size_t size() const { return bytes_.size(); }

 private:
  std::vector<std::uint8_t> bytes_;
};

class Reader {
 public:
  explicit Reader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    if (bytes_.size() - at_ < sizeof(T))
      throw std::runtime_error("malformed message: " + std::to_string(bytes_.size()) +
                               " bytes end inside a field at byte " + std::to_string(at_));
    T v;
    std::memcpy(&v, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  std::string get_string() {
    const auto n = get<std::uint16_t>();
    if (bytes_.size() - at_ < n)
      throw std::runtime_error("malformed message: a string of " + std::to_string(n) +
                               " bytes runs past the end");
    std::string s(bytes_.begin() + std::ptrdiff_t(at_), bytes_.begin() + std::ptrdiff_t(at_ + n));
    at_ += n;
    return s;
  }
  // A batch written by Writer::put_batch: `f` gets each item; returns the count.
  template <class T, class F>
  std::uint32_t get_batch(F&& f) {
    const auto n = get<std::uint32_t>();
    for (std::uint32_t i = 0; i < n; ++i) f(get<T>());
    return n;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const std::vector<std::uint8_t>& bytes_;
  std::size_t at_ = 0;
};

}  // namespace xq::dist
