// A simulated parallel machine: p logical threads run the backends' own code
// (their pools, hooks, split points and table) on one processor at a time,
// on virtual clocks, so that a 2-core computer can say what a backend does at
// 8, 16 or 64 threads, and say it the same way on every run.
//
// A logical thread runs on a carrier (Carrier): by default a user-space
// context (a fiber, Boost.Context) on the OS thread that began the machine,
// where a hand-over is a jump of a few dozen nanoseconds; or a real OS thread
// (the backend's own: pool helpers, OpenMP team members), where a hand-over
// is a futex wake and a kernel context switch (some 10 us here, measured:
// docs/journal/2026-12-03-sim-fibers.md). Either way it executes only while
// it holds the machine's token, and the same inputs give the same counts
// and virtual times on both carriers: the carrier changes how fast a
// simulation runs, never what it says. The ranks of a distributed backend
// on the loop wire stay OS threads (they wait for their SEARCH on a real
// wire); their pools' helpers run on fibers like every other's. The token holder runs until its next
// quantum check (every `quantum` nodes, at the node function's limit check,
// search/virtual_time.h) or until it waits for something; then the token goes
// to the logical thread with the smallest virtual clock (ties: the smaller
// id). A thread's clock advances by the cost of the nodes it searched
// (interior and quiescence nodes weighted separately, times its speed
// factor, for the whole search or drawn anew per span of virtual time:
// Costs::jitter, jitter_period) and by the costs charged at the seams the
// real runs already time:
// split publishes and joins (copies), split-point locks, waking helpers,
// OpenMP forks and barriers, and idle polls. An idle thread sleeps until a
// signal (a split point published, a search ending) or a timeout, and the
// clock jump is its idle time. No host clock is read inside a simulated
// search: the same binary, inputs, costs, quantum and seed give the same
// counts and virtual times on any load.
//
// With `cores` set below the thread count (--sim-cores), the machine also
// time-slices as an operating system does: a logical thread runs only while
// it holds one of the virtual cores; it keeps its core for a `slice` of
// virtual time and then, if a thread is waiting for a core, goes to the back
// of the ready queue; a thread that sleeps, waits for others or leaves gives
// its core up, and one that wakes or is spawned waits for a core. As in a
// fair scheduler, a free core goes to the waiting thread that has held a
// core least (a sleeper's account is raised to within a slice of the
// least-served other thread's when it wakes, so a long sleep earns no long
// run), ties to the one that waited longest; and a woken thread less served
// than a running one takes that one's core at its next quantum (wake-up
// preemption: Linux here wakes a sleeper beside a busy thread in 0.08 ms,
// as on an idle core). The time it waits passes on its clock as it does on
// a real one, so a search's time shares count it where the real runs do.
// An idle thread there waits as the real back-off does (kIdleSpins,
// kIdleYields): it polls on its core, then yields it to a thread waiting
// for one (it stays runnable, behind the threads that wait, and looks again
// when a core comes back to it: a slice later, beside a busy thread), and
// only then sleeps -- a split pool's helper on a timer, deaf to new work, as
// its 50 us naps are; a task pool's worker until work is posted.
//
// What it cannot model (and the real lab can): caches and memory bandwidth,
// contention for a lock between two threads inside one quantum (a lock is
// never contended, each acquisition costs `lock`), torn table entries, and
// a scheduler's per-core run queues (one queue serves every virtual core).
// Its figures are SIMULATED and are never mixed with measured ones.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "search/virtual_time.h"

