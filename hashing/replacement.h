// Replacement policies: which slot of a bucket a store overwrites, or whether
// it is dropped. Pure functions over a snapshot of the bucket, shared by every
// scheme (under the lockless schemes the snapshot may be stale or torn; a torn
// slot is treated as empty, so a store heals it).
//
//   depth    (DepthPreferred) keep the deepest entries: overwrite the same key or
//            the least worth slot only if it is empty, from an older search, or
//            not deeper than the new entry; otherwise drop the store.
//   always   (AlwaysReplace) the same key's slot, else the least worth slot,
//            unconditionally: the newest entry is always in the table.
//   twotier  (TwoTier, Thompson's two tables as in Belle) the first half of the
//            bucket is a depth-preferred tier, the rest an always-replace tier; a
//            store the depth tier refuses goes to the always tier, so a deep
//            entry survives a flood of shallow ones and the newest entry is
//            still found.
// Aging: any slot from an older search may be overwritten, and is evicted
// before any slot of the current search (among older slots, one written g
// searches ago is worth depth - kAgeWeight * g), so stale deep entries never
// crowd out the current search, yet survive while there is room.
#pragma once

#include <array>
#include <climits>
#include <string_view>

#include "hashing/entry.h"

namespace xq {

inline constexpr std::array<std::string_view, 3> kReplacementNames = {"depth", "always",
                                                                      "twotier"};

// "depth" | "always" | "twotier"; throws std::invalid_argument otherwise.
Replacement parse_replacement(std::string_view name);
std::string_view replacement_name(Replacement r);

namespace replacement {

constexpr int kAgeWeight = 8;         // plies of depth one search of age is worth
constexpr int kCurrentBonus = 1 << 16;  // puts every current slot above every older one

struct SlotState {
  bool empty = true;      // never written, or torn
  bool same_key = false;  // holds the key being stored
  int depth = 0;
  int age = 0;            // searches since it was written; 0 = the current one
};

constexpr int worth(const SlotState& s) {
  if (s.empty) return INT_MIN;
  return s.age == 0 ? kCurrentBonus + s.depth : s.depth - kAgeWeight * s.age;
}

constexpr bool may_overwrite(const SlotState& s, int new_depth, Bound new_bound) {
  return s.empty || s.age > 0 || new_depth >= s.depth ||
         (s.same_key && new_bound == Bound::Exact);
}

// The slot in [lo, hi) that holds the key, else the least worth one.
constexpr int pick(const SlotState* s, int lo, int hi) {
  int best = lo;
  for (int i = lo; i < hi; ++i) {
    if (s[i].same_key) return i;
    if (worth(s[i]) < worth(s[best])) best = i;
  }
  return best;
}

// The two tiers of TwoTier for a bucket of n >= 2 slots: [0, split) and [split, n).
constexpr int two_tier_split(int n) { return n / 2; }

// The slot a store of (new_depth, new_bound) writes, or -1 to drop it.
constexpr int choose_slot(const SlotState* s, int n, int new_depth, Bound new_bound,
                          Replacement r) {
  switch (r) {
    case Replacement::AlwaysReplace:
      return pick(s, 0, n);
    case Replacement::DepthPreferred: {
      const int i = pick(s, 0, n);
      return may_overwrite(s[i], new_depth, new_bound) ? i : -1;
    }
    case Replacement::TwoTier: {
      const int split = two_tier_split(n);
      const int d = pick(s, 0, split);
      if (may_overwrite(s[d], new_depth, new_bound)) return d;
      return pick(s, split, n);
    }
  }
  return -1;
}

}  // namespace replacement
}  // namespace xq
