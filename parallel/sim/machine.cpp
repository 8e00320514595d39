#include "parallel/sim/machine.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

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

// The token's word: 0 none, 1 held, 2 none and its thread asleep in the
// kernel; a hand-over makes the system call only for a sleeper. The wait is
// the kernel's futex itself, not std::atomic::wait, whose library spins and
// then calls sched_yield a dozen times before it sleeps: with every logical
// thread pinned to one core those yields ran the other waiters in turn
// (sched_yield was half of a 64-thread simulation's time in a profile).
// Measured, ybwc at 64 logical threads, data/middlegames.csv at depth 7,
// three interleaved pairs: 1.165 M simulated nodes per second before, 1.511
// M after (docs/journal/2026-11-29-sim-speed.md).
void futex_wait(std::atomic<int>& word, int expected) {
  syscall(SYS_futex, reinterpret_cast<int*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}

void futex_wake(std::atomic<int>& word) {
  syscall(SYS_futex, reinterpret_cast<int*>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Fiber stacks: 8 MiB each (what an OS thread gets here, RLIMIT_STACK),
// mapped without reserving memory (a search touches some hundred KiB of
// it), with a guard page below; a stack freed goes back to a process-wide
// list for the next fiber, so a 256-thread search maps its stacks once.
constexpr std::size_t kFiberStack = std::size_t(8) << 20;

class StackPool {
 public:
  static StackPool& get() {
    static StackPool* pool = new StackPool;  // outlives every machine
    return *pool;
  }
  void* take() {
    {
      std::lock_guard g(lock_);
      if (!free_.empty()) {
        void* top = free_.back();
        free_.pop_back();
        return top;
      }
    }
    const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
    void* base = mmap(nullptr, kFiberStack + page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    mprotect(base, page, PROT_NONE);  // best effort: an overflow faults instead of corrupting
    return static_cast<char*>(base) + page + kFiberStack;
  }
  void put(void* top) {
    std::lock_guard g(lock_);
    free_.push_back(top);
  }

 private:
  std::mutex lock_;
  std::vector<void*> free_;
};

// Boost.Context's stack allocator interface over the pool.
struct PooledStack {
  boost::context::stack_context allocate() {
    boost::context::stack_context sc;
    sc.size = kFiberStack;
    sc.sp = StackPool::get().take();
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) noexcept { StackPool::get().put(sc.sp); }
};

}  // namespace

struct Machine::Contexts {
  std::vector<boost::context::fiber> ctx;   // a suspended host context, by logical id
  std::vector<std::function<void()>> body;  // a spawned fiber's body until it starts
};

Carrier default_carrier() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return Carrier::Threads;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return Carrier::Threads;
#else
  return Carrier::Fibers;
#endif
#else
  return Carrier::Fibers;
#endif
}

const char* to_string(Carrier c) { return c == Carrier::Fibers ? "fibers" : "threads"; }

const char* to_string(TimelineEvent::What w) {
  switch (w) {
    case TimelineEvent::What::Quantum: return "quantum";
    case TimelineEvent::What::Idle: return "idle";
    case TimelineEvent::What::Wait: return "wait_others";
    case TimelineEvent::What::Spawned: return "spawned";
    case TimelineEvent::What::Left: return "left";
    case TimelineEvent::What::Woke: return "woke";
    case TimelineEvent::What::Preempted: return "preempted";
    case TimelineEvent::What::Yielded: return "yielded";
  }
  return "?";
}

Machine::Machine(const Costs& costs, int quantum, std::uint64_t seed, int max_threads, int cores,
                 Carrier carrier)
    : costs_(costs),
      quantum_(quantum),
      seed_(seed),
      spin_(max_threads <= int(std::thread::hardware_concurrency())),
      carrier_(carrier),
      slots_(std::size_t(std::max(1, max_threads))),
      contexts_(std::make_unique<Contexts>()) {
  contexts_->ctx.resize(slots_.size());
  contexts_->body.resize(slots_.size());
  if (quantum < 1) throw std::invalid_argument("the simulation quantum must be at least 1 node");
  if (max_threads < 1) throw std::invalid_argument("a simulated machine needs a thread");
  if (cores < 0) throw std::invalid_argument("a simulated machine's core count must not be negative");
  if (cores > 0 && cores < max_threads) {
    if (costs_.slice <= 0) throw std::invalid_argument("the simulated time slice must be positive");
    cores_.resize(std::size_t(cores));
  }
}

// Seed 0: every thread at speed 1. Otherwise a factor in 1 +- jitter per
// thread, so that threads with equal work do not stay in step forever.
double Machine::speed(int id, Time t) const {
  if (seed_ == 0) return 1.0;
  std::uint64_t x = seed_ * 0x100000001B3ull + std::uint64_t(id);
  // With a period, span k > 0 of the thread's clock has its own draw (span
  // 0 keeps the whole-search draw).
  if (costs_.jitter_period > 0 && t >= costs_.jitter_period)
    x = splitmix64(x ^ (std::uint64_t(t / costs_.jitter_period) * 0xD1B54A32D192ED03ull));
  const std::uint64_t r = splitmix64(x);
  const double u = double(r >> 11) / double(1ull << 53);  // [0, 1)
  return 1.0 + costs_.jitter * (2.0 * u - 1.0);
}

int Machine::self() const {
  if (tl_id < 0 || Machine::current() != this)
    throw std::logic_error("a thread that is not attached to the simulated machine called it");
  return tl_id;
}

Time Machine::now() const { return slots_[std::size_t(self())].clock; }

double Machine::now_seconds() const { return seconds(now()); }

Machine::~Machine() {
  // A fiber still suspended (an exception left the search while it was
  // attached) is left as it is, stack and all: destroying it would unwind
  // its frames, whose destructors may call into this machine.
  for (boost::context::fiber& f : contexts_->ctx)
    if (f) (void)new boost::context::fiber(std::move(f));
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
    s.core = -1;
    s.ran = s.since = 0;
    s.deaf = false;
    s.go.store(0, std::memory_order_relaxed);
  }
  for (Slot& s : slots_) s.on_host = false;
  slots_[0].state = State::Runnable;
  slots_[0].on_host = true;
  host_go_.store(0, std::memory_order_relaxed);
  for (Core& c : cores_) c = Core{};
  if (!cores_.empty()) {
    cores_[0].thread = 0;
    slots_[0].core = 0;
    slots_[0].slice_end = costs_.slice;
  }
  attached_ = 1;
  detail::current_slot() = this;
  tl_id = 0;
  cpu_ = spin_ ? -1 : sched_getcpu();
  pin_to(cpu_);
}

void Machine::end() {
  const int me = self();
  if (others_attached(me)) throw std::logic_error("simulated machine ended with threads attached");
  release_core(me);
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
  if (!cores_.empty()) {
    s.ran = 0;
    enqueue(id);  // it runs once it has a core
  }
  // A token left from an earlier search goes; a thread that already waits
  // for this one (its OS thread may attach before the spawner gets here)
  // keeps its mark, or the hand-over that starts it would not wake it.
  int stale = 1;
  s.go.compare_exchange_strong(stale, 0, std::memory_order_relaxed);
  ++attached_;
  note(s.clock, id, TimelineEvent::What::Spawned, 0, -1);
}

void Machine::spawn_fiber(int id, Time after, std::function<void()> body) {
  if (!fibers()) throw std::logic_error("spawn_fiber on a simulated machine of OS threads");
  spawn(id, after);
  slots_[std::size_t(id)].on_host = true;
  contexts_->body[std::size_t(id)] = std::move(body);
  contexts_->ctx[std::size_t(id)] = boost::context::fiber(
      std::allocator_arg, PooledStack{}, [this, id](boost::context::fiber&&) {
        tl_id = id;
        std::function<void()> run = std::move(contexts_->body[std::size_t(id)]);
        try {
          run();
        } catch (...) {
          if (!fiber_error_) fiber_error_ = std::current_exception();
        }
        run = nullptr;
        int next = -1;
        try {
          next = leave(id);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "xqlab: simulated machine: %s\n", e.what());
          std::abort();  // a fiber cannot throw past its entry
        }
        make_runnable(next);
        ++switches_;
        if (!slots_[std::size_t(next)].on_host) {
          // An OS thread runs next: hand it the token, and leave once the
          // host has it back, for the context it was handed to.
          give(slots_[std::size_t(next)].go);
          take(host_go_);
          next = host_target_;
        }
        tl_id = next;
        return std::move(contexts_->ctx[std::size_t(next)]);
      });
}

