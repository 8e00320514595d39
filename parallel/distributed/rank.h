// What every distributed backend's ranks share: table entries on the wire,
// the per-thread boxes that collect the ones worth shipping, the table
// decorator that fills them, and the codecs of a search request and of a
// rank's report.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "board/position.h"
#include "hashing/entry.h"
#include "parallel/backend.h"
#include "parallel/distributed/transport.h"
#include "search/options.h"
#include "search/result.h"
#include "parallel/distributed/wire_counters.h"

namespace xq::dist {

// A table entry as it travels: the full key (a partial key rebuilt by the
// receiver would collide: Stockfish's cluster branch measured -110 Elo for
// it) and the packed data word, generation and searcher bits clear.
struct WireEntry {
  Key key = 0;
  std::uint64_t word = 0;
};

// One box per search thread, holding the deepest entries its stores offered
// since the last collection (at most `capacity`: a deeper entry displaces
// the shallowest). The thread fills its own box; the rank's wire thread
// empties every box once per tick. A full box is a heap with its shallowest
// entry on top, so an offer costs O(log capacity) and not a scan of the box
// (a search thread offers every store at least share_depth deep: with a
// low share_depth and a large box the scan cost the node rate 7 % over MPI
// and 17 % over the loop wire, 2026-11-27).
class Outboxes {
 public:
  Outboxes(int threads, int capacity) : capacity_(std::size_t(std::max(1, capacity))) {
    for (int i = 0; i < threads; ++i) boxes_.push_back(std::make_unique<Box>());
  }

  void offer(int thread, Key key, const TTData& d) {
    Box& b = *boxes_[std::size_t(thread)];
    const WireEntry e{key, packed::pack(d, 0)};
    std::lock_guard lock(b.mutex);
    ++b.offered;
    if (b.entries.size() < capacity_) {
      b.entries.push_back({e, d.depth});
      if (b.entries.size() == capacity_) std::make_heap(b.entries.begin(), b.entries.end(), deeper);
      return;
    }
    if (b.entries.front().depth >= d.depth) return;
    std::pop_heap(b.entries.begin(), b.entries.end(), deeper);
    b.entries.back() = {e, d.depth};
    std::push_heap(b.entries.begin(), b.entries.end(), deeper);
  }

  // Appends every box's entries to `out` and empties the boxes.
  void collect(std::vector<WireEntry>& out) {
    for (auto& b : boxes_) {
      std::lock_guard lock(b->mutex);
      for (const Held& h : b->entries) out.push_back(h.entry);
      b->entries.clear();
    }
  }
  // Entries offered since reset(), over every box.
  std::uint64_t offered() {
    std::uint64_t n = 0;
    for (auto& b : boxes_) {
      std::lock_guard lock(b->mutex);
      n += b->offered;
    }
    return n;
  }
  void reset() {
    for (auto& b : boxes_) {
      std::lock_guard lock(b->mutex);
      b->entries.clear();
      b->offered = 0;
    }
  }

 private:
  struct Held {
    WireEntry entry;
    std::int8_t depth = 0;
  };
  // The heap's order: the shallowest entry on top.
  static bool deeper(const Held& x, const Held& y) { return x.depth > y.depth; }
  struct alignas(64) Box {
    std::mutex mutex;
    std::vector<Held> entries;  // guarded by mutex
    std::uint64_t offered = 0;  // guarded by mutex
  };
  const std::size_t capacity_;
  std::vector<std::unique_ptr<Box>> boxes_;
};

// A table that also offers every store at least `depth` deep to the
// thread's outbox (the node function is unchanged: it stores as always).
// Without outboxes (one rank, or sharing off) it is the inner table.
template <class Inner>
class ShippingTable : public Inner {
 public:
  void ship_to(Outboxes* boxes, Depth depth) {
    boxes_ = boxes;
    depth_ = depth;
  }
  void store(Key key, const TTData& d, int tid) {
    Inner::store(key, d, tid);
    if (boxes_ && d.depth >= depth_) boxes_->offer(tid, key, d);
  }
  // An entry from another rank, stored from table slot `tid` under the
  // table's own replacement rule.
  void store_received(const WireEntry& e, int tid) {
    Inner::store(e.key, packed::unpack(e.word), tid);
  }

