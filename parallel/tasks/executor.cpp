#include "parallel/tasks/executor.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <algorithm>
#include <stdexcept>

#include "parallel/sim/machine.h"

#if defined(__SANITIZE_THREAD__)
#define XQ_TASKS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define XQ_TASKS_TSAN 1
#endif
#endif
#ifdef XQ_TASKS_TSAN
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
extern "C" void AnnotateIgnoreWritesBegin(const char* file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char* file, int line);
#endif

namespace xq::tasks {
namespace {

#ifdef XQ_TASKS_TSAN
void tsan_acquire(void* a) { __tsan_acquire(a); }
void tsan_release(void* a) { __tsan_release(a); }
// The writes of TBB's own task object (inline header code, so instrumented)
// as group.run() builds it, which libtbb's uninstrumented queue then hands
// to another thread: ThreadSanitizer cannot see that hand-over, so it is
// told to forget these writes rather than report them against the thief's
// reads. The project's own data travels on the release/acquire pairs.
struct IgnoreWrites {
  IgnoreWrites() { AnnotateIgnoreWritesBegin(__FILE__, __LINE__); }
  ~IgnoreWrites() { AnnotateIgnoreWritesEnd(__FILE__, __LINE__); }
};
// After a group's wait: acquires on every word of the task_group object, so
// that the tasks' last touches of its wait counter (atomic, in TBB's inline
// code, after the task's own release) happen before the caller's frame is
// reused; libtbb's own acquire in wait() is invisible to ThreadSanitizer.
void acquire_object(void* object, std::size_t size) {
  for (std::size_t i = 0; i < size; i += 8) __tsan_acquire(static_cast<char*>(object) + i);
}
#else
void acquire_object(void*, std::size_t) {}
void tsan_acquire(void*) {}
void tsan_release(void*) {}
struct IgnoreWrites {};
#endif

// TBB's worker threads are one pool per process, capped by default at the
// core count. An executor of more threads raises the cap (the lab runs 4 and
// 8 threads on 2 cores, oversubscribed on purpose); the cap only rises, as
// TBB applies the smallest of the live settings. Workers get deep stacks: a
// thread that waits for a group runs other tasks, searches included, on top
// of its own search's stack.
void allow_parallelism(int threads) {
  static std::mutex lock;
  static std::unique_ptr<tbb::global_control> stack;
  static std::unique_ptr<tbb::global_control> cap;
  static int current = 0;
  std::lock_guard g(lock);
  if (!stack)
    stack = std::make_unique<tbb::global_control>(tbb::global_control::thread_stack_size,
                                                  std::size_t(64) << 20);
  if (current == 0) current = tbb::info::default_concurrency();
  if (threads <= current) return;
  cap.reset();
  cap = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                              std::size_t(threads));
  current = threads;
}

// Decrements `left` when a task ends, however it ends (a release the
// group's wait acquires).
struct Leave {
  std::atomic<int>& left;
  ~Leave() { left.fetch_sub(1, std::memory_order_acq_rel); }
};

}  // namespace

// One task of a real group: the callable tbb::task_group::run() stores.
// libtbb is not instrumented, so ThreadSanitizer cannot see a task travel
// from its spawner to the thread that steals it, nor its memory travel to
// the next task the allocator puts there. Under ThreadSanitizer the stored
// callable is its own synchronisation address: its construction releases
// on it, its run acquires, and its destruction releases again for whoever
// constructs the next task there (which acquires first).
struct Executor::Spawned {
  Spawned(Executor& e, const Body& b, std::atomic<bool>& c, std::atomic<int>& l,
          std::mutex& el, std::exception_ptr& er, int i)
      : exec(&e), body(&b), cut(&c), left(&l), error_lock(&el), error(&er), spawner(e.slot()),
        index(i) {
    tsan_release(this);
  }
  Spawned(const Spawned& o) {
    tsan_acquire(this);
    exec = o.exec;
    body = o.body;
    cut = o.cut;
    left = o.left;
    error_lock = o.error_lock;
    error = o.error;
    spawner = o.spawner;
    index = o.index;
    tsan_release(this);
  }
  Spawned& operator=(const Spawned&) = delete;
  ~Spawned() { tsan_release(this); }

  void operator()() const {
    tsan_acquire(const_cast<Spawned*>(this));
    const Leave leave{*left};
    if (cut->load(std::memory_order_relaxed)) return;
    if (exec->slot() != spawner) exec->stolen_.fetch_add(1, std::memory_order_relaxed);
    try {
      (*body)(index);
    } catch (...) {
      // Kept for the waiter instead of handed to TBB, whose cancellation
      // would finish the group's other tasks without running them (see the
      // file comment in executor.h).
      std::lock_guard g(*error_lock);
      if (!*error) *error = std::current_exception();
      cut->store(true, std::memory_order_relaxed);
    }
  }

  Executor* exec;
  const Body* body;
  std::atomic<bool>* cut;
  std::atomic<int>* left;
  std::mutex* error_lock;
  std::exception_ptr* error;
  int spawner;
  int index;
};

struct Executor::Tbb {
  // One slot reserved for the thread that calls run().
  explicit Tbb(int threads) : arena(threads, 1) {}
  tbb::task_arena arena;
};