void Machine::unspawn(int id) {
  Slot& s = slots_.at(std::size_t(id));
  if (s.state == State::Absent) return;
  release_core(id);
  s.state = State::Absent;
  --attached_;
  if (s.on_host && id != 0) {  // a fiber never started: its stack goes back
    contexts_->ctx[std::size_t(id)] = boost::context::fiber{};
    contexts_->body[std::size_t(id)] = nullptr;
    s.on_host = false;
  }
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

int Machine::pick() {
  if (!cores_.empty()) return pick_sliced();
  int best = -1;
  Time key = 0;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    Time k = 0;
    switch (s.state) {
      case State::Absent: continue;
      case State::Ready: continue;  // only with time slicing (pick_sliced)
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

bool Machine::due_key(int id, Time& key) const {
  const Slot& s = slots_[std::size_t(id)];
  if (s.state == State::Sleeping) {
    key = std::max(s.clock, s.wake);
    return true;
  }
  if (s.state == State::Joining && !attached_in(s.join_first, s.join_last, id)) {
    key = s.clock;
    return true;
  }
  return false;
}

int Machine::pick_sliced() {
  for (;;) {
    // The core that has been free longest.
    const Core* free = nullptr;
    for (const Core& c : cores_)
      if (c.thread < 0 && (!free || c.free_at < free->free_at)) free = &c;
    // By (key, kind, service, place, id): a thread on a core runs, and a
    // sleeper's or joiner's time comes, before a ready thread takes a free
    // core at the same time; among ready threads the least served first,
    // then the longest waiting.
    int best = -1;
    Time best_key = 0;
    bool best_ready = false;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const Slot& s = slots_[i];
      Time k = 0;
      const bool ready = s.state == State::Ready;
      if (s.state == State::Absent) continue;
      if (s.state == State::Runnable) k = s.clock;
      else if (ready && !free) continue;
      else if (ready) k = std::max(s.clock, free->free_at);
      else if (!due_key(int(i), k)) continue;
      const Slot* b = best < 0 ? nullptr : &slots_[std::size_t(best)];
      const bool better =
          !b || k < best_key ||
          (k == best_key && best_ready &&
           (!ready || s.ran < b->ran || (s.ran == b->ran && s.queued < b->queued)));
      if (better) {
        best = int(i);
        best_key = k;
        best_ready = ready;
      }
    }
    if (best < 0) return -1;
    Slot& b = slots_[std::size_t(best)];
    if (b.state == State::Runnable) return best;
    if (!best_ready) {  // its time has come: it queues for a core
      if (b.state == State::Sleeping) note(best_key, best, TimelineEvent::What::Woke, 0, -1);
      b.clock = best_key;
      enqueue(best);
      continue;
    }
    const int core = int(free - cores_.data());
    core_wait_ += best_key - b.clock;
    b.clock = best_key;
    b.state = State::Runnable;
    b.core = core;
    b.slice_end = best_key + costs_.slice;
    b.since = best_key;
    b.woken = false;
    cores_[std::size_t(core)].thread = best;
    return best;
  }
}

void Machine::enqueue(int id) {
  Slot& s = slots_[std::size_t(id)];
  Time least = -1;  // the least-served other thread that runs or waits to
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& o = slots_[i];
    if (int(i) == id || (o.state != State::Runnable && o.state != State::Ready)) continue;
    if (least < 0 || o.ran < least) least = o.ran;
  }
  if (least >= 0) s.ran = std::max(s.ran, least - costs_.slice);
  s.state = State::Ready;
  s.woken = true;
  s.queued = ++queued_;
}

void Machine::release_core(int id) {
  Slot& s = slots_[std::size_t(id)];
  if (s.core < 0) return;
  s.ran += s.clock - s.since;
  cores_[std::size_t(s.core)] = Core{-1, s.clock};
  s.core = -1;
}

void Machine::queue_due(Time t) {
  for (;;) {
    int first = -1;
    Time first_key = 0;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      Time k = 0;
      if (due_key(int(i), k) && k <= t && (first < 0 || k < first_key)) {
        first = int(i);
        first_key = k;
      }
    }
    if (first < 0) return;
    Slot& s = slots_[std::size_t(first)];
    if (s.state == State::Sleeping) note(first_key, first, TimelineEvent::What::Woke, 0, -1);
    s.clock = first_key;
    enqueue(first);
  }
}

