// Lazy SMP on processes: the lazysmp backend's search (same skips, window
// shifts, vote and parameters) with its helpers in worker processes instead
// of threads, sharing only memory mapped before they were forked: the table
// (TableMemory::Shared, any scheme whose locks work across processes), a
// control block (the root, the options, the start and stop words) and one
// result slot per helper. It is the first backend on the process executor
// (hashing/processes.h) that Deep Elephant's and Crafty's designs use; the
// split family's turn (ybwc on processes) is the next step.
//
// Life of the workers. They are forked when the backend is built (not per
// search) and live until it is destroyed; between searches they sleep on a
// futex word in shared memory (no polling). A search writes the root and the
// options into the control block and bumps that word; each helper runs
// iterative deepening from the root on its own Worker, publishes its node
// count every 1,024 nodes (the node limit binds the sum over processes, as
// it does over threads) and, when the main thread is done, stops at its next
// node, writes its result and counters into its slot and parks. Thread ids
// are table slots, as with threads.
//
// Faults. A thread of the parent watches the helpers while a search runs. A
// helper that dies (killed, or its search threw) fails the search that runs
// with one line naming it, its pid and its signal; every other helper is
// killed and reaped at once, and every lock of the table is released (the
// dead one may have held a bucket lock in shared memory, on which the main
// thread would spin for ever). The next search clears the table and forks
// fresh helpers, so the backend stays usable.
// A parent that dies leaves no helper behind: they look for it every 100 ms
// while idle and every 1,024 nodes while searching, and leave when it is
// gone (not PR_SET_PDEATHSIG, which follows the forking thread: the thread
// that respawns helpers may end before them). Ctrl-C reaches the parent alone.
//
// What differs from lazysmp on threads, measured by the lab: each search
// wakes the helpers through the kernel; a helper's counters reach the main
// thread's iteration reports only once it has parked (the final result
// counts every node); the stop reaches helpers through the done word only
// (threads also see the global stop flag directly). ThreadSanitizer does not
// see across processes: the contract tests check the protocol instead (exact
// values, counters that add up, start/stop cycles, a killed helper).
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hashing/memory.h"
#include "hashing/processes.h"
#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/shared/lazysmp.h"
#include "parallel/shared/root_threads.h"
#include "search/driver.h"
#include "search/virtual_time.h"

namespace xq {

extern const BackendInfo kLazySmpBackend;

namespace {

// Root moves a search may ban (UCCI banmoves), carried to the helpers in a
// fixed array: more than any Xiangqi position has legal moves.
constexpr int kMaxBanned = 256;
// How long helpers may take to stop once the main thread is done (they stop
// at their next node): only a hung one takes longer.
constexpr double kStopGraceSeconds = 10.0;

// What one helper publishes: its live node count while it searches, its
// result and counters once it has parked.
struct alignas(64) HelperSlot {
  std::atomic<std::uint64_t> live_nodes{0};
  SearchStats stats;
  Move best_move;
  Value score = 0;
  Depth depth = 0;
  bool completed = false;
};

// Written by the parent before it bumps `epoch`; read by the helpers after.
struct Control {
  std::atomic<std::uint32_t> epoch{0};   // futex word: +1 per search, +1 to quit
  std::atomic<std::uint32_t> parked{0};  // futex word: helpers done with this search
  std::atomic<bool> quit{false};
  std::atomic<bool> done{false};  // the main thread is done: helpers stop
  std::uint8_t generation = 0;
  Position root;
  Limits limits;
  Algorithm algorithm = Algorithm::Pvs;
  Features features;
  SearchTuning tuning;
  bool exact = false;
  int banned = 0;
  std::array<Move, kMaxBanned> banned_moves{};
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
                  std::atomic<bool>::is_always_lock_free,
              "words shared between processes must be lock-free (address-free)");

// One hooks type for the main thread (in the parent) and the helpers (in
// their processes); `slot` is null for the main thread.
class ProcHooks : public SerialHooks {
 public:
  static constexpr bool kSkipsDepths = true;
  ProcHooks(Control& control, HelperSlot* slots, int helpers, HelperSlot* slot,
            SearchShared* main_shared, lazysmp::Skip skip, Value offset)
      : control_(control), slots_(slots), helpers_(helpers), slot_(slot),
        main_shared_(main_shared), skip_(skip), offset_(offset) {}

