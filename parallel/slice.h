// The kernel's time slice of the calling thread. Linux 6.12 and later read a
// fair task's sched_runtime as its slice request (no privilege needed): a
// thread that asks for a short slice preempts a running thread of the
// default slice when it wakes, instead of waiting for that thread's slice
// or the next tick (EEVDF). The protocol reader asks for it, and the
// simulated machine's pinned threads. Older kernels ignore or refuse the
// request, and then nothing changes.
// Not a rank's wire thread: woken every 30-100 us beside the search threads,
// short-sliced wire threads cut mpi-lazy's median stop latency by a third but
// now and then starved mpirun's forwarding of the engine's input and output
// for 5.6, 19 and 56 s (in 13 runs of 300 cycles; none in 6 runs without,
// docs/journal/2026-11-28-stop.md).
#pragma once

#include <cstdint>

namespace xq {

// The kernel's shortest slice (a shorter request is raised to it).
inline constexpr std::uint64_t kShortSliceNs = 100'000;

// Sets the calling thread's slice request to `ns` (0: the default); stores
// the request it had in *old when not null. False when the kernel refuses
// or the thread is not in the fair class.
bool set_thread_slice(std::uint64_t ns, std::uint64_t* old = nullptr);

}  // namespace xq
