// The bucket array every shared scheme is built on, and the probe, store and
// claim loops over one bucket. A scheme is a *Layout* — how one bucket is laid
// out, how a slot is read and written, and what lock (if any) guards a bucket:
//
//   struct Layout {
//     static constexpr int kSlots;             // entries per bucket
//     struct Bucket;                           // alignas(64), size a multiple of 64
//     static constexpr bool kProcessShared;    // its buckets and locks work in shared memory
//     void break_locks(Bucket*, std::size_t n);  // release every lock (its holder died)
//     void prepare(std::size_t buckets, TableMemory);  // any side structures (lock stripes)
//     auto guard(Bucket&, std::size_t index);  // RAII lock held for one probe/store
//     static LoadedSlot load(const Bucket&, int slot);
//     static void save(Bucket&, int slot, Key key, std::uint64_t data);
//     // optional: slot becomes (key, data) if it still holds `seen`, in one
//     // atomic step (a compare-and-swap); then claims, releases and same-key
//     // stores use it instead of load-then-save, and lose no count
//     static bool exchange(Bucket&, int slot, const LoadedSlot& seen, Key, std::uint64_t);
//     // optional: the key bits a slot keeps (a short key check); load()
//     // returns those bits only, and a slot holds a key when they agree
//     static constexpr Key kKeyMask;
//   };
//
// Everything is a template instantiated per scheme, so the hot path has no
// virtual call and no branch on the scheme.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "hashing/cpu_relax.h"
#include "hashing/entry.h"
#include "hashing/memory.h"
#include "hashing/replacement.h"

namespace xq {

// One slot as a probe sees it. `key` is the key the slot claims (decoded for
// XOR-style schemes); `torn` is set when the scheme itself saw the slot torn.
struct LoadedSlot {
  Key key = 0;
  std::uint64_t data = 0;
  bool torn = false;
};

// Bucket of four (key word, data word) pairs: 64 bytes, one cache line.
struct alignas(kCacheLine) PairBucket {
  std::atomic<std::uint64_t> words[8];
};
static_assert(sizeof(PairBucket) == kCacheLine);

// A guard that guards nothing, for the lockless schemes.
struct NoLock {};

// A layout whose slots change by compare-and-swap (see above).
template <class Layout>
concept SlotExchange = requires(typename Layout::Bucket& b, const LoadedSlot& seen) {
  { Layout::exchange(b, 0, seen, Key{}, std::uint64_t{}) } -> std::same_as<bool>;
};

// Whether a layout's searcher counts are exact: changed under a lock, or by
// compare-and-swap. The other lockless layouts may lose a racing update.
template <class Layout>
inline constexpr bool kExactCounts =
    SlotExchange<Layout> ||
    !std::is_same_v<decltype(std::declval<const Layout&>().guard(
                        std::declval<typename Layout::Bucket&>(), std::size_t{})),
                    NoLock>;

// The key bits a layout's slots keep: all of them unless it says otherwise.
template <class Layout>
constexpr Key key_mask_of() {
  if constexpr (requires { Layout::kKeyMask; })
    return Layout::kKeyMask;
  else
    return ~Key{0};
}

// The bucket array and the probe/store loops of one table.
template <class Layout>
class BucketArray {
 public:
  using Bucket = typename Layout::Bucket;
  static constexpr int kSlots = Layout::kSlots;
  static_assert(kSlots >= 2, "two-tier replacement needs two slots per bucket");
  static_assert(alignof(Bucket) >= kCacheLine && sizeof(Bucket) % kCacheLine == 0);
  static constexpr Key kKeyMask = key_mask_of<Layout>();
  // How many bits of the key a slot checks (64, or fewer for a short check).
  static constexpr int kKeyBits = std::popcount(kKeyMask);

  // Zeroed buckets, in the process's heap or in memory shared with the
  // processes forked later; throws std::bad_alloc. Leaves *this unchanged
  // on failure.
  void allocate(std::size_t buckets, TableMemory memory = TableMemory::Private) {
    TableBlock<Bucket> fresh(buckets, memory);  // value-initialised: all words 0
    Layout layout;
    layout.prepare(buckets, memory);
    table_ = std::move(fresh);
    layout_ = std::move(layout);
    count_ = buckets;
  }
  std::size_t buckets() const { return count_; }

