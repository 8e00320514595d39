// Lazy SMP on processes: the lazysmp backend's search (same skips, window
// shifts, vote and parameters) with its helpers in worker processes instead
// of threads (the process executor, parallel/process_crew.h), sharing only
// memory mapped before they were forked: the table (TableMemory::Shared, any
// scheme whose locks work across processes), the crew's control block and
// one result slot per helper. Each helper runs iterative deepening from the
// root on its own Worker and, when the crew says the search is done, stops
// at its next node, writes its result and counters into its slot and parks.
// Thread ids are table slots, as with threads. When a helper dies, the crew
// releases every lock of the table (the dead one may have held a bucket lock
// in shared memory), and the next search clears the table.
//
// What differs from lazysmp on threads, measured by the lab: each search
// wakes the helpers through the kernel; a helper's counters reach the main
// thread's iteration reports only once it has parked (the final result
// counts every node); the stop reaches helpers through the crew's done word
// only (threads also see the global stop flag directly).
#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hashing/memory.h"
#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/process_crew.h"
#include "parallel/shared/lazysmp.h"
#include "parallel/shared/root_threads.h"
#include "search/driver.h"

namespace xq {

extern const BackendInfo kLazySmpBackend;

namespace {

// What one helper publishes once it has parked: its result and counters.
struct alignas(64) HelperSlot {
  SearchStats stats;
  Move best_move;
  Value score = 0;
  Depth depth = 0;
  bool completed = false;
};

// One hooks type for the main thread (in the parent) and the helpers (in
// their processes); `slot` is null for the main thread.
class ProcHooks : public SerialHooks {
 public:
  static constexpr bool kSkipsDepths = true;
  ProcHooks(const ProcessCrew& crew, HelperSlot* slots, int helpers, SearchShared& shared,
            lazysmp::Skip skip, Value offset)
      : crew_(crew), slots_(slots), helpers_(helpers), shared_(shared), skip_(skip),
        offset_(offset) {}

  bool aborted(const Worker& w) const { return crew_.should_stop(w, shared_, next_check_); }
  void add_helper_stats(SearchStats& s) const {
    for (int i = 0; i < helpers_; ++i) s += slots_[i].stats;  // parked helpers' only
  }
  bool skip_depth(const Worker& w, Depth d) const { return lazysmp::skips(skip_, w.id, d); }
  bool bound_by_depth_limit(const Worker& w) const { return w.id == 0; }
  Value window_shift(const Worker& w) const { return lazysmp::window_shift(offset_, w.id); }

 private:
  const ProcessCrew& crew_;
  HelperSlot* slots_;
  int helpers_;
  SearchShared& shared_;
  lazysmp::Skip skip_;
  Value offset_;
  mutable std::uint64_t next_check_ = 0;
};

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
        slots_(std::size_t(std::max(1, c.threads - 1)), TableMemory::Shared) {
    if constexpr (!Table::kProcessShared) {
      throw std::invalid_argument("lazysmp-proc cannot share hash scheme " +
                                  std::string(Table::kName) + " between processes");
    } else {
      this->require_thread_slots(c.threads);
      crew_.emplace(
          "lazysmp-proc", helpers_, [this](int id, SearchShared& shared) { serve(id, shared); },
          [this] { this->tt_.break_locks(); }, [this] { this->tt_.clear(); });
    }
  }

  std::string_view name() const override { return "lazysmp-proc"; }
  void clear() override {
    this->tt_.clear();
    main_->clear_heuristics();  // the helpers' are cleared at every search
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    reset_worker(*main_, pos);
    for (int i = 0; i < helpers_; ++i) slots_[std::size_t(i)] = HelperSlot{};
    hooks_.emplace(*crew_, slots_.get(), helpers_, shared, skip(), offset());
    search_.emplace(this->tt_, *hooks_, shared);
    crew_->begin(pos, shared, this->tt_.generation());
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    const SearchOptions& o = shared.options;
    Helpers helpers{*this};
    LastIterationGate<Helpers> gate(observer, helpers, o.limits.depth);
    SearchResult r = iterative_deepening(*search_, *main_, shared, &gate);
    crew_->finish();
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

  void end_search() noexcept override { crew_->end(); }

  SearchStats thread_stats() const override {
    SearchStats s = main_->stats;
    for (int i = 0; i < helpers_; ++i) s += slots_[std::size_t(i)].stats;
    s.helper_cpu_seconds += crew_->helper_cpu_seconds();
    return s;
  }

 private:
  // What LastIterationGate needs of the helpers: end them, sum the counters.
  struct Helpers {
    LazySmpProcBackend& b;
    void finish() { b.crew_->finish(); }
    SearchStats sum() const { return b.thread_stats(); }
  };

  lazysmp::Skip skip() const { return lazysmp::Skip(this->config_.param("skip_schedule")); }
  Value offset() const { return Value(this->config_.param("window_offset")); }

  // Helper `id`'s search, in its process.
  void serve(int id, SearchShared& shared) {
    const CrewControl& c = crew_->control();
    HelperSlot& slot = slots_[std::size_t(id - 1)];
    // Made once per helper process (this backend's memory is the helper's
    // own copy after the fork), as before the crew, not once per search.
    if (!helper_) helper_ = std::make_unique<ProcThread>(id);
    ProcThread* t = helper_.get();
    this->tt_.set_generation(c.generation);
    reset_worker(*t, c.root);
    ProcHooks hooks(*crew_, slots_.get(), helpers_, shared, skip(), offset());
    Search<Table, ProcHooks> search(this->tt_, hooks, shared);
    const SearchResult r = iterative_deepening(search, *t, shared, nullptr);
    slot.stats = t->stats;
    slot.best_move = r.best_move;
    slot.score = r.score;
    slot.depth = r.depth;
    slot.completed = r.completed;
  }

  const int helpers_;
  std::unique_ptr<ProcThread> main_;
  std::unique_ptr<ProcThread> helper_;  // in a helper process: its own thread
  TableBlock<HelperSlot> slots_;
  std::optional<ProcHooks> hooks_;
  std::optional<Search<Table, ProcHooks>> search_;
  // Last: its helpers are gone before the memory they use.
  std::optional<ProcessCrew> crew_;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme whose locks work
// across processes (not mutex).
extern const BackendInfo kLazySmpProcBackend = {
    .name = "lazysmp-proc",
    .summary = "Lazy SMP with its helpers in processes sharing the table in shared memory",
    .default_hash = "xor",
    .sharing = Sharing::Table,
    .supports = runs_on<ProcessSharedTables>,
    .make = make_on<LazySmpProcBackend, ProcessSharedTables>,
    // lazysmp's, but for the heuristics' sharing: its helpers are processes.
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams =
          without_heuristics_share(kLazySmpBackend.params());
      return kParams;
    },
    .serial_at_one_thread = true,
    // Run when named: the threads-against-processes comparison is its own
    // question, and the default lab takes some nine minutes already.
    .in_default_lab = false,
    .simulable = false
};

}  // namespace xq