bool Machine::preempt(int id, bool slice_over) {
  Slot& s = slots_[std::size_t(id)];
  queue_due(s.clock);
  bool waiting = false;
  for (std::size_t i = 0; i < slots_.size() && !waiting; ++i) {
    const Slot& o = slots_[i];
    waiting = int(i) != id && o.state == State::Ready && o.clock <= s.clock &&
              (slice_over || (o.woken && o.ran < s.ran));
  }
  if (!waiting) return false;
  release_core(id);
  s.state = State::Ready;
  s.woken = false;
  s.queued = ++queued_;
  ++preemptions_;
  note(s.clock, id, TimelineEvent::What::Preempted, 0, -1);
  return true;
}

void Machine::make_runnable(int next) {
  Slot& n = slots_[std::size_t(next)];
  if (n.state == State::Sleeping) {
    n.clock = std::max(n.clock, n.wake);
    note(n.clock, next, TimelineEvent::What::Woke, 0, -1);
  }
  n.state = State::Runnable;
}

void Machine::switch_to(int next, bool wait) {
  const int me = tl_id;
  Slot& n = slots_[std::size_t(next)];
  make_runnable(next);
  if (next == me) return;
  ++switches_;
  const bool here = slots_[std::size_t(me)].on_host;
  if (n.on_host && here && wait) {  // a jump between contexts of the host
    jump(me, next);
    return;
  }
  if (n.on_host) {  // from an OS thread to the host
    host_target_ = next;
    give(host_go_);
  } else {
    give(n.go);
  }
  if (!wait) return;
  if (here)
    host_wait(me);
  else
    take_token(me);
}

