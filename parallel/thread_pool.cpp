#include "parallel/thread_pool.h"

#include <stdexcept>
#include <utility>

#include "parallel/sim/machine.h"

namespace xq {

ThreadPool::ThreadPool(int threads) {
  if (threads < 1) throw std::invalid_argument("a thread pool needs at least one thread");
  states_.assign(std::size_t(threads - 1), ThreadState::Parked);
  threads_.reserve(std::size_t(threads - 1));
  for (int id = 1; id < threads; ++id) threads_.emplace_back([this, id] { idle_loop(id); });
  // Returning with every helper parked lets run() start a job at once.
  std::unique_lock lock(mutex_);
  parked_cv_.wait(lock, [&] { return parked_ == size() - 1; });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  wake_cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::run(Job job) {
  // On a simulated machine every helper is a logical thread: registered
  // here, by id (so the order in which the OS wakes them never matters), and
  // attached for the job's length. Helper i is logical thread caller + i, so
  // that pools whose callers are logical threads themselves (the ranks of a
  // distributed backend) share one machine.
  if (sim::Machine* m = sim::Machine::current()) {
    const int base = m->id();
    sim_base_ = base;
    if (m->fibers()) {
      // The helpers run on fibers of the simulating thread; this pool's OS
      // threads stay parked.
      sim_fibers_ = true;
      job_ = std::move(job);
      error_ = nullptr;
      for (int id = 1; id < size(); ++id)
        m->spawn_fiber(base + id, m->cost_of(sim::Cost::Wake), [this, id] {
          try {
            job_(id);
          } catch (...) {
            if (!error_) error_ = std::current_exception();
          }
        });
      return;
    }
    for (int id = 1; id < size(); ++id) m->spawn(base + id, m->cost_of(sim::Cost::Wake));
    job = [m, base, inner = std::move(job)](int id) {
      m->attach(base + id);
      struct Detach {
        sim::Machine* m;
        ~Detach() { m->detach(); }
      } detach{m};
      inner(id);
    };
  }
  {
    std::lock_guard lock(mutex_);
    job_ = std::move(job);
    error_ = nullptr;
    pending_ = size() - 1;
    ++generation_;
  }
  wake_cv_.notify_all();
}

void ThreadPool::wait_parked() {
  if (sim::Machine* m = sim::Machine::current()) m->wait_range(sim_base_ + 1, sim_base_ + size());
  if (std::exchange(sim_fibers_, false)) {  // one logical thread at a time: no lock
    job_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    return;
  }
  std::unique_lock lock(mutex_);
  // A helper that has not woken for the latest job yet is parked but would
  // still run it: wait until every helper has finished this job.
  parked_cv_.wait(lock, [&] { return pending_ == 0 && parked_ == size() - 1; });
  job_ = nullptr;
  if (error_) {
    std::exception_ptr e = std::exchange(error_, nullptr);
    std::rethrow_exception(e);
  }
}

ThreadState ThreadPool::state(int thread_id) const {
  std::lock_guard lock(mutex_);
  return states_.at(std::size_t(thread_id - 1));
}

void ThreadPool::idle_loop(int thread_id) {
  ThreadState& state = states_[std::size_t(thread_id - 1)];
  std::uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  while (true) {
    state = ThreadState::Parked;
    ++parked_;
    parked_cv_.notify_all();
    wake_cv_.wait(lock, [&] { return quit_ || generation_ != seen; });
    --parked_;
    if (quit_) {
      state = ThreadState::Quitting;
      return;
    }
    seen = generation_;
    state = ThreadState::Running;
    const Job* job = &job_;  // constant until wait_parked() has seen pending_ == 0
    lock.unlock();
    std::exception_ptr error;
    try {
      (*job)(thread_id);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && !error_) error_ = error;
    --pending_;
  }
}

}  // namespace xq
