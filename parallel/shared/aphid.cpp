// APHID, asynchronous parallel hierarchical iterative deepening (Brockington
// & Schaeffer 1996), on threads: no thread ever waits for another inside the
// tree. The master (thread 0) passes over the top plies again and again on
// the searchers' leaf results (parallel/shared/aphid_master.h has the
// master, the searchers' loop and the counters; aphid.h the table's rules).
// The leaves are dealt round-robin to the searchers when they first appear
// and stay theirs; a leaf whose bound no longer decides the master's new
// window is searched again (Brockington's "bad bound", counted in
// `researches`). The master searches leaves too while it waits for results
// (`aphid_master`; no: Brockington's dedicated master). A searcher that
// speculates gives way as soon as a pass wants one of its leaves (a
// preemption Brockington's slaves did not need: each had a processor of its
// own).
//
// Designed for a network without a shared table, it runs here by default on
// per-thread tables (`perthread`: each searcher its own, as on separate
// machines); a shared scheme is the shared-table variant. The same
// algorithm across ranks: mpi-aphid (parallel/distributed/mpi_aphid.cpp).
#include "parallel/shared/aphid_master.h"
#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/shared/root_threads.h"

namespace xq {
namespace {

template <class Table>
class AphidBackend;

// The driver hands each iteration to the master (run_iteration); helpers
// end with the master's search.
template <class Table>
class AphidHooks : public SerialHooks {
 public:
  static constexpr bool kRunsIterations = true;
  AphidHooks(RootThreads<LedgerThread>& threads, aphid::Master<Table>& master)
      : threads_(threads), master_(master) {}

  bool aborted(const Worker& w) const {
    return threads_.helper_stopped(w) || master_.yielded(w.id);
  }
  void add_helper_stats(SearchStats& s) const { threads_.add_helpers(s); }

  template <class S>
  Value run_iteration(S& search, Worker& w, Depth depth, Value prev, const Worker*& line) {
    line = &w;
    return master_.iteration(search, w, static_cast<LedgerThread&>(w).ledger, depth, prev);
  }

 private:
  RootThreads<LedgerThread>& threads_;
  aphid::Master<Table>& master_;
};

template <class Table>
class AphidBackend final : public RootBackend<Table, LedgerThread> {
  using Base = RootBackend<Table, LedgerThread>;
  using Hooks = AphidHooks<Table>;
  using SearchT = Search<Table, Hooks>;

 public:
  explicit AphidBackend(const BackendConfig& c)
      : Base(c),
        config_(c),
        master_searches_(c.param("aphid_master") != 0 || c.threads == 1),
        master_(c, c.threads) {}
  std::string_view name() const override { return "aphid"; }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    threads_.reset(pos);
    open_ledgers(threads_);
    std::vector<int> searchers;
    for (int i = master_searches_ ? 0 : 1; i < threads_.size(); ++i) searchers.push_back(i);
    hooks_.emplace(threads_, master_);
    search_.emplace(this->tt_, *hooks_, shared);
    master_.begin(aphid::settings_of(config_, std::move(searchers), shared.options.exact),
                  master_searches_, pos, this->tt_, search_->features(), search_->pvs(),
                  shared, nullptr);
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    if (threads_.size() > 1)
      threads_.start([this](LedgerThread& t) {
        master_.serve(*search_, t, t.ledger, [&] { return threads_.helper_stopped(t); });
      });
    LastIterationGate<RootThreads<LedgerThread>> gate(observer, threads_, shared.options.limits.depth);
    WakeFirst wake(gate, shared.options.limits.depth);
    SearchResult r = iterative_deepening(*search_, threads_.thread(0), shared, &wake);
    threads_.finish();
    r.stats = threads_.sum();
    return r;
  }

  void end_search() noexcept override {
    threads_.finish();
    close_ledgers(threads_);
  }

 private:
  // Before the last iteration's report ends the searchers, wakes those
  // asleep on a simulated machine, so that they leave at once.
  class WakeFirst final : public Observer {
   public:
    WakeFirst(Observer& inner, Depth limit) : inner_(inner), limit_(limit) {}
    void on_iteration(const SearchResult& r) override {
      if (limit_ > 0 && r.depth >= limit_) sim::signal();
      inner_.on_iteration(r);
    }

   private:
    Observer& inner_;
    Depth limit_;
  };

  using Base::threads_;
  const BackendConfig config_;
  const bool master_searches_;
  aphid::Master<Table> master_;
  std::optional<Hooks> hooks_;
  std::optional<SearchT> search_;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme; perthread,
// the distributed setting APHID was designed for, by default.
extern const BackendInfo kAphidBackend = {
    .name = "aphid",
    .summary = "APHID (Brockington & Schaeffer 1996): a master passes over the top plies again and again "
    "on the searchers' leaf results, which nobody waits for",
    .default_hash = "perthread",
    .sharing = Sharing::Leaves,
    .supports = runs_on<EveryTable>,
    .make = make_on<AphidBackend, EveryTable>,
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = with_heuristics_share(aphid::master_params());
      return kParams;
    },
    .serial_at_one_thread = false,
    .in_default_lab = false,
    .expect = {.reach = {{"leaf_searches", 50}, {"master_passes", 50}}},
    .counter_groups = {"aphid"}
};

}  // namespace xq