struct Executor::SimGroup {
  const Body* body = nullptr;
  std::atomic<bool>* cut = nullptr;
  int pending = 0;  // tasks not finished (under sim_lock_)
  int owner = 0;
  std::exception_ptr error;  // under sim_lock_
};

Executor::Executor(int threads) : threads_(threads) {
  if (threads < 1) throw std::invalid_argument("a task executor needs at least one thread");
  allow_parallelism(threads);
  tbb_ = std::make_unique<Tbb>(threads);
}

Executor::~Executor() = default;

void Executor::run(const std::function<void()>& root) {
  if (sim::Machine::current()) {
    run_simulated(root);
    return;
  }
  tbb_->arena.execute([&] { root(); });
}

int Executor::slot() const {
  if (simulating_) return sim_slot();
  const int s = tbb::this_task_arena::current_thread_index();
  return s < 0 || s >= threads_ ? 0 : s;
}

void Executor::run_group(int n, const Body& body, std::atomic<bool>& cut) {
  if (n <= 0) return;
  if (simulating_) {
    simulated_group(n, body, cut);
    return;
  }
  std::atomic<int> left{n};
  std::mutex error_lock;
  std::exception_ptr error;
  tbb::task_group group;
  for (int i = n - 1; i >= 0; --i) {
    const IgnoreWrites tbb_task_object;
    group.run(Spawned(*this, body, cut, left, error_lock, error, i));
  }
  struct Acquire {
    std::atomic<int>& left;
    tbb::task_group& group;
    ~Acquire() {
      (void)left.load(std::memory_order_acquire);
      acquire_object(&group, sizeof group);
    }
  } acquire{left, group};
  group.wait();
  if (error) std::rethrow_exception(error);
}

// -- The simulated scheduler.

void Executor::run_simulated(const std::function<void()>& root) {
  if (!sim_threads_ && threads_ > 1) sim_threads_ = std::make_unique<ThreadPool>(threads_);
  sim_queues_.assign(std::size_t(threads_), {});
  sim_done_.store(false, std::memory_order_relaxed);
  simulating_ = true;
  sim_base_ = sim::Machine::current()->id();
  if (sim_threads_) sim_threads_->run([this](int id) { serve_simulated(id); });
  struct End {
    Executor& e;
    ~End() {
      e.sim_done_.store(true, std::memory_order_relaxed);
      sim::signal();
      if (e.sim_threads_) {
        try {
          e.sim_threads_->wait_parked();
        } catch (...) {  // helpers catch every task's exception; nothing to lose
        }
      }
      e.simulating_ = false;
    }
  } end{*this};
  root();
}

// An idle worker's looks for work count as the split pools' back-off does
// (sim::kIdleSpins, kIdleYields): oneTBB's workers also spin, then yield,
// then sleep -- until work is posted, not on a timer.
void Executor::serve_simulated(int slot) {
  int polls = 0;
  while (!sim_done_.load(std::memory_order_relaxed)) run_or_wait_simulated(slot, polls);
}

void Executor::run_or_wait_simulated(int slot, int& polls) {
  SimTask t;
  if (take_simulated(slot, t)) {
    run_simulated_task(slot, t);
    polls = 0;
  } else {
    sim::idle_wait(polls);
  }
}

// Helper i of the simulated pool is logical thread sim_base_ + i (ThreadPool),
// on whichever carrier (a fiber shares its OS thread with the others).
int Executor::sim_slot() const { return sim::Machine::current()->id() - sim_base_; }

bool Executor::take_simulated(int slot, SimTask& out) {
  std::lock_guard g(sim_lock_);
  std::deque<SimTask>& own = sim_queues_[std::size_t(slot)];
  if (!own.empty()) {
    out = own.back();
    own.pop_back();
    return true;
  }
  for (int k = 1; k < threads_; ++k) {
    std::deque<SimTask>& q = sim_queues_[std::size_t((slot + k) % threads_)];
    if (q.empty()) continue;
    out = q.front();
    q.pop_front();
    return true;
  }
  return false;
}

void Executor::run_simulated_task(int slot, const SimTask& t) {
  SimGroup& g = *t.group;
  if (!g.cut->load(std::memory_order_relaxed)) {
    if (slot != g.owner) stolen_.fetch_add(1, std::memory_order_relaxed);
    try {
      (*g.body)(t.index);
    } catch (...) {
      std::lock_guard lock(sim_lock_);
      if (!g.error) g.error = std::current_exception();
      g.cut->store(true, std::memory_order_relaxed);
    }
  }
  std::lock_guard lock(sim_lock_);
  if (--g.pending == 0) sim::signal();
}

void Executor::simulated_group(int n, const Body& body, std::atomic<bool>& cut) {
  const int self = sim_slot();
  SimGroup g;
  g.body = &body;
  g.cut = &cut;
  g.pending = n;
  g.owner = self;
  {
    std::lock_guard lock(sim_lock_);
    std::deque<SimTask>& own = sim_queues_[std::size_t(self)];
    for (int i = n - 1; i >= 0; --i) own.push_back({&g, i});
  }
  sim::signal();
  int polls = 0;
  while (true) {
    {
      std::lock_guard lock(sim_lock_);
      if (g.pending == 0) break;
    }
    run_or_wait_simulated(self, polls);
  }
  if (g.error) std::rethrow_exception(g.error);
}

}  // namespace xq::tasks