namespace xq::sim {

// Virtual time in picoseconds.
using Time = std::int64_t;

inline constexpr Time kPicosPerSecond = 1'000'000'000'000;

// An idle thread's back-off (parallel/split/common.h): its first looks for
// work spin, the looks after kIdleSpins yield the core, and from kIdleYields
// on it sleeps between looks.
inline constexpr int kIdleSpins = 64;
inline constexpr int kIdleYields = 1024;
inline double seconds(Time t) { return double(t) / double(kPicosPerSecond); }

// The costs of a machine, in picoseconds (a profile, lab/timing/sim_profile.h).
struct Costs {
  Time node = 290'000;         // an interior node
  Time qnode = 290'000;        // a quiescence node
  Time publish = 2'000'000;    // publishing a split point (the owner's snapshot copy)
  Time join = 5'000'000;       // joining one (the helper's copy of the snapshot)
  Time lock = 40'000;          // taking a split point's lock
  Time wake = 20'000'000;      // waking a parked helper thread for a search
  Time fork = 5'000'000;       // an OpenMP parallel region's fork
  Time barrier = 2'000'000;    // ... and its closing barrier
  Time idle_poll = 200'000;    // one look for work by an idle thread
  Time idle_timeout = 50'000'000;  // an idle thread's sleep when no signal wakes it
  // The wire between ranks (the loop wire on a simulated machine,
  // parallel/distributed/loop.cpp): a network's figures, not this computer's, so
  // they are what-if values rather than calibrated ones. Defaults: an
  // InfiniBand-class cluster (one-way MPI latency of small messages about
  // 1-2 us, 10 GB/s); `--sim-cost latency=50us,byte=800ps` is 10 GbE over TCP.
  Time message = 500'000;      // CPU time of sending, and of receiving, one message
  Time latency = 2'000'000;    // one message's flight, sender to receiver
  Time byte = 100;             // ... plus this per byte of its body
  // The operating system's time slice, when there are fewer cores than
  // logical threads (Machine's `cores`): a thread keeps its core this long
  // while others wait for one. 4 ms: the scheduler tick here (250 Hz),
  // measured by sim-calibrate.
  Time slice = 4'000'000'000;
  // Per-thread speed factors are 1 +- up to this (seeded; 0 with seed 0):
  // what makes one thread slower than another whatever it searches.
  double jitter = 0.02;
  // 0: a thread's factor holds for the whole search. Otherwise it is drawn
  // anew for each span of this much virtual time on the thread's clock
  // (a machine whose threads are slowed now here, now there).
  Time jitter_period = 0;
};

// What a seam charges.
enum class Cost : std::uint8_t { Publish, Join, Lock, Wake, Fork, Barrier, IdlePoll, Message };

// One entry of a per-thread timeline (Machine::record_timeline): at virtual
// time `at`, logical thread `thread` did `what`; `nodes` is its worker's node
// count at a quantum (0 elsewhere) and `next` the thread that ran after it
// (-1: none, it kept running).
struct TimelineEvent {
  enum class What : std::uint8_t { Quantum, Idle, Wait, Spawned, Left, Woke, Preempted, Yielded };
  Time at = 0;
  int thread = 0;
  What what = What::Quantum;
  std::uint64_t nodes = 0;
  int next = -1;
};
const char* to_string(TimelineEvent::What w);

// Where the logical threads spawned by pools and OpenMP teams run.
// Threads: each on its own OS thread (the simulator's first design; the
// sanitizer builds use it, since ThreadSanitizer and AddressSanitizer are
// not told of a fiber's stack switch). Fibers: on user-space contexts of
// the OS thread that called begin() (8 MiB stacks, as an OS thread's here,
// with a guard page; reused from one search to the next).
enum class Carrier : std::uint8_t { Threads, Fibers };
// Fibers, except in a sanitizer build.
Carrier default_carrier();
const char* to_string(Carrier c);

class Machine final : public Clock {
 public:
  // Up to `max_threads` logical threads (ids 0..max_threads-1) on `cores`
  // virtual cores (0, or at least max_threads: a core for every thread, and
  // no time slicing).
  Machine(const Costs& costs, int quantum, std::uint64_t seed, int max_threads, int cores = 0,
          Carrier carrier = default_carrier());
  // A thread still attached to it (an exception left between begin() and
  // end()) is detached: no dangling current() outlives the machine.
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // The calling thread becomes logical thread 0 at virtual time 0 and holds
  // the token. end() detaches it (every other thread must have detached).
  void begin();
  void end();

  // The machine the calling thread is attached to, or nullptr.
  static Machine* current() { return static_cast<Machine*>(sim::current()); }