  bool aborted(const Worker& w) const {
    if (w.stats.nodes >= next_check_) {
      next_check_ = w.stats.nodes + 1024;
      if (slot_) {
        slot_->live_nodes.store(w.stats.nodes, std::memory_order_relaxed);
        if (!WorkerProcesses::parent_alive()) ::_exit(0);  // orphaned: nobody waits
      } else if (const std::uint64_t limit = main_shared_->options.limits.nodes) {
        std::uint64_t total = w.stats.nodes;
        for (int i = 0; i < helpers_; ++i) total += slots_[i].live_nodes.load(std::memory_order_relaxed);
        if (total >= limit) main_shared_->stop.store(true, std::memory_order_relaxed);
      }
    }
    if (slot_) return control_.done.load(std::memory_order_relaxed);
    if (main_shared_->stopped() && !control_.done.load(std::memory_order_relaxed))
      control_.done.store(true, std::memory_order_relaxed);  // the helpers stop now too
    return false;
  }
  void add_helper_stats(SearchStats& s) const {
    for (int i = 0; i < helpers_; ++i) s += slots_[i].stats;  // parked helpers' only
  }
  bool skip_depth(const Worker& w, Depth d) const { return lazysmp::skips(skip_, w.id, d); }
  bool bound_by_depth_limit(const Worker& w) const { return w.id == 0; }
  Value window_shift(const Worker& w) const { return lazysmp::window_shift(offset_, w.id); }

 private:
  Control& control_;
  HelperSlot* slots_;
  int helpers_;
  HelperSlot* slot_;
  SearchShared* main_shared_;
  lazysmp::Skip skip_;
  Value offset_;
  mutable std::uint64_t next_check_ = 0;
};

// This process's CPU time (a helper process has one thread: its search's).
double cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct ProcThread : Worker {
  explicit ProcThread(int thread_id) : Worker(thread_id) {}
};

template <class Table>
class LazySmpProcBackend final : public BackendBase<Table> {
 public:
  explicit LazySmpProcBackend(const BackendConfig& c)
      : BackendBase<Table>(c, Table::kProcessShared ? TableMemory::Shared : TableMemory::Private),
        helpers_(c.threads - 1),
        main_(std::make_unique<ProcThread>(0)),
        control_(1, TableMemory::Shared),
        slots_(std::size_t(std::max(1, c.threads - 1)), TableMemory::Shared) {
    if constexpr (!Table::kProcessShared) {
      throw std::invalid_argument("lazysmp-proc cannot share hash scheme " +
                                  std::string(Table::kName) + " between processes");
    } else {
      this->require_thread_slots(c.threads);
      spawn();
    }
  }
  ~LazySmpProcBackend() override { quit(); }

