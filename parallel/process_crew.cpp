#include "parallel/process_crew.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "search/virtual_time.h"

namespace xq {
namespace {

// How long helpers may take to stop once `done` is set (they stop at their
// next node): only a hung one takes longer.
constexpr double kStopGraceSeconds = 10.0;

// This process's CPU time (a helper process has one thread: its search's).
double cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
                  std::atomic<bool>::is_always_lock_free,
              "words shared between processes must be lock-free (address-free)");

}  // namespace

ProcessCrew::ProcessCrew(std::string backend, int helpers, Job job, Callback on_death,
                         Callback on_respawn)
    : backend_(std::move(backend)),
      helpers_(std::max(0, helpers)),
      job_(std::move(job)),
      on_death_(std::move(on_death)),
      on_respawn_(std::move(on_respawn)),
      control_(1, TableMemory::Shared),
      slots_(std::size_t(helpers_) + 1, TableMemory::Shared) {
  spawn();
}

ProcessCrew::~ProcessCrew() { quit(); }

void ProcessCrew::spawn() {
  if (helpers_ == 0) return;
  const std::uint32_t epoch = control().epoch.load(std::memory_order_relaxed);
  // Forked by whichever thread builds the backend or runs the search that
  // respawns them, which may end first: the helpers watch their parent
  // themselves instead of dying with that thread.
  workers_.emplace(
      backend_ + " helper", helpers_, [this, epoch](int i) { serve(i + 1, epoch); }, false);
}

void ProcessCrew::begin(const Position& pos, SearchShared& shared, std::uint8_t generation) {
  const SearchOptions& o = shared.options;
  if (helpers_ > 0 && sim::current())
    throw std::invalid_argument(
        backend_ + " cannot run on the simulated machine: its helpers are processes, which "
                   "the simulator does not schedule");
  if (o.banned_root_moves.size() > std::size_t(CrewControl::kMaxBanned))
    throw std::invalid_argument(backend_ + ": more than " +
                                std::to_string(CrewControl::kMaxBanned) + " banned root moves");
  if (broken_) {  // a helper died in an earlier search: start afresh
    workers_.reset();
    broken_ = false;
    on_respawn_();
    spawn();
  }
  CrewControl& c = control();
  c.root = pos;
  c.limits = o.limits;
  c.algorithm = o.algorithm;
  c.features = o.features;
  c.tuning = o.tuning;
  c.exact = o.exact;
  c.banned = int(o.banned_root_moves.size());
  std::copy(o.banned_root_moves.begin(), o.banned_root_moves.end(), c.banned_moves.begin());
  c.generation = generation;
  c.start = shared.start;
  c.root_depth.store(0, std::memory_order_relaxed);
  // A stop requested before the search began is not lost: the helpers,
  // which do not see the caller's signal, then stop at their first node.
  c.done.store(o.stop_signal && o.stop_signal->load(std::memory_order_relaxed),
               std::memory_order_relaxed);
  c.parked.store(0, std::memory_order_relaxed);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    slots_[i].live_nodes.store(0, std::memory_order_relaxed);
    slots_[i].cpu_seconds = 0;
  }
  failure_.clear();
  if (helpers_ > 0) {
    running_ = true;
    c.epoch.fetch_add(1, std::memory_order_release);
    shared_wake_all(c.epoch);
    start_watch(shared);
  }
}

// A helper process's life: wait for a search, run the job, park; until quit.
void ProcessCrew::serve(int id, std::uint32_t seen) {
  CrewControl& c = control();
  while (true) {
    while (c.epoch.load(std::memory_order_acquire) == seen) {
      shared_wait(c.epoch, seen, 100000);
      if (!WorkerProcesses::parent_alive()) return;  // orphaned: leave
    }
    seen = c.epoch.load(std::memory_order_acquire);
    if (c.quit.load(std::memory_order_acquire)) return;
    SearchShared shared;
    shared.sim = nullptr;
    shared.start = c.start;
    shared.options.limits = c.limits;
    shared.options.algorithm = c.algorithm;
    shared.options.features = c.features;
    shared.options.tuning = c.tuning;
    shared.options.exact = c.exact;
    shared.options.banned_root_moves.assign(c.banned_moves.begin(),
                                            c.banned_moves.begin() + c.banned);
    const double cpu0 = cpu_seconds();
    job_(id, shared);
    slots_[std::size_t(id)].cpu_seconds = cpu_seconds() - cpu0;
    c.parked.fetch_add(1, std::memory_order_release);
    shared_wake_all(c.parked);
  }
}