void Machine::give(std::atomic<int>& go) {
  if (go.exchange(1, std::memory_order_release) == 2) futex_wake(go);
}

void Machine::take(std::atomic<int>& go) {
  // With a core for every logical thread, a waiter spins for about a
  // quantum's real time before it sleeps: the hand-over then costs no
  // system call. With fewer cores the spinners would take the runner's.
  if (spin_)
    for (int i = 0; i < 4096 && go.load(std::memory_order_acquire) == 0; ++i) cpu_relax();
  for (int v; (v = go.load(std::memory_order_acquire)) != 1;)
    if (v == 2 || go.compare_exchange_strong(v, 2, std::memory_order_acquire)) futex_wait(go, 2);
  go.store(0, std::memory_order_relaxed);
}

void Machine::jump(int me, int next) {
  std::move(contexts_->ctx[std::size_t(next)])
      .resume_with([this, me](boost::context::fiber&& from) {
        contexts_->ctx[std::size_t(me)] = std::move(from);
        return boost::context::fiber{};
      });
  tl_id = me;  // resumed
}

void Machine::host_wait(int me) {
  take(host_go_);
  if (host_target_ != me) jump(me, host_target_);
}

void Machine::attach(int id) {
  detail::current_slot() = this;
  tl_id = id;
  pin_to(cpu_);
  take_token(id);
}