  std::string_view name() const override { return "lazysmp-proc"; }
  void clear() override {
    this->tt_.clear();
    main_->clear_heuristics();  // the helpers' are cleared at every search
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    const SearchOptions& o = shared.options;
    if (helpers_ > 0 && sim::current())
      throw std::invalid_argument(
          "lazysmp-proc cannot run on the simulated machine: its helpers are processes, which "
          "the simulator does not schedule");
    if (o.banned_root_moves.size() > std::size_t(kMaxBanned))
      throw std::invalid_argument("lazysmp-proc: more than " + std::to_string(kMaxBanned) +
                                  " banned root moves");
    if (broken_) {  // a helper died in an earlier search: start afresh
      workers_.reset();
      this->tt_.clear();
      broken_ = false;
      spawn();
    }
    reset_worker(*main_, pos);
    Control& c = control_[0];
    c.root = pos;
    c.limits = o.limits;
    c.algorithm = o.algorithm;
    c.features = o.features;
    c.tuning = o.tuning;
    c.exact = o.exact;
    c.banned = int(o.banned_root_moves.size());
    std::copy(o.banned_root_moves.begin(), o.banned_root_moves.end(), c.banned_moves.begin());
    c.generation = this->tt_.generation();
    // A stop requested before the search began is not lost: the helpers,
    // which do not see the caller's signal, then stop at their first node.
    c.done.store(o.stop_signal && o.stop_signal->load(std::memory_order_relaxed),
                 std::memory_order_relaxed);
    c.parked.store(0, std::memory_order_relaxed);
    for (int i = 0; i < helpers_; ++i) {
      HelperSlot& s = slots_[std::size_t(i)];
      s.live_nodes.store(0, std::memory_order_relaxed);
      s.stats = SearchStats{};
      s.best_move = Move();
      s.score = 0;
      s.depth = 0;
      s.completed = false;
    }
    failure_.clear();
    hooks_.emplace(c, slots_.get(), helpers_, nullptr, &shared, skip(), offset());
    search_.emplace(this->tt_, *hooks_, shared);
    if (helpers_ > 0) {
      running_ = true;
      c.epoch.fetch_add(1, std::memory_order_release);
      shared_wake_all(c.epoch);
      start_watch(shared);
    }
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    const SearchOptions& o = shared.options;
    Helpers helpers{*this};
    LastIterationGate<Helpers> gate(observer, helpers, o.limits.depth);
    SearchResult r = iterative_deepening(*search_, *main_, shared, &gate);
    finish();
    if (this->config_.param("best_thread") == 0 || o.limits.depth > 0 || o.exact || !r.completed)
      return r;
    std::vector<lazysmp::Ballot> ballots = {{r.best_move, r.score, r.depth}};
    for (int i = 0; i < helpers_; ++i) {
      const HelperSlot& s = slots_[std::size_t(i)];
      ballots.push_back({s.best_move, s.score, s.completed ? s.depth : 0});
    }
    const std::size_t winner = lazysmp::vote(ballots);
    if (winner == 0) return r;
    const HelperSlot& s = slots_[winner - 1];
    SearchResult chosen = r;
    chosen.best_move = s.best_move;
    chosen.score = s.score;
    chosen.depth = s.depth;
    chosen.pv = {s.best_move};
    return chosen;
  }

  void end_search() noexcept override {
    try {
      finish();
    } catch (...) {
      // finish() marked the backend broken; the search's own error (if any) stands.
    }
  }

  SearchStats thread_stats() const override {
    SearchStats s = main_->stats;
    for (int i = 0; i < helpers_; ++i) s += slots_[std::size_t(i)].stats;
    return s;
  }

 private:
  // What LastIterationGate needs of the helpers: end them, sum the counters.
  struct Helpers {
    LazySmpProcBackend& b;
    void finish() { b.finish(); }
    SearchStats sum() const { return b.thread_stats(); }
  };

  lazysmp::Skip skip() const { return lazysmp::Skip(this->config_.param("skip_schedule")); }
  Value offset() const { return Value(this->config_.param("window_offset")); }

  void spawn() {
    if (helpers_ == 0) return;
    const std::uint32_t epoch = control_[0].epoch.load(std::memory_order_relaxed);
    // Forked by whichever thread builds the backend or runs the search that
    // respawns them, which may end first: the helpers watch their parent
    // themselves instead of dying with that thread.
    workers_.emplace(
        "lazysmp-proc helper", helpers_, [this, epoch](int i) { serve(i + 1, epoch); }, false);
  }

  // A helper process's life: wait for a search, run it, park; until quit.
  void serve(int id, std::uint32_t seen) {
    Control& c = control_[0];
    HelperSlot& slot = slots_[std::size_t(id - 1)];
    auto t = std::make_unique<ProcThread>(id);
    while (true) {
      while (c.epoch.load(std::memory_order_acquire) == seen) {
        shared_wait(c.epoch, seen, 100000);
        if (!WorkerProcesses::parent_alive()) return;  // orphaned: leave
      }
      seen = c.epoch.load(std::memory_order_acquire);
      if (c.quit.load(std::memory_order_acquire)) return;
      SearchShared shared;
      shared.sim = nullptr;
      shared.options.limits = c.limits;
      shared.options.algorithm = c.algorithm;
      shared.options.features = c.features;
      shared.options.tuning = c.tuning;
      shared.options.exact = c.exact;
      shared.options.banned_root_moves.assign(c.banned_moves.begin(),
                                              c.banned_moves.begin() + c.banned);
      this->tt_.set_generation(c.generation);
      reset_worker(*t, c.root);
      ProcHooks hooks(c, slots_.get(), helpers_, &slot, nullptr, skip(), offset());
      Search<Table, ProcHooks> search(this->tt_, hooks, shared);
      const double cpu0 = cpu_seconds();
      const SearchResult r = iterative_deepening(search, *t, shared, nullptr);
      slot.stats = t->stats;
      slot.stats.helper_cpu_seconds = cpu_seconds() - cpu0;
      slot.best_move = r.best_move;
      slot.score = r.score;
      slot.depth = r.depth;
      slot.completed = r.completed;
      c.parked.fetch_add(1, std::memory_order_release);
      shared_wake_all(c.parked);
    }
  }

