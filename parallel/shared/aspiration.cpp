// Parallel aspiration search (Baudet 1978): each iteration, the p threads
// search the same root at the same depth, each with one of p disjoint windows
// that together cover every value -- (-inf, b1), [b1, b2), ..., [b(p-1), +inf)
// with the inner boundaries `window_width` apart around the previous iteration's
// value. The one thread whose window holds the root value returns it exactly
// and stops the others; their fail-highs and fail-lows are thrown away, and a
// thread whose window failed before the winner finished idles until the
// iteration ends (Baudet's design: the time of an iteration is that of the
// narrowest window holding the value, so the speedup is bounded by what a
// narrow window saves, whatever p is). Should no window hold the value (a
// shared table's results can make the bounds inconsistent outside exact
// mode), the main thread searches the iteration again with the full window
// (counted in `researches`).
//
// The main thread (0) takes the window that starts at the previous value and
// reports the iterations. Counters: nodes of the losing windows go to
// `wasted_nodes`; the critical path is the sum over iterations of the most
// nodes one thread searched in it (the iteration lasts as long as its slowest
// thread); each thread's time is booked as search or idle (split_timing's
// ledger rule), so the idle share shows the threads whose window failed.
#include <algorithm>
#include <atomic>
#include <optional>
#include <vector>

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/shared/root_threads.h"
#include "parallel/split/timing.h"
#include "search/driver.h"

namespace xq {
namespace {

using split_timing::Part;

struct WindowThread : LedgerThread {
  explicit WindowThread(int thread_id) : LedgerThread(thread_id) {}
  // This iteration's window and outcome: written by the thread, read by the
  // main thread once the helper has parked.
  Value alpha = -kInfinite, beta = kInfinite;
  Value value = 0;
  bool exact = false;
  std::uint64_t nodes_before = 0;
};

// The window of window index k of p around `prev` (k = 0 the lowest): the
// inner boundaries are prev + (2i - p) x width / 2 for i = 1..p-1.
std::pair<Value, Value> window_of(int k, int p, Value prev, Value width) {
  const auto bound = [&](int i) {
    const long b = long(prev) + long(2 * i - p) * long(width) / 2;
    return Value(std::clamp(b, long(-kInfinite + 2), long(kInfinite - 1)));
  };
  const Value alpha = k == 0 ? -kInfinite : Value(bound(k) - 1);
  const Value beta = k == p - 1 ? kInfinite : bound(k + 1);
  return {alpha, beta};
}

class WindowHooks : public SerialHooks {
 public:
  static constexpr bool kRunsIterations = true;
  WindowHooks(RootThreads<WindowThread>& threads, Value width)
      : threads_(threads), width_(width) {}

  // Every thread stops once a window held the value; helpers also at the
  // search's end.
  bool aborted(const Worker& w) const {
    return settled_.load(std::memory_order_relaxed) || threads_.helper_stopped(w);
  }
  void add_helper_stats(SearchStats& s) const { threads_.add_helpers(s); }

  template <class S>
  Value run_iteration(S& search, Worker& main, Depth depth, Value prev, const Worker*& line) {
    const int p = threads_.size();
    depth_ = depth;
    for (int i = 0; i < p; ++i) {
      WindowThread& t = threads_.thread(i);
      // Thread 0 takes the window starting at prev (index p / 2).
      std::tie(t.alpha, t.beta) = window_of((p / 2 + i) % p, p, prev, width_);
      t.exact = false;
      t.nodes_before = t.stats.nodes;
    }
    if (p > 1)
      threads_.start([&search, this](WindowThread& t) {
        t.ledger.to(Part::Search, t.stats);
        search_window(search, t);
        t.ledger.to(Part::Idle, t.stats);
      });
    WindowThread& self = threads_.thread(0);
    search_window(search, self);
    {
      const split_timing::InPart wait(self.ledger, self.stats, Part::Idle);
      threads_.join();
    }
    settled_.store(false, std::memory_order_relaxed);
    std::uint64_t longest = 0;
    const WindowThread* winner = nullptr;
    for (int i = 0; i < p; ++i) {
      const WindowThread& t = threads_.thread(i);
      const std::uint64_t nodes = t.stats.nodes - t.nodes_before;
      longest = std::max(longest, nodes);
      if (t.exact && !winner) winner = &t;
      else main.stats.wasted_nodes += nodes;
    }
    main.stats.critical_path += longest;
    line = &main;
    if (search.stopped(main)) return 0;
    if (winner) {
      line = winner;
      return winner->value;
    }
    ++main.stats.researches;
    const std::uint64_t before = main.stats.nodes;
    const Value v = search.root(main, -kInfinite, kInfinite, depth);
    main.stats.critical_path += main.stats.nodes - before;
    return v;
  }

 private:
  // Searches t's window; a value inside it settles the iteration.
  template <class S>
  void search_window(S& search, WindowThread& t) {
    t.value = search.root(t, t.alpha, t.beta, depth_);
    if (search.stopped(t)) return;
    t.exact = t.value > t.alpha && t.value < t.beta;
    if (t.exact) settled_.store(true, std::memory_order_relaxed);
  }

  RootThreads<WindowThread>& threads_;
  const Value width_;
  // The iteration's state.
  Depth depth_ = 0;  // set before the helpers start
  std::atomic<bool> settled_{false};
};

template <class Table>
class AspirationBackend final : public RootBackend<Table, WindowThread> {
 public:
  using RootBackend<Table, WindowThread>::RootBackend;
  std::string_view name() const override { return "aspiration"; }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    threads_.reset(pos);
    open_ledgers(threads_);
    hooks_.emplace(threads_, Value(this->config_.param("window_width")));
    search_.emplace(this->tt_, *hooks_, shared);
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    return iterative_deepening(*search_, threads_.thread(0), shared, &observer);
  }

  void end_search() noexcept override {
    threads_.finish();
    close_ledgers(threads_);
  }

 private:
  using RootBackend<Table, WindowThread>::threads_;
  std::optional<WindowHooks> hooks_;
  std::optional<Search<Table, WindowHooks>> search_;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme.
extern const BackendInfo kAspirationBackend = {
    .name = "aspiration",
    .summary = "parallel aspiration (Baudet 1978): each thread searches the iteration with one of p "
    "disjoint windows; the one holding the value wins",
    .default_hash = "xor",
    .sharing = Sharing::Root,
    .supports = runs_on<EveryTable>,
    .make = make_on<AspirationBackend, EveryTable>,
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = with_heuristics_share({
          {"window_width", "width of each inner window (the outer two are open-ended)", 1,
           10000, {}, 50}});
      return kParams;
    },
    // At one thread its one window is the full one at every depth: serial
    // without aspiration windows.
    .serial_at_one_thread = false,
    .in_default_lab = false,
    .expect = {.reach = {{"wasted_nodes", 1000}}, .reach_parallelism = 1.2}
};

}  // namespace xq