 private:
  Outboxes* boxes_ = nullptr;
  Depth depth_ = 0;
};

// A table whose entries of nodes at least `home_depth` deep live at a home
// rank chosen by the key's high 32 bits (the bucket index comes from the low
// ones: hashing/bucket_array.h), so that every rank's threads share one
// searcher count per deep node (mpi-abdada). A claim of a node homed
// elsewhere is a round trip (Remote::claim); its handle names the home's
// slot, marked by kRemoteSlot, and its release is queued for the home.
// A store of such a node is kept here too and queued for the home, and a
// claim's answer deeper than this rank's copy is kept here. Shallow
// nodes, and deep ones homed here, use the inner table alone -- except
// that stores at least `replica_depth` deep (and shallower than
// `home_depth`) are also queued for every other rank, which keeps them as
// a lazy cluster does (Remote::replicated; replica_depth 0: none). With
// `exclusive_home_claims`, only the exclusive claims of a node homed
// elsewhere go to its home: a claim that cannot be deferred (an eldest
// brother, or a deferred move's second pass) reads and marks this rank's
// copy, without a round trip.
template <class Inner>
class HomeTable : public Inner {
 public:
  static constexpr int kRemoteSlot = 1 << 20;

  // What reaches other ranks (implemented by the rank's mode).
  class Remote {
   public:
    virtual TTClaim claim(int home, Key key, bool exclusive, int tid) = 0;
    virtual void stored(int home, Key key, const TTData& d, int tid) = 0;
    virtual void released(int home, Key key, TTSlot slot, int tid) = 0;
    virtual void replicated(Key key, const TTData& d, int tid) = 0;

   protected:
    ~Remote() = default;
  };

  // remote null: one rank, every entry is at home.
  void attach(Remote* remote, int rank, int ranks, Depth home_depth, Depth replica_depth = 0,
              bool exclusive_home_claims = false) {
    remote_ = remote;
    rank_ = rank;
    ranks_ = ranks;
    home_depth_ = home_depth;
    replica_depth_ = replica_depth;
    exclusive_home_claims_ = exclusive_home_claims;
  }
  int home(Key key) const { return int(((key >> 32) * std::uint64_t(ranks_)) >> 32); }
  bool homed_elsewhere(Key key, Depth depth) const {
    return remote_ && depth >= home_depth_ && home(key) != rank_;
  }

  using Inner::claim;
  TTClaim claim(Key key, Depth depth, bool exclusive, int tid) {
    if (!homed_elsewhere(key, depth) || (exclusive_home_claims_ && !exclusive))
      return Inner::claim(key, exclusive, tid);
    TTClaim c = remote_->claim(home(key), key, exclusive, tid);
    if (c.busy) return c;
    if (c.slot.slot >= 0) c.slot.slot += kRemoteSlot;
    // This rank's own copy, when it is deeper than the home's; else the
    // home's entry is kept here too, for the shallower probes that stay here.
    TTData mine;
    const bool have = Inner::probe(key, mine, tid);
    if (have && (!c.found || mine.depth > c.data.depth)) {
      c.found = true;
      c.data = mine;
    } else if (c.found && c.data.depth > packed::kPlaceholderDepth &&
               (!have || c.data.depth > mine.depth)) {
      Inner::store(key, c.data, tid);
    }
    return c;
  }
  bool release(Key key, TTSlot slot, int tid) {
    if (slot.slot < kRemoteSlot) return Inner::release(key, slot, tid);
    remote_->released(home(key), key, {slot.bucket, slot.slot - kRemoteSlot}, tid);
    return false;  // an underflow is counted by the home
  }
  void store(Key key, const TTData& d, int tid) {
    Inner::store(key, d, tid);
    if (!remote_) return;
    if (d.depth >= home_depth_) {
      if (home(key) != rank_) remote_->stored(home(key), key, d, tid);
    } else if (replica_depth_ > 0 && d.depth >= replica_depth_) {
      remote_->replicated(key, d, tid);
    }
  }