  // -- Called by the token holder.
  // Registers logical thread `id` as runnable at the holder's time plus `at`
  // (it may run before its OS thread reaches attach(); the token waits).
  void spawn(int id, Time after);
  // Takes back a spawn whose OS thread will never attach.
  void unspawn(int id);
  // Whether spawned logical threads should run on fibers (spawn_fiber)
  // rather than attach from OS threads of their own.
  bool fibers() const { return carrier_ == Carrier::Fibers; }
  Carrier carrier() const { return carrier_; }
  // spawn(id, after), with `body` as the logical thread: it runs on a fiber
  // when the machine picks it and detaches when `body` returns. An
  // exception that escapes `body` is kept and rethrown by the next
  // wait_range() or wait_others() of any thread.
  void spawn_fiber(int id, Time after, std::function<void()> body);
  // Blocks until every other logical thread has detached; the holder's clock
  // becomes the latest detach time if that is later.
  void wait_others();
  // The same for logical threads first..last-1 only (a pool's helpers, when
  // other pools share the machine: the ranks of a distributed backend).
  void wait_range(int first, int last);
  // Adds `cost` to the holder's clock.
  void charge(Cost cost);
  // An idle thread found no work at its `polls`-th look since it last had
  // some. A core for every thread: it sleeps until a signal or its timeout
  // (whatever `polls`). Time slicing: it spins (looks again on its core),
  // yields its core, or sleeps, by `polls` as the real back-off does; its
  // sleep ends at the timeout only unless `wake_on_signal`.
  void idle_wait(int polls = kIdleYields, bool wake_on_signal = true);
  // Work appeared (or the search ended): every sleeping thread wakes at the
  // holder's time (or its own, if later).
  void signal();
  // The holder sleeps until virtual time `until` (at once if that has
  // passed) or until wake() names it, whichever is first.
  void sleep_until(Time until);
  // Logical thread `id`, if asleep, wakes no later than `at` (or its own
  // time, if later): a message or an answer for it is due then.
  void wake(int id, Time at);
  // The holder lets a thread that is behind it run first (a look that
  // found nothing: without it a polling loop would never hand over).
  void yield();
  // The holder's logical id.
  int id() const { return self(); }

  // -- Called by a spawned thread's OS thread.
  // Blocks until logical thread `id` holds the token; then it runs.
  void attach(int id);
  // The calling thread leaves; the token goes on.
  void detach();

  // Clock.
  void at_quantum(Worker& w) override;
  double now_seconds() const override;

  Time now() const;  // the calling thread's clock
  Time cost_of(Cost c) const;
  // A message's flight: latency plus its bytes.
  Time transit(std::size_t bytes) const { return costs_.latency + Time(bytes) * costs_.byte; }
  int quantum() const { return quantum_; }
  int threads() const { return int(slots_.size()); }  // logical threads it can hold
  std::uint64_t switches() const { return switches_; }
  // Time slicing (cores below the thread count; 0 otherwise): the cores,
  // the threads taken off a core at a slice's end, and the virtual time
  // threads spent ready but waiting for a core (summed over threads).
  int cores() const { return int(cores_.size()); }
  std::uint64_t preemptions() const { return preemptions_; }
  // Time slicing: idle threads that gave their core to a waiting thread.
  std::uint64_t yields() const { return yields_; }
  Time core_wait() const { return core_wait_; }
  // Records every hand-over, sleep, wake, spawn and exit from now on
  // (debugging a backend at many threads: which thread ran when, and where
  // it waited). Off by default: it costs memory per quantum.
  void record_timeline() { record_ = true; }
  const std::vector<TimelineEvent>& timeline() const { return timeline_; }
  // The speed factor of logical thread id at virtual time t on its clock
  // (1 without jitter).
  double speed(int id, Time t = 0) const;

 private:
  // Runnable: it may run (with time slicing: it holds a core). Ready (time
  // slicing only): it may run once it has a core.
  enum class State : std::uint8_t { Absent, Runnable, Ready, Sleeping, Joining };
  struct alignas(64) Slot {
    State state = State::Absent;
    Time clock = 0;
    int core = -1;            // time slicing: the core it holds
    Time slice_end = 0;       // ... and until when, if others wait
    std::uint64_t queued = 0; // Ready: its place in the ready queue
    Time ran = 0;             // time slicing: virtual time it held a core
    Time since = 0;           // ... its current hold began
    bool woken = false;       // Ready after a sleep, a wait or a spawn
    bool deaf = false;        // Sleeping: signal() does not end its sleep
    Time wake = 0;  // Sleeping: when it wakes unless signalled earlier
    int join_first = 0, join_last = 0;  // Joining: the threads it waits for
    std::atomic<int> go{0};  // 1: this thread holds the token
    // On the host (the OS thread that called begin()): thread 0 and every
    // fiber (their contexts: Contexts).
    bool on_host = false;
  };