  // Maps the key onto [0, count_) by a multiply-high, so any bucket count
  // works. The key is rotated first so that the index comes from its low 32
  // bits: a torn XOR-style mix differs from a real key in the bits where two
  // data words differ — mostly the low ones (move, value), hardly ever the
  // high ones (bound, generation) — so this way a torn slot almost always
  // decodes to a key of another bucket, which probe() counts as torn.
  std::size_t index_of(Key key) const {
    __extension__ using U128 = unsigned __int128;
    const Key rotated = key << 32 | key >> 32;
    return std::size_t((U128(rotated) * U128(count_)) >> 64);
  }

  // The deepest slot holding `key` (packed data word), or 0. Adds to `torn`
  // the slots seen torn: flagged by the scheme, or claiming a key that does
  // not belong in this bucket (a mix of two entries decodes to such a key
  // with probability 1 - 1/buckets, so this is a lower bound).
  std::uint64_t probe(Key key, std::uint64_t& torn) {
    const std::size_t b = index_of(key);
    Bucket& bucket = table_[b];
    [[maybe_unused]] const auto guard = layout_.guard(bucket, b);
    std::uint64_t best = 0;
    for (int i = 0; i < kSlots; ++i) {
      const LoadedSlot s = Layout::load(bucket, i);
      if (s.torn) {
        ++torn;
      } else if (packed::occupied(s.data)) {
        if (holds(s, key)) {
          if (best == 0 || packed::depth_of(s.data) > packed::depth_of(best)) best = s.data;
        } else if (foreign(s, b)) {
          ++torn;
        }
      }
    }
    return best;
  }

  void store(Key key, std::uint64_t data, std::uint8_t generation, Replacement r) {
    const std::size_t b = index_of(key);
    Bucket& bucket = table_[b];
    [[maybe_unused]] const auto guard = layout_.guard(bucket, b);
    for (;;) {
      const int slot = choose(bucket, b, key, data, generation, r);
      if (slot < 0) return;
      const LoadedSlot old = Layout::load(bucket, slot);
      const bool same = !old.torn && holds(old, key);
      const std::uint64_t d = same ? data | (old.data & packed::kSearchersMask) : data;
      if constexpr (SlotExchange<Layout>) {
        // A count this store carries over must still be the slot's when it
        // writes: compare-and-swap. A slot with no count takes one plain
        // save(), as in the other schemes (a claim landing between the load
        // and the save is lost, as there).
        if (d & packed::kSearchersMask) {
          if (!Layout::exchange(bucket, slot, old, key, d)) continue;
          return;
        }
      }
      Layout::save(bucket, slot, key, d);
      return;
    }
  }

  // Probes for `key` with intent to search it: raises the searcher count of
  // its slot, or writes a placeholder (bound None, count 1) when it has none.
  // With `exclusive`, a node that others are searching is left alone and
  // reported busy. The count is read, changed and written back under the
  // scheme's guard with the scheme's own save(): exact for the locked
  // schemes; for the lockless ones two claims racing on a slot may lose an
  // update (the count stays a hint) and the rewrite is checked like any
  // store (xor and sandwich rewrite their check words). A layout with
  // exchange() changes the count by compare-and-swap, retried until no
  // other thread changed the slot in between: exact without a lock.
  TTClaim claim(Key key, bool exclusive, std::uint8_t generation, Replacement r,
                std::uint64_t& torn) {
    const std::size_t b = index_of(key);
    Bucket& bucket = table_[b];
    if constexpr (SlotExchange<Layout>) return claim_by_exchange(bucket, b, key, exclusive,
                                                                 generation, r, torn);
    [[maybe_unused]] const auto guard = layout_.guard(bucket, b);
    TTClaim c;
    c.slot.bucket = b;
    const int found = find(bucket, key, torn);
    if (found >= 0) {
      const std::uint64_t data = Layout::load(bucket, found).data;
      c.found = true;
      c.data = packed::unpack(data);
      c.searchers = packed::searchers_of(data);
      if (exclusive && c.searchers > 0) {
        c.busy = true;
        return c;
      }
      // A saturated count records no more searchers, so this claim takes no
      // handle: its release must not lower a count it never raised.
      if (c.searchers >= packed::kMaxSearchers) return c;
      Layout::save(bucket, found, key, packed::with_searchers(data, c.searchers + 1));
      c.slot.slot = found;
      return c;
    }
    TTData placeholder;
    placeholder.depth = packed::kPlaceholderDepth;
    const std::uint64_t data = packed::with_searchers(packed::pack(placeholder, generation), 1);
    c.slot.slot = choose(bucket, b, key, data, generation, r);
    if (c.slot.slot >= 0) Layout::save(bucket, c.slot.slot, key, data);
    return c;
  }