 private:
  Remote* remote_ = nullptr;
  int rank_ = 0, ranks_ = 1;
  Depth home_depth_ = 0, replica_depth_ = 0;
  bool exclusive_home_claims_ = false;
};

// A search request: the root (its board and the repetition history behind
// it travel as bytes: every rank runs the same binary) and the options, the
// caller's stop pointer excepted.
static_assert(std::is_trivially_copyable_v<Position>);
static_assert(std::is_trivially_copyable_v<Limits>);
static_assert(std::is_trivially_copyable_v<Features>);
static_assert(std::is_trivially_copyable_v<SearchTuning>);

// A list of moves: its length, then each move's 16 bits. A list longer
// than `max_moves` is a malformed message.
inline void put_moves(Writer& w, std::span<const Move> moves) {
  w.put(std::uint16_t(moves.size()));
  for (Move m : moves) w.put(m.raw());
}
inline void get_moves(Reader& r, std::vector<Move>& out, std::size_t max_moves = 0xFFFF) {
  const std::size_t n = r.get<std::uint16_t>();
  if (n > max_moves)
    throw std::runtime_error("malformed message: a line of " + std::to_string(n) + " moves");
  out.resize(n);
  for (Move& m : out) m = Move::from_raw(r.get<std::uint16_t>());
}

inline void put_request(Writer& w, std::uint64_t id, const Position& pos, const SearchOptions& o) {
  w.put(id).put(pos).put(o.limits).put(o.algorithm).put(o.features).put(o.tuning).put(o.exact);
  put_moves(w, o.banned_root_moves);
}

struct Request {
  std::uint64_t id = 0;
  Position pos;
  SearchOptions options;
};

inline void get_request(Reader& r, Request& q) {
  q.id = r.get<std::uint64_t>();
  q.pos = r.get<Position>();
  q.options.limits = r.get<Limits>();
  q.options.algorithm = r.get<Algorithm>();
  q.options.features = r.get<Features>();
  q.options.tuning = r.get<SearchTuning>();
  q.options.exact = r.get<bool>();
  get_moves(r, q.options.banned_root_moves);
}

// Counters travel as their 8-byte values, in XQ_SEARCH_COUNTERS order.
inline void put_stats(Writer& w, const SearchStats& s) {
  for_each_counter(s, [&](const char*, const auto& c) { w.put(c.load()); });
}
inline SearchStats get_stats(Reader& r) {
  SearchStats s;
  for_each_counter(s, [&](const char*, auto& c) { c = r.get<decltype(c.load())>(); });
  return s;
}

// A thread's last completed iteration, as a vote and a result need it.
struct Ballot {
  Move move;
  Value score = 0;
  Depth depth = 0;  // 0: no iteration completed
  std::vector<Move> pv;
};

inline void put_ballot(Writer& w, const Ballot& b) {
  w.put(b.move.raw()).put(std::int32_t(b.score)).put(std::int32_t(b.depth));
  put_moves(w, b.pv);
}
inline Ballot get_ballot(Reader& r) {
  Ballot b;
  b.move = Move::from_raw(r.get<std::uint16_t>());
  b.score = Value(r.get<std::int32_t>());
  b.depth = Depth(r.get<std::int32_t>());
  get_moves(r, b.pv);
  return b;
}

// A backend's configuration, for the ranks that serve it (MPI).
inline void put_config(Writer& w, std::string_view backend, const BackendConfig& c) {
  w.put_string(std::string(backend)).put_string(c.hash).put(std::int32_t(c.threads));
  w.put(std::uint64_t(c.hash_mib)).put(std::uint64_t(c.hash_bytes)).put(c.replacement);
  w.put(std::uint16_t(c.params.size()));
  for (const auto& [name, value] : c.params) w.put_string(name).put(value);
}
inline std::string get_config(Reader& r, BackendConfig& c) {
  std::string backend = r.get_string();
  c.hash = r.get_string();
  c.threads = r.get<std::int32_t>();
  c.hash_mib = std::size_t(r.get<std::uint64_t>());
  c.hash_bytes = std::size_t(r.get<std::uint64_t>());
  c.replacement = r.get<Replacement>();
  c.params.resize(r.get<std::uint16_t>());
  for (auto& [name, value] : c.params) {
    name = r.get_string();
    value = r.get<std::int64_t>();
  }
  return backend;
}

// A rank other than 0 serving one backend over `wire` until rank 0 sends
// Quit (returns false) or Shutdown (rank 0 is leaving: returns true).
// `early`: the backend's messages from other ranks that reached this rank
// before its CONFIG did (they count in its first search). Each distributed
// backend's file registers how its ranks serve with a RankServer of its
// own (a namespace-scope object: the file is linked because the registry
// names its BackendInfo), so that this folder keeps no list of backends.
bool serve_backend(std::string_view backend, const BackendConfig& c, Transport& wire,
                   std::vector<Message> early);
using ServeFn = bool (*)(const BackendConfig& c, Transport& wire, std::vector<Message> early);
struct RankServer {
  RankServer(std::string_view backend, ServeFn serve);
};

// The stats' wire counters from a rank's traffic over one search.
inline void add_traffic(SearchStats& s, const Traffic& t) {
  s[dist::msgs_sent] += t.msgs_sent;
  s[dist::bytes_sent] += t.bytes_sent;
  s[dist::msgs_received] += t.msgs_received;
  s[dist::bytes_received] += t.bytes_received;
}

}  // namespace xq::dist