  int self() const;
  // The thread to run next, by (key, id): a runnable thread's clock, a
  // sleeper's wake time, a joiner once no other thread is attached.
  int pick();
  // pick() with time slicing: a sleeper or joiner whose time has come
  // joins the ready queue, and a ready thread runs only on a free core.
  int pick_sliced();
  // Time slicing: the holder gives its core up (it sleeps, waits or leaves).
  void release_core(int id);
  // ... or to a thread that waits: at a quantum past its slice's end
  // (`slice_over`), or at any quantum to a woken thread less served than it.
  bool preempt(int id, bool slice_over);
  // Time slicing: every sleeper or joiner due by `t` joins the ready queue,
  // in the order of their times.
  void queue_due(Time t);
  // Time slicing: thread `id` joins the ready queue (after a sleep, a wait
  // or a spawn) at its clock.
  void enqueue(int id);
  // Time slicing: the idle holder gives its core to a thread that waits for
  // one, if any, and queues behind every thread waiting now.
  void yield_core();
  // The key of a sleeper or joiner that may run (false: a joiner whose
  // threads are still attached).
  bool due_key(int id, Time& key) const;
  // Hands the token to `next` (making a sleeper or joiner runnable) and, if
  // `wait`, blocks until the token comes back.
  void switch_to(int next, bool wait);
  // A sleeper or joiner picked to run becomes runnable.
  void make_runnable(int next);
  void take_token(int id) { take(slots_[std::size_t(id)].go); }
  void take(std::atomic<int>& go);
  static void give(std::atomic<int>& go);
  // On the host: suspends `me` and resumes `next`'s context; returns when
  // `me` is resumed.
  void jump(int me, int next);
  // On the host, after handing the token to an OS thread: blocks until the
  // host has it back, then resumes the context it was handed to (returns
  // when that is `me` or when `me` is resumed).
  void host_wait(int me);
  // The bookkeeping of a detach: returns the thread to run next.
  int leave(int me);
  bool others_attached(int id) const;
  // Whether a thread of first..last-1 other than `id` is attached.
  bool attached_in(int first, int last, int id) const;

  const Costs costs_;
  const int quantum_;
  const std::uint64_t seed_;
  const bool spin_;  // a core for every logical thread: waiters spin first
  const Carrier carrier_;
  std::atomic<int> host_go_{0};  // the host's token word (its target: host_target_)
  int host_target_ = 0;          // the host context an OS thread handed the token to
  std::exception_ptr fiber_error_;  // the first exception a fiber's body let escape
  int cpu_ = -1;     // without spin_: the core every attached thread runs on
  std::vector<Slot> slots_;
  // The host's suspended contexts and the bodies of fibers not started
  // yet, by logical id (machine.cpp: Boost.Context stays out of this header).
  struct Contexts;
  std::unique_ptr<Contexts> contexts_;
  void note(Time at, int thread, TimelineEvent::What what, std::uint64_t nodes, int next) {
    if (record_) timeline_.push_back({at, thread, what, nodes, next});
  }

  int attached_ = 0;     // logical threads not Absent
  bool record_ = false;
  std::vector<TimelineEvent> timeline_;
  std::uint64_t switches_ = 0;
  struct Core {
    int thread = -1;  // -1: free
    Time free_at = 0;
  };
  std::vector<Core> cores_;  // empty: a core for every thread
  std::uint64_t preemptions_ = 0;
  std::uint64_t yields_ = 0;
  Time core_wait_ = 0;
  std::uint64_t queued_ = 0;  // the ready queue's last place given
};

// The seams' calls: each does nothing unless the calling thread runs on a
// simulated machine.
inline void charge(Cost c) {
  if (Machine* m = Machine::current()) m->charge(c);
}
inline void signal() {
  if (Machine* m = Machine::current()) m->signal();
}
// True (after waiting in virtual time) on a simulated machine; false at
// once otherwise, when the caller waits its own way. `polls`: the caller's
// looks for work since it last had some (Machine::idle_wait), counted here
// (this look included) up to kIdleYields, past which every look sleeps; the
// caller sets it to 0 when it finds work.
inline bool idle_wait(int& polls, bool wake_on_signal = true) {
  if (polls < kIdleYields) ++polls;
  Machine* m = Machine::current();
  if (!m) return false;
  m->idle_wait(polls, wake_on_signal);
  return true;
}

}  // namespace xq::sim