  // Lowers the searcher count raised by claim(); nothing when the slot was
  // given to another position meanwhile (the count went with it). Entries
  // never move between slots, so only the claimed slot is looked at: a copy
  // of the key elsewhere carries other searchers' counts. Returns true when
  // the count was already 0 (an underflow: under a lock only after the slot
  // was replaced and claimed again by others; lockless, also a lost update).
  bool release(Key key, TTSlot slot) {
    if (slot.slot < 0) return false;
    Bucket& bucket = table_[slot.bucket];
    [[maybe_unused]] const auto guard = layout_.guard(bucket, slot.bucket);
    for (;;) {
      const LoadedSlot s = Layout::load(bucket, slot.slot);
      if (s.torn || !holds(s, key) || !packed::occupied(s.data)) return false;
      const int n = packed::searchers_of(s.data);
      if (n == 0) return true;
      const std::uint64_t lowered = packed::with_searchers(s.data, n - 1);
      if constexpr (SlotExchange<Layout>) {
        if (Layout::exchange(bucket, slot.slot, s, key, lowered)) return false;
      } else {
        Layout::save(bucket, slot.slot, key, lowered);
        return false;
      }
    }
  }

  // The searcher count of key's entry (0 when absent).
  int searchers(Key key) {
    const std::size_t b = index_of(key);
    Bucket& bucket = table_[b];
    [[maybe_unused]] const auto guard = layout_.guard(bucket, b);
    std::uint64_t torn = 0;
    const int i = find(bucket, key, torn);
    return i < 0 ? 0 : packed::searchers_of(Layout::load(bucket, i).data);
  }

  // Sum of every slot's searcher count (while no other thread uses the table).
  std::uint64_t total_searchers() const {
    std::uint64_t n = 0;
    for (std::size_t b = 0; b < count_; ++b)
      for (int i = 0; i < kSlots; ++i) {
        const LoadedSlot s = Layout::load(table_[b], i);
        if (!s.torn && packed::occupied(s.data)) n += std::uint64_t(packed::searchers_of(s.data));
      }
    return n;
  }

  // Slots whose searcher count is not 0 (only while no other thread uses
  // the table); clear_busy_marks() also sets those counts to 0.
  std::uint64_t busy_marks() const {
    std::uint64_t n = 0;
    for_each_busy([&](std::size_t, int, const LoadedSlot&) { ++n; });
    return n;
  }
  std::uint64_t clear_busy_marks() {
    std::uint64_t n = 0;
    for_each_busy([&](std::size_t b, int i, const LoadedSlot& s) {
      ++n;
      Layout::save(table_[b], i, s.key, packed::with_searchers(s.data, 0));
    });
    return n;
  }

  // Zeroes every word (only while no other thread uses the table).
  void clear() {
    for (std::size_t b = 0; b < count_; ++b)
      for (int i = 0; i < kSlots; ++i) Layout::save(table_[b], i, 0, 0);
  }

  // Releases every bucket lock, held or not: for a process whose partner
  // died holding one (a lock in shared memory outlives its holder). Only
  // when no live process but the caller's own thread can hold a lock; the
  // entries a dead holder was writing may be torn (clear() before use).
  void break_locks() { layout_.break_locks(table_.get(), count_); }

  // Occupied slots of `generation` among the first `sample` buckets.
  std::size_t count_current(std::size_t sample, std::uint8_t generation) const {
    std::size_t used = 0;
    for (std::size_t b = 0; b < std::min(sample, count_); ++b)
      for (int i = 0; i < kSlots; ++i) {
        const LoadedSlot s = Layout::load(table_[b], i);
        used += !s.torn && packed::occupied(s.data) && packed::generation_of(s.data) == generation;
      }
    return used;
  }

