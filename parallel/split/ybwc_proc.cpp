// ybwc on processes, as Deep Elephant and Crafty ran their searches: the
// ybwc backend's split pool and policy (ybwc.h: same splits, same scan, same
// helpful master, same parameters) with its helpers in worker processes (the
// process executor, parallel/process_crew.h) instead of threads.
//
// What the processes share was mapped before they were forked: the table
// (any scheme whose locks work across processes), the crew's control block,
// and the pool's whole state (split::ProcessExec, split/exec.h): every
// thread's Worker and split stack, the split points with their spin locks,
// and the idle and searching words. A split copies into the split point
// what a helper needs of the node: the position and move-ordering tables
// (as with threads), and also the node's context, its move picker and the
// bytes of its child-search closure, which threads read in place on the
// owner's stack. The closure holds one pointer, to the Search object; that
// object is a member of this backend, which every helper inherited at fork,
// so each process's own Search sits at the same address and the pointer
// means the right one everywhere (each process builds it per search, from
// the same options).
//
// A helper that dies mid-search (killed, say) fails that search with one
// line; the crew kills the others, and the pool's break_up() ends every wait
// for a helper and releases every split point's lock, as the table's locks
// are released, before the next search forks fresh helpers and clears the
// table. Time accounting is the thread version's: the same ledger per thread
// (timing.h), read from shared memory once the helpers have parked.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/process_crew.h"
#include "parallel/split/pool_backend.h"
#include "parallel/split/ybwc.h"
#include "search/driver.h"

namespace xq {

extern const BackendInfo kYbwcBackend;

namespace {

using ProcPool = split::Pool<ybwc::Policy, split::ProcessExec>;

// The pool's hooks plus the crew's stop: one type for thread 0 (in the
// parent) and the helpers (each in its process).
class ProcPoolHooks : public split::PoolHooks<ProcPool> {
 public:
  ProcPoolHooks(ProcPool& pool, const ProcessCrew& crew, SearchShared& shared)
      : PoolHooks(pool), crew_(crew), shared_(shared) {}

  bool aborted(const Worker& w) const {
    return PoolHooks::aborted(w) || crew_.should_stop(w, shared_, next_check_);
  }

 private:
  const ProcessCrew& crew_;
  SearchShared& shared_;
  mutable std::uint64_t next_check_ = 0;
};

template <class Table>
class YbwcProcBackend final : public BackendBase<Table> {
 public:
  explicit YbwcProcBackend(const BackendConfig& c)
      : BackendBase<Table>(c, Table::kProcessShared ? TableMemory::Shared : TableMemory::Private),
        pool_(c) {
    if constexpr (!Table::kProcessShared) {
      throw std::invalid_argument("ybwc-proc cannot share hash scheme " +
                                  std::string(Table::kName) + " between processes");
    } else {
      this->require_thread_slots(pool_.size());
      crew_.emplace(
          "ybwc-proc", c.threads - 1, [this](int id, SearchShared& shared) { serve(id, shared); },
          [this] {
            pool_.break_up();
            this->tt_.break_locks();
          },
          [this] { this->tt_.clear(); });
    }
  }

  std::string_view name() const override { return "ybwc-proc"; }
  void clear() override {
    this->tt_.clear();
    pool_.clear();
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    pool_.begin_search(pos, shared);
    hooks_.emplace(pool_, *crew_, shared);
    search_.emplace(this->tt_, *hooks_, shared);
    crew_->begin(pos, shared, this->tt_.generation());
  }
  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    SearchResult r = iterative_deepening(*search_, pool_.thread(0), shared, &observer);
    pool_.stop_helpers();
    crew_->finish();
    return r;
  }
  void end_search() noexcept override {
    pool_.end_search();
    crew_->end();
  }
  SearchStats thread_stats() const override {
    SearchStats s = split::pool_stats(pool_);
    s.helper_cpu_seconds += crew_->helper_cpu_seconds();
    return s;
  }

 private:
  // Helper `id`'s job for one search, in its process: its own Search at the
  // parent's Search's address (see the header comment), then the pool.
  void serve(int id, SearchShared& shared) {
    this->tt_.set_generation(crew_->control().generation);
    hooks_.emplace(pool_, *crew_, shared);
    search_.emplace(this->tt_, *hooks_, shared);
    pool_.serve_helper(id, shared);
    search_.reset();
    hooks_.reset();
  }

  ProcPool pool_;
  std::optional<ProcPoolHooks> hooks_;
  std::optional<Search<Table, ProcPoolHooks>> search_;
  // Last: its helpers are gone before the memory they use.
  std::optional<ProcessCrew> crew_;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme whose locks work
// across processes (not mutex).
extern const BackendInfo kYbwcProcBackend = {
    .name = "ybwc-proc",
    .summary = "young brothers wait with its helpers in processes: split points, threads' state and the "
    "table in shared memory",
    .default_hash = "xor",
    .sharing = Sharing::Splits,
    .supports = runs_on<ProcessSharedTables>,
    .make = make_on<YbwcProcBackend, ProcessSharedTables>,
    // ybwc's, but for the heuristics' sharing: its helpers are processes.
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = without_heuristics_share(kYbwcBackend.params());
      return kParams;
    },
    .serial_at_one_thread = true,
    // Run when named, as lazysmp-proc: threads against processes is its own question.
    .in_default_lab = false,
    .simulable = false,
    .expect = {.reach = {{"splits", 50}, {"joins", 20}, {"aborts", 1}, {"nested_joins", 1}, {"master_joins", 1}},
               .reach_parallelism = 2.0},
    .counter_groups = {"split points"}
};

}  // namespace xq
