// 16-byte atomic entries: key and data written and read by one aligned
// 16-byte move.
//
// Race model: nothing tears, by the hardware's word. Since 2021 Intel's SDM
// (vol. 3A, 9.1.1) and AMD's APM (vol. 2, 7.3.2) guarantee that an aligned
// 16-byte load or store by MOVDQA (and the VEX.128 moves) is atomic on every
// processor that reports AVX (CPUID.01H:ECX bit 28). A slot is one such
// 16-byte word, key in the low half and data in the high: a probe is one
// `movdqa` load per slot, a store one `movdqa` store, so a reader sees a
// whole entry or the one before it -- no check word, no lock. torn_detected
// counts only what the bucket array notices for every scheme (a key that does
// not belong in its bucket), which no store of this scheme produces. Searcher
// counts (ABDADA's claims and releases) change by one `lock cmpxchg16b`
// over key and data, retried when another thread changed the slot in
// between, so no claim or release races another one away; a store that
// replaces an entry of the same key carrying a count carries it the same
// way. Every other store is one plain move: over another key's entry the
// old count goes with the entry, as in every scheme, and a claim landing
// between a store's look at the slot and its move is lost (a narrow window
// the locked schemes do not have). Cost: xor's memory (four 16-byte entries
// per cache line) and xor's loads without its XOR; a locked instruction per
// claim and release.
//
// The moves are inline assembly, because g++ 12 and clang 14 compile a
// 16-byte atomic load to `lock cmpxchg16b` (or a libatomic call), not to a
// vector move. ThreadSanitizer cannot see an assembly move as atomic, so a
// TSan build compiles the same three operations as the compiler's 16-byte
// atomic builtins instead (with -mcx16, clang instruments them as 128-bit
// atomics): the TSan lane checks the scheme's protocol, the plain build's
// stress runs check the vector moves themselves (corrupt entries accepted).
// A CPU without AVX or CMPXCHG16B is refused with one line when the table is
// configured.
#pragma once

#include <cpuid.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include "hashing/cluster_table.h"

#if defined(__SANITIZE_THREAD__)
#define XQ_ATOMIC16_BUILTINS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define XQ_ATOMIC16_BUILTINS 1
#endif
#endif

namespace xq {

// What the CPU offers that the scheme needs.
struct Atomic16Cpu {
  bool avx = false, cx16 = false;
};
inline Atomic16Cpu atomic16_cpu() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return {};
  return {(ecx & bit_AVX) != 0, (ecx & bit_CMPXCHG16B) != 0};
}
// The one-line refusal for a CPU without what the scheme needs ("" when it has it).
inline std::string atomic16_refusal(Atomic16Cpu cpu) {
  if (cpu.avx && cpu.cx16) return "";
  std::string missing = !cpu.avx && !cpu.cx16 ? "AVX and CMPXCHG16B" : !cpu.avx ? "AVX" : "CMPXCHG16B";
  return "hash scheme atomic16 needs a CPU with AVX (atomic 16-byte moves) and CMPXCHG16B; this "
         "one lacks " + missing;
}

namespace atomic16 {

// An entry's two words: the key (the low quadword, offset 0) and the data.
struct Pair {
  std::uint64_t key = 0, data = 0;
};

#ifdef XQ_ATOMIC16_BUILTINS
__extension__ using U128 = unsigned __int128;
// One slot's storage.
struct alignas(16) Word {
  U128 bits = 0;
};
inline U128 join(Pair p) { return U128(p.data) << 64 | p.key; }
inline Pair split(U128 v) { return {std::uint64_t(v), std::uint64_t(v >> 64)}; }
inline Pair load(const Word& w) { return split(__atomic_load_n(&w.bits, __ATOMIC_RELAXED)); }
inline void store(Word& w, Pair p) { __atomic_store_n(&w.bits, join(p), __ATOMIC_RELAXED); }
// Replaces `expected` by `desired`; false (and nothing written) when the
// word no longer holds `expected`.
inline bool exchange(Word& w, Pair expected, Pair desired) {
  U128 e = join(expected);
  return __atomic_compare_exchange_n(&w.bits, &e, join(desired), false, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED);
}
#else
// One slot's storage, read and written only by the instructions below.
struct alignas(16) Word {
  std::uint64_t key = 0, data = 0;
};
typedef long long Vec __attribute__((vector_size(16)));
inline Pair load(const Word& w) {
  Vec v;
  asm volatile("movdqa %1, %0" : "=x"(v) : "m"(w));
  return {std::uint64_t(v[0]), std::uint64_t(v[1])};
}
inline void store(Word& w, Pair p) {
  const Vec x = {static_cast<long long>(p.key), static_cast<long long>(p.data)};
  asm volatile("movdqa %1, %0" : "=m"(w) : "x"(x));
}
// Replaces `expected` by `desired`; false (and nothing written) when the
// word no longer holds `expected`.
inline bool exchange(Word& w, Pair expected, Pair desired) {
  bool ok;
  asm volatile("lock cmpxchg16b %1"
               : "=@ccz"(ok), "+m"(w), "+a"(expected.key), "+d"(expected.data)
               : "b"(desired.key), "c"(desired.data)
               : "memory");
  return ok;
}
#endif
static_assert(sizeof(Word) == 16 && alignof(Word) == 16);

}  // namespace atomic16

struct Atomic16Layout {
  static constexpr int kSlots = 4;
  struct alignas(kCacheLine) Bucket {
    atomic16::Word slots[kSlots];
  };
  static_assert(sizeof(Bucket) == kCacheLine);

  static constexpr bool kProcessShared = true;  // plain memory, atomic by the CPU
  void prepare(std::size_t, TableMemory) {
    if (const std::string why = atomic16_refusal(atomic16_cpu()); !why.empty())
      throw std::invalid_argument(why);
  }
  void break_locks(Bucket*, std::size_t) {}  // lockless
  NoLock guard(Bucket&, std::size_t) const { return {}; }
  static LoadedSlot load(const Bucket& b, int i) {
    const atomic16::Pair w = atomic16::load(b.slots[i]);
    LoadedSlot s;
    s.key = w.key;
    s.data = w.data;
    return s;
  }
  static void save(Bucket& b, int i, Key key, std::uint64_t data) {
    atomic16::store(b.slots[i], {key, data});
  }
  // The bucket array's read-modify-write (claims, releases, same-key
  // stores): slot i becomes (key, data) if it still holds `seen`.
  static bool exchange(Bucket& b, int i, const LoadedSlot& seen, Key key, std::uint64_t data) {
    return atomic16::exchange(b.slots[i], {seen.key, seen.data}, {key, data});
  }
};

class Atomic16Table : public ClusterTable<Atomic16Layout> {
 public:
  static constexpr std::string_view kName = "atomic16";
  static constexpr std::string_view kSummary =
      "lockless, one aligned 16-byte move per entry (atomic on AVX CPUs), claims by cmpxchg16b";
};

}  // namespace xq