 private:
  // claim() for a layout with exchange(): each attempt reads the slot it
  // would change and changes it only if no other thread did meanwhile.
  TTClaim claim_by_exchange(Bucket& bucket, std::size_t b, Key key, bool exclusive,
                            std::uint8_t generation, Replacement r, std::uint64_t& torn) {
    TTClaim c;
    c.slot.bucket = b;
    for (;;) {
      const int found = find(bucket, key, torn);
      if (found >= 0) {
        const LoadedSlot s = Layout::load(bucket, found);
        if (s.torn || !holds(s, key) || !packed::occupied(s.data)) continue;  // replaced: again
        c.found = true;
        c.data = packed::unpack(s.data);
        c.searchers = packed::searchers_of(s.data);
        if (exclusive && c.searchers > 0) {
          c.busy = true;
          return c;
        }
        if (c.searchers >= packed::kMaxSearchers) return c;  // saturated: no handle
        if (!Layout::exchange(bucket, found, s, key,
                              packed::with_searchers(s.data, c.searchers + 1)))
          continue;
        c.slot.slot = found;
        return c;
      }
      TTData placeholder;
      placeholder.depth = packed::kPlaceholderDepth;
      const std::uint64_t data = packed::with_searchers(packed::pack(placeholder, generation), 1);
      const int slot = choose(bucket, b, key, data, generation, r);
      if (slot < 0) return c;
      // Another claim may have put this key there since find(): count on it.
      const LoadedSlot seen = Layout::load(bucket, slot);
      if (!seen.torn && holds(seen, key) && packed::occupied(seen.data)) continue;
      if (!Layout::exchange(bucket, slot, seen, key, data)) continue;
      c.slot.slot = slot;
      return c;
    }
  }

  // Whether a slot holds `key`: the bits it keeps agree.
  static bool holds(const LoadedSlot& s, Key key) { return s.key == (key & kKeyMask); }
  // Whether a slot's key maps to another bucket than b (a torn mix): only a
  // slot that keeps the whole key can tell.
  bool foreign(const LoadedSlot& s, std::size_t b) const {
    if constexpr (kKeyBits == 64)
      return index_of(s.key) != b;
    else
      return false;
  }

  // The deepest slot of `bucket` holding key, or -1 (under the caller's guard).
  int find(const Bucket& bucket, Key key, std::uint64_t& torn) const {
    int best = -1;
    std::uint64_t best_data = 0;
    for (int i = 0; i < kSlots; ++i) {
      const LoadedSlot s = Layout::load(bucket, i);
      if (s.torn) {
        ++torn;
      } else if (packed::occupied(s.data) && holds(s, key) &&
                 (best < 0 || packed::depth_of(s.data) > packed::depth_of(best_data))) {
        best = i;
        best_data = s.data;
      }
    }
    return best;
  }

  template <class F>
  void for_each_busy(F&& f) const {
    for (std::size_t b = 0; b < count_; ++b)
      for (int i = 0; i < kSlots; ++i) {
        const LoadedSlot s = Layout::load(table_[b], i);
        if (!s.torn && packed::occupied(s.data) && packed::searchers_of(s.data) > 0)
          f(b, i, s);
      }
  }

  // The slot a store of (key, data) would take, or -1 (under the caller's guard).
  int choose(const Bucket& bucket, std::size_t b, Key key, std::uint64_t data,
             std::uint8_t generation, Replacement r) const {
    replacement::SlotState state[kSlots];
    for (int i = 0; i < kSlots; ++i) {
      const LoadedSlot s = Layout::load(bucket, i);
      replacement::SlotState& st = state[i];
      st.empty = s.torn || !packed::occupied(s.data) || (!holds(s, key) && foreign(s, b));
      if (st.empty) continue;
      st.same_key = holds(s, key);
      st.depth = packed::depth_of(s.data);
      st.age = int((generation - packed::generation_of(s.data)) & packed::kGenerationMask);
    }
    return replacement::choose_slot(state, kSlots, packed::depth_of(data),
                                    packed::bound_of(data), r);
  }

  TableBlock<Bucket> table_;
  std::size_t count_ = 0;
  Layout layout_;
};


}  // namespace xq
