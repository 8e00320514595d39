#include "parallel/sim/machine.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

#include "hashing/cpu_relax.h"
#include "parallel/slice.h"
#include "search/worker.h"

namespace xq::sim {
namespace {

thread_local int tl_id = -1;  // the calling thread's logical id while attached

// While attached to a machine with fewer cores than logical threads, an OS
// thread runs on the machine's one core and gets its own mask back when it
// leaves. Only one logical thread runs at a time, so one core loses nothing;
// and a hand-over then stays on that core: the thread that hands over
// sleeps, the one it woke runs there at once. Spread over the cores of a
// loaded machine, each woken thread waited for a busy core's next tick
// instead. Measured (tests/parallel/sim_test.cpp, one binary, interleaved):
// about 30 % less time unloaded, 2.2x less beside two busy threads.
// Best effort: where the mask cannot be set, the threads run unpinned.
struct Pin {
  cpu_set_t saved;
  bool pinned = false;
  std::uint64_t saved_slice = 0;  // the thread's own slice request, 0: none set
  bool sliced = false;
};
thread_local Pin tl_pin;

// Pinned, an OS thread also asks for the kernel's shortest time slice (Linux
// 6.12 and later read a fair task's sched_runtime as its slice request; no
// privilege needed; older kernels ignore or refuse it, and then nothing
// changes). Beside a busy process on the same core, the thread that a
// hand-over wakes otherwise waits for that process's whole slice (1.4 ms
// here), at every hand-over; with a short slice it runs at once. Measured
// (sim_test's loaded machine, one busy thread on the machine's core, one
// binary, interleaved by a temporary variable): 27.3 / 27.5 s with the
// default slice, 3.7 / 3.6 s with 0.1 ms (0.2 ms: 5.5 s, 0.5 ms: 11.2 s;
// 0.05 ms is the kernel's 0.1 ms); unloaded unchanged (1.69 / 1.64 s against
// 1.67 / 1.72 s). The slice asked for before comes back at unpin()
// (parallel/slice.h).
void pin_to(int cpu) {
  if (cpu < 0 || tl_pin.pinned) return;
  if (pthread_getaffinity_np(pthread_self(), sizeof tl_pin.saved, &tl_pin.saved) != 0) return;
  if (!CPU_ISSET(cpu, &tl_pin.saved)) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  tl_pin.pinned = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
  if (tl_pin.pinned) tl_pin.sliced = set_thread_slice(kShortSliceNs, &tl_pin.saved_slice);
}

void unpin() {
  if (!tl_pin.pinned) return;
  if (tl_pin.sliced) set_thread_slice(tl_pin.saved_slice);
  tl_pin.sliced = false;
  pthread_setaffinity_np(pthread_self(), sizeof tl_pin.saved, &tl_pin.saved);
  tl_pin.pinned = false;
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

const char* to_string(TimelineEvent::What w) {
  switch (w) {
    case TimelineEvent::What::Quantum: return "quantum";
    case TimelineEvent::What::Idle: return "idle";
    case TimelineEvent::What::Wait: return "wait_others";
    case TimelineEvent::What::Spawned: return "spawned";
    case TimelineEvent::What::Left: return "left";
    case TimelineEvent::What::Woke: return "woke";
  }
  return "?";
}

Machine::Machine(const Costs& costs, int quantum, std::uint64_t seed, int max_threads)
    : costs_(costs),
      quantum_(quantum),
      spin_(max_threads <= int(std::thread::hardware_concurrency())),
      slots_(std::size_t(std::max(1, max_threads))) {
  if (quantum < 1) throw std::invalid_argument("the simulation quantum must be at least 1 node");
  if (max_threads < 1) throw std::invalid_argument("a simulated machine needs a thread");
  // Seed 0: every thread at speed 1. Otherwise a factor in 1 +- jitter per
  // thread, so that threads with equal work do not stay in step forever.
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (seed == 0) continue;
    const std::uint64_t r = splitmix64(seed * 0x100000001B3ull + i);
    const double u = double(r >> 11) / double(1ull << 53);  // [0, 1)
    slots_[i].speed = 1.0 + costs_.jitter * (2.0 * u - 1.0);
  }
}

int Machine::self() const {
  if (tl_id < 0 || Machine::current() != this)
    throw std::logic_error("a thread that is not attached to the simulated machine called it");
  return tl_id;
}

Time Machine::now() const { return slots_[std::size_t(self())].clock; }

double Machine::now_seconds() const { return seconds(now()); }

Machine::~Machine() {
  if (Machine::current() != this) return;
  unpin();
  detail::current_slot() = nullptr;
  tl_id = -1;
}

void Machine::begin() {
  if (attached_ != 0) throw std::logic_error("simulated machine begun twice");
  for (Slot& s : slots_) {
    s.state = State::Absent;
    s.clock = s.wake = 0;
    s.go.store(0, std::memory_order_relaxed);
  }
  slots_[0].state = State::Runnable;
  attached_ = 1;
  detail::current_slot() = this;
  tl_id = 0;
  cpu_ = spin_ ? -1 : sched_getcpu();
  pin_to(cpu_);
}

void Machine::end() {
  const int me = self();
  if (others_attached(me)) throw std::logic_error("simulated machine ended with threads attached");
  slots_[std::size_t(me)].state = State::Absent;
  attached_ = 0;
  detail::current_slot() = nullptr;
  tl_id = -1;
  unpin();
}

void Machine::spawn(int id, Time after) {
  if (id < 0 || std::size_t(id) >= slots_.size())
    throw std::out_of_range("simulated thread " + std::to_string(id) + " is beyond the machine's " +
                            std::to_string(slots_.size()));
  Slot& s = slots_[std::size_t(id)];
  if (s.state != State::Absent)
    throw std::logic_error("simulated thread " + std::to_string(id) + " spawned twice");
  s.state = State::Runnable;
  s.clock = now() + after;
  s.go.store(0, std::memory_order_relaxed);
  ++attached_;
  note(s.clock, id, TimelineEvent::What::Spawned, 0, -1);
}

void Machine::unspawn(int id) {
  Slot& s = slots_.at(std::size_t(id));
  if (s.state == State::Absent) return;
  s.state = State::Absent;
  --attached_;
}

bool Machine::others_attached(int id) const {
  return attached_ - (slots_[std::size_t(id)].state == State::Absent ? 0 : 1) > 0;
}

bool Machine::attached_in(int first, int last, int id) const {
  if (first <= 0 && last >= int(slots_.size())) return others_attached(id);
  for (int i = std::max(first, 0); i < std::min(last, int(slots_.size())); ++i)
    if (i != id && slots_[std::size_t(i)].state != State::Absent) return true;
  return false;
}

int Machine::pick() const {
  int best = -1;
  Time key = 0;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    Time k = 0;
    switch (s.state) {
      case State::Absent: continue;
      case State::Runnable: k = s.clock; break;
      case State::Sleeping: k = std::max(s.clock, s.wake); break;
      case State::Joining:
        if (attached_in(s.join_first, s.join_last, int(i))) continue;
        k = s.clock;
        break;
    }
    if (best < 0 || k < key) {
      best = int(i);
      key = k;
    }
  }
  return best;
}

void Machine::switch_to(int next, bool wait) {
  const int me = tl_id;
  Slot& n = slots_[std::size_t(next)];
  if (n.state == State::Sleeping) {
    n.clock = std::max(n.clock, n.wake);
    note(n.clock, next, TimelineEvent::What::Woke, 0, -1);
  }
  n.state = State::Runnable;
  if (next == me) return;
  ++switches_;
  n.go.store(1, std::memory_order_release);
  n.go.notify_one();
  if (wait) take_token(me);
}

void Machine::take_token(int id) {
  std::atomic<int>& go = slots_[std::size_t(id)].go;
  // With a core for every logical thread, a waiter spins for about a
  // quantum's real time before it sleeps: the hand-over then costs no
  // system call. With fewer cores the spinners would take the runner's.
  if (spin_)
    for (int i = 0; i < 4096 && go.load(std::memory_order_acquire) == 0; ++i) cpu_relax();
  while (go.load(std::memory_order_acquire) == 0) go.wait(0, std::memory_order_acquire);
  go.store(0, std::memory_order_relaxed);
}

void Machine::attach(int id) {
  detail::current_slot() = this;
  tl_id = id;
  pin_to(cpu_);
  take_token(id);
}

void Machine::detach() {
  const int me = self();
  Slot& s = slots_[std::size_t(me)];
  s.state = State::Absent;
  --attached_;
  // A thread waiting for the others resumes at the latest of their exits.
  for (Slot& j : slots_)
    if (j.state == State::Joining && me >= j.join_first && me < j.join_last)
      j.clock = std::max(j.clock, s.clock);
  const int next = pick();
  if (next < 0) throw std::logic_error("a simulated thread detached and left no thread to run");
  note(s.clock, me, TimelineEvent::What::Left, 0, next);
  detail::current_slot() = nullptr;
  switch_to(next, false);  // next != me: this thread is absent
  tl_id = -1;
  unpin();
}

void Machine::wait_others() { wait_range(0, int(slots_.size())); }

void Machine::wait_range(int first, int last) {
  const int me = self();
  if (!attached_in(first, last, me)) return;
  Slot& s = slots_[std::size_t(me)];
  s.state = State::Joining;
  s.join_first = first;
  s.join_last = last;
  const int next = pick();
  note(slots_[std::size_t(me)].clock, me, TimelineEvent::What::Wait, 0, next);
  switch_to(next, true);
}

Time Machine::cost_of(Cost c) const {
  switch (c) {
    case Cost::Publish: return costs_.publish;
    case Cost::Join: return costs_.join;
    case Cost::Lock: return costs_.lock;
    case Cost::Wake: return costs_.wake;
    case Cost::Fork: return costs_.fork;
    case Cost::Barrier: return costs_.barrier;
    case Cost::IdlePoll: return costs_.idle_poll;
    case Cost::Message: return costs_.message;
  }
  return 0;
}

void Machine::charge(Cost c) { slots_[std::size_t(self())].clock += cost_of(c); }

void Machine::idle_wait() {
  Slot& s = slots_[std::size_t(self())];
  s.clock += costs_.idle_poll;
  sleep_until(s.clock + costs_.idle_timeout);
}

void Machine::sleep_until(Time until) {
  const int me = self();
  Slot& s = slots_[std::size_t(me)];
  if (until <= s.clock) return;
  s.state = State::Sleeping;
  s.wake = until;
  const int next = pick();
  note(s.clock, me, TimelineEvent::What::Idle, 0, next == me ? -1 : next);
  switch_to(next, true);
}

void Machine::yield() {
  const int me = self();
  const int next = pick();
  if (next == me) return;
  note(slots_[std::size_t(me)].clock, me, TimelineEvent::What::Idle, 0, next);
  switch_to(next, true);
}

void Machine::wake(int id, Time at) {
  Slot& s = slots_.at(std::size_t(id));
  if (s.state == State::Sleeping) s.wake = std::min(s.wake, std::max(s.clock, at));
}

void Machine::signal() {
  const Time t = now();
  for (Slot& s : slots_)
    if (s.state == State::Sleeping) s.wake = std::min(s.wake, std::max(s.clock, t));
}

void Machine::at_quantum(Worker& w) {
  const int me = self();
  Slot& s = slots_[std::size_t(me)];
  const std::uint64_t nodes = w.stats.nodes, qnodes = w.stats.qnodes;
  const std::uint64_t dq = qnodes - w.sim_qnodes;
  const std::uint64_t dn = nodes - w.sim_nodes - dq;
  w.sim_nodes = nodes;
  w.sim_qnodes = qnodes;
  const double cost = double(dn) * double(costs_.node) + double(dq) * double(costs_.qnode);
  s.clock += Time(cost * s.speed);
  w.next_time_check = nodes + std::uint64_t(quantum_);
  const int next = pick();
  note(s.clock, me, TimelineEvent::What::Quantum, nodes, next == me ? -1 : next);
  if (next != me) switch_to(next, true);
}

}  // namespace xq::sim
