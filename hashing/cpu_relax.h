// What a thread does on each turn of a spin-wait: the x86 PAUSE hint (it
// lets the sibling hyper-thread run and saves power), nothing elsewhere.
// The one definition for the table locks, the split pool's waiters and the
// simulated machine's hand-over (hashing/ is the lowest layer that spins).
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace xq {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

}  // namespace xq