bool ProcessCrew::should_stop(const Worker& w, SearchShared& local,
                              std::uint64_t& next_check) const {
  CrewControl& c = control();
  if (w.stats.nodes >= next_check) {
    next_check = w.stats.nodes + 1024;
    slots_[std::size_t(w.id)].live_nodes.store(w.stats.nodes, std::memory_order_relaxed);
    if (w.id > 0) {
      if (!WorkerProcesses::parent_alive()) ::_exit(0);  // orphaned: nobody waits
      local.root_depth.store(c.root_depth.load(std::memory_order_relaxed),
                             std::memory_order_relaxed);
    } else {
      c.root_depth.store(local.root_depth.load(std::memory_order_relaxed),
                         std::memory_order_relaxed);
    }
    if (const std::uint64_t limit = c.limits.nodes) {
      std::uint64_t total = 0;
      for (std::size_t i = 0; i < slots_.size(); ++i)
        total += slots_[i].live_nodes.load(std::memory_order_relaxed);
      if (total >= limit) c.done.store(true, std::memory_order_relaxed);
    }
  }
  if (c.done.load(std::memory_order_relaxed)) {
    local.stop.store(true, std::memory_order_relaxed);
    return true;
  }
  if (local.stopped()) {
    c.done.store(true, std::memory_order_relaxed);  // the others stop now too
    return true;
  }
  return false;
}

double ProcessCrew::helper_cpu_seconds() const {
  double s = 0;
  for (std::size_t i = 1; i < slots_.size(); ++i) s += slots_[i].cpu_seconds;
  return s;
}

void ProcessCrew::finish() {
  stop_watch();
  if (!failure_.empty()) {  // the watch saw a helper die
    running_ = false;
    broken_ = true;
    throw std::runtime_error(failure_);
  }
  if (!running_) return;
  running_ = false;
  CrewControl& c = control();
  c.done.store(true, std::memory_order_relaxed);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(kStopGraceSeconds));
  try {
    for (std::uint32_t n; (n = c.parked.load(std::memory_order_acquire)) < std::uint32_t(helpers_);) {
      workers_->poll();
      if (std::chrono::steady_clock::now() >= deadline) {
        workers_->kill_all();
        throw std::runtime_error(backend_ + ": a helper process did not stop within " +
                                 std::to_string(int(kStopGraceSeconds)) + " s and was killed");
      }
      shared_wait(c.parked, n, 1000);
    }
  } catch (...) {
    broken_ = true;
    throw;
  }
}

void ProcessCrew::end() noexcept {
  try {
    finish();
  } catch (...) {
    // finish() marked the crew broken; the search's own error (if any) stands.
  }
}

// The watch: a thread of the parent that, while a search runs, reaps any
// helper that died and relays the stops only the parent sees (every
// millisecond). It alone calls the workers' poll() meanwhile.
void ProcessCrew::start_watch(SearchShared& shared) {
  watch_stop_ = false;
  watch_ = std::thread([this, &shared] {
    CrewControl& c = control();
    std::unique_lock lock(watch_mutex_);
    while (!watch_cv_.wait_for(lock, std::chrono::milliseconds(1), [this] { return watch_stop_; })) {
      const std::atomic<bool>* signal = shared.options.stop_signal;
      if (signal && signal->load(std::memory_order_relaxed))
        shared.stop.store(true, std::memory_order_relaxed);
      if (shared.stopped()) c.done.store(true, std::memory_order_relaxed);
      try {
        workers_->poll();
      } catch (const std::runtime_error& e) {
        failure_ = e.what();
        shared.stop.store(true, std::memory_order_relaxed);
        c.done.store(true, std::memory_order_relaxed);
        on_death_();
        return;
      }
    }
  });
}

void ProcessCrew::stop_watch() noexcept {
  if (!watch_.joinable()) return;
  {
    std::lock_guard lock(watch_mutex_);
    watch_stop_ = true;
  }
  watch_cv_.notify_all();
  watch_.join();
}

void ProcessCrew::quit() noexcept {
  if (!workers_) return;
  end();
  CrewControl& c = control();
  c.quit.store(true, std::memory_order_release);
  c.epoch.fetch_add(1, std::memory_order_release);
  shared_wake_all(c.epoch);
  try {
    workers_->join(kStopGraceSeconds);
  } catch (...) {
    // join() killed and reaped whoever did not leave: nothing is left behind.
  }
  workers_.reset();
}

}  // namespace xq