  // Ends the helpers' search and waits until every one has parked. Throws
  // std::runtime_error (one line) when one died or hung; the others are
  // killed then, and the next search starts fresh helpers.
  void finish() {
    stop_watch();
    if (!failure_.empty()) {  // the watch saw a helper die
      running_ = false;
      broken_ = true;
      throw std::runtime_error(failure_);
    }
    if (!running_) return;
    running_ = false;
    Control& c = control_[0];
    c.done.store(true, std::memory_order_relaxed);
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(kStopGraceSeconds));
    try {
      for (std::uint32_t n; (n = c.parked.load(std::memory_order_acquire)) < std::uint32_t(helpers_);) {
        workers_->poll();
        if (std::chrono::steady_clock::now() >= deadline) {
          workers_->kill_all();
          throw std::runtime_error("lazysmp-proc: a helper process did not stop within " +
                                   std::to_string(int(kStopGraceSeconds)) + " s and was killed");
        }
        shared_wait(c.parked, n, 1000);
      }
    } catch (...) {
      broken_ = true;
      throw;
    }
  }

  // The watch: a thread of the parent that, while a search runs, reaps any
  // helper that died (every millisecond). It alone calls the workers'
  // poll() meanwhile. On a death (poll() has then killed and reaped every
  // other helper) it records the line, stops the search, and releases every
  // lock of the table: the dead helper may have held one, and the main
  // thread may be spinning on it, unable to see the stop. The entries are
  // cleared before the next search.
  void start_watch(SearchShared& shared) {
    watch_stop_ = false;
    watch_ = std::thread([this, &shared] {
      std::unique_lock lock(watch_mutex_);
      while (!watch_cv_.wait_for(lock, std::chrono::milliseconds(1), [this] { return watch_stop_; })) {
        try {
          workers_->poll();
        } catch (const std::runtime_error& e) {
          failure_ = e.what();
          shared.stop.store(true, std::memory_order_relaxed);
          control_[0].done.store(true, std::memory_order_relaxed);
          this->tt_.break_locks();
          return;
        }
      }
    });
  }
  void stop_watch() noexcept {
    if (!watch_.joinable()) return;
    {
      std::lock_guard lock(watch_mutex_);
      watch_stop_ = true;
    }
    watch_cv_.notify_all();
    watch_.join();
  }

  void quit() noexcept {
    if (!workers_) return;
    end_search();
    Control& c = control_[0];
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

  const int helpers_;
  std::unique_ptr<ProcThread> main_;
  TableBlock<Control> control_;
  TableBlock<HelperSlot> slots_;
  std::optional<ProcHooks> hooks_;
  std::optional<Search<Table, ProcHooks>> search_;
  bool running_ = false;  // helpers are in a search (the caller's thread only)
  bool broken_ = false;   // a helper died or hung: respawn at the next search
  std::string failure_;   // what the watch saw, this search (read after it ended)
  std::thread watch_;
  std::mutex watch_mutex_;
  std::condition_variable watch_cv_;
  bool watch_stop_ = false;  // guarded by watch_mutex_
  std::optional<WorkerProcesses> workers_;
};

bool process_shared_scheme(std::string_view scheme) {
  return is_known_scheme(scheme) && visit_scheme(scheme, [](auto tag) {
           return decltype(tag)::type::kProcessShared;
         });
}

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme whose locks work
// across processes (not mutex).
extern const BackendInfo kLazySmpProcBackend = {
    "lazysmp-proc",
    "Lazy SMP with its helpers in processes sharing the table in shared memory",
    "xor", Sharing::Table, process_shared_scheme,
    [](const BackendConfig& config) { return make_for_scheme<LazySmpProcBackend>(config); },
    []() -> const std::vector<ParamSpec>& { return kLazySmpBackend.params(); },
    /*serial_at_one_thread=*/true,
    // Run when named: the threads-against-processes comparison is its own
    // question, and the default lab takes some nine minutes already.
    /*in_default_lab=*/false,
    /*simulable=*/false};

}  // namespace xq