int Machine::leave(int me) {
  Slot& s = slots_[std::size_t(me)];
  release_core(me);
  s.state = State::Absent;
  --attached_;
  // A thread waiting for the others resumes at the latest of their exits.
  for (Slot& j : slots_)
    if (j.state == State::Joining && me >= j.join_first && me < j.join_last)
      j.clock = std::max(j.clock, s.clock);
  const int next = pick();
  if (next < 0) throw std::logic_error("a simulated thread detached and left no thread to run");
  note(s.clock, me, TimelineEvent::What::Left, 0, next);
  if (me != 0) s.on_host = false;
  return next;
}

void Machine::detach() {
  const int me = self();
  const int next = leave(me);
  detail::current_slot() = nullptr;
  switch_to(next, false);  // next != me: this thread is absent
  tl_id = -1;
  unpin();
}

void Machine::wait_others() { wait_range(0, int(slots_.size())); }

void Machine::wait_range(int first, int last) {
  const int me = self();
  // A fiber's escaped exception comes out once the join is over.
  const auto rethrow = [this] {
    if (fiber_error_) std::rethrow_exception(std::exchange(fiber_error_, nullptr));
  };
  if (!attached_in(first, last, me)) return rethrow();
  Slot& s = slots_[std::size_t(me)];
  s.state = State::Joining;
  s.join_first = first;
  s.join_last = last;
  release_core(me);
  const int next = pick();
  note(slots_[std::size_t(me)].clock, me, TimelineEvent::What::Wait, 0, next);
  switch_to(next, true);
  rethrow();
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

void Machine::idle_wait(int polls, bool wake_on_signal) {
  Slot& s = slots_[std::size_t(self())];
  s.clock += costs_.idle_poll;
  if (cores_.empty()) {
    // A core each: a real waiter's spins and yields find new work within a
    // microsecond or so, which waking at the signal stands for.
    sleep_until(s.clock + costs_.idle_timeout);
    return;
  }
  if (polls < kIdleSpins) {
    yield();  // it spins on its core; a thread behind it in time goes first
  } else if (polls < kIdleYields) {
    yield_core();
  } else {
    s.deaf = !wake_on_signal;
    sleep_until(s.clock + costs_.idle_timeout);
    s.deaf = false;
  }
}

void Machine::yield_core() {
  const int me = self();
  Slot& s = slots_[std::size_t(me)];
  queue_due(s.clock);
  // sched_yield beside threads that wait for the core: they run first, and
  // the yielder waits for the core to come back (a slice later when they
  // are busy; measured here beside one busy thread: 35 % of the yields gave
  // the core away for a 4 ms tick, the others came back within 2 us).
  bool waiting = false;
  Time most = 0;  // the most-served thread that waits now
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& o = slots_[i];
    if (int(i) == me || o.state != State::Ready || o.clock > s.clock) continue;
    most = waiting ? std::max(most, o.ran) : o.ran;
    waiting = true;
  }
  if (!waiting) {  // nobody waits for a core: the yield returns at once
    yield();
    return;
  }
  release_core(me);
  s.ran = std::max(s.ran, most + 1);  // behind every thread that waits now
  s.state = State::Ready;
  s.woken = false;
  s.queued = ++queued_;
  ++yields_;
  const int next = pick();
  note(s.clock, me, TimelineEvent::What::Yielded, 0, next == me ? -1 : next);
  if (next != me) switch_to(next, true);
}

void Machine::sleep_until(Time until) {
  const int me = self();
  Slot& s = slots_[std::size_t(me)];
  if (until <= s.clock) return;
  s.state = State::Sleeping;
  s.wake = until;
  release_core(me);
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
    if (s.state == State::Sleeping && !s.deaf) s.wake = std::min(s.wake, std::max(s.clock, t));
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
  s.clock += Time(cost * speed(me, s.clock));
  w.next_time_check = nodes + std::uint64_t(quantum_);
  if (!cores_.empty()) {
    const bool over = s.clock >= s.slice_end;
    if (!preempt(me, over) && over) s.slice_end = s.clock + costs_.slice;  // nobody waits
  }
  const int next = pick();
  note(s.clock, me, TimelineEvent::What::Quantum, nodes, next == me ? -1 : next);
  if (next != me) switch_to(next, true);
}

}  // namespace xq::sim
