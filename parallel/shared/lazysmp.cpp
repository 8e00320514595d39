// Lazy SMP: every thread runs the iterative-deepening driver from the root on
// the shared table; threads differ only by the depths they skip and by where
// their aspiration windows sit (lazysmp.h), and help each other only through
// the table. The main thread (0) is bound by the depth limit and reports the
// iterations; the node limit binds the node count summed over threads (the
// node function's shared count). When the main thread is done the helpers
// stop at their next node. The result is the main thread's, or with
// best_thread=vote (searches without a depth limit, outside exact mode) the
// thread a vote picks.
#include "parallel/shared/lazysmp.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/shared/root_threads.h"
#include "search/driver.h"

namespace xq {
namespace lazysmp {
namespace {

// Stockfish 7 (search.cpp, HalfDensity): rows of 2, 4, 6 and 8 entries, each
// half ones, shifted one place per row.
const std::vector<std::vector<int>>& half_density() {
  static const std::vector<std::vector<int>> kRows = {
      {0, 1},
      {1, 0},
      {0, 0, 1, 1},
      {0, 1, 1, 0},
      {1, 1, 0, 0},
      {1, 0, 0, 1},
      {0, 0, 0, 1, 1, 1},
      {0, 0, 1, 1, 1, 0},
      {0, 1, 1, 1, 0, 0},
      {1, 1, 1, 0, 0, 0},
      {1, 1, 0, 0, 0, 1},
      {1, 0, 0, 0, 1, 1},
      {0, 0, 0, 0, 1, 1, 1, 1},
      {0, 0, 0, 1, 1, 1, 1, 0},
      {0, 0, 1, 1, 1, 1, 0, 0},
      {0, 1, 1, 1, 1, 0, 0, 0},
      {1, 1, 1, 1, 0, 0, 0, 0},
      {1, 1, 1, 0, 0, 0, 0, 1},
      {1, 1, 0, 0, 0, 0, 1, 1},
      {1, 0, 0, 0, 0, 1, 1, 1}};
  return kRows;
}

// Stockfish 9 (search.cpp, SkipSize and SkipPhase).
constexpr std::array<int, 20> kSkipSize = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                           3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
constexpr std::array<int, 20> kSkipPhase = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3,
                                            4, 5, 0, 1, 2, 3, 4, 5, 6, 7};

}  // namespace

bool skips(Skip schedule, int thread, Depth depth) {
  if (thread <= 0 || schedule == Skip::None) return false;
  if (schedule == Skip::Sf7) {
    const std::vector<int>& row = half_density()[std::size_t(thread - 1) % half_density().size()];
    return row[std::size_t(depth) % row.size()] != 0;
  }
  const std::size_t k = std::size_t(thread - 1) % kSkipSize.size();
  return ((depth + kSkipPhase[k]) / kSkipSize[k]) % 2 != 0;
}

Value window_shift(Value offset, int thread) {
  if (thread <= 0) return 0;
  const Value step = offset * ((thread + 1) / 2);
  return thread % 2 == 1 ? step : -step;
}

std::size_t vote(const std::vector<Ballot>& ballots) {
  std::optional<Value> lowest;
  for (const Ballot& b : ballots)
    if (b.depth > 0) lowest = std::min(lowest.value_or(b.score), b.score);
  if (!lowest) return 0;
  std::map<std::uint16_t, long long> votes;
  for (const Ballot& b : ballots)
    if (b.depth > 0)
      votes[b.move.raw()] += static_cast<long long>(b.score - *lowest + 14) * b.depth;
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < ballots.size(); ++i) {
    const Ballot& b = ballots[i];
    if (b.depth == 0) continue;
    if (!best) {
      best = i;
      continue;
    }
    const Ballot& lead = ballots[*best];
    if (lead.score >= kMateInMaxPly || lead.score <= -kMateInMaxPly) {
      if (b.score > lead.score) best = i;
    } else if (b.score >= kMateInMaxPly ||
               (b.score > -kMateInMaxPly && votes[b.move.raw()] > votes[lead.move.raw()])) {
      best = i;
    }
  }
  return *best;
}

}  // namespace lazysmp

namespace {

struct LazyThread : Worker {
  explicit LazyThread(int thread_id) : Worker(thread_id) {}
  SearchResult result;  // a helper's, written by it, read after it has parked
};

class LazyHooks : public SerialHooks {
 public:
  static constexpr bool kSkipsDepths = true;
  LazyHooks(const RootThreads<LazyThread>& threads, lazysmp::Skip skip, Value offset)
      : threads_(threads), skip_(skip), offset_(offset) {}

  bool aborted(const Worker& w) const { return threads_.helper_stopped(w); }
  void add_helper_stats(SearchStats& s) const { threads_.add_helpers(s); }
  bool skip_depth(const Worker& w, Depth d) const { return lazysmp::skips(skip_, w.id, d); }
  bool bound_by_depth_limit(const Worker& w) const { return w.id == 0; }
  Value window_shift(const Worker& w) const { return lazysmp::window_shift(offset_, w.id); }

 private:
  const RootThreads<LazyThread>& threads_;
  const lazysmp::Skip skip_;
  const Value offset_;
};

template <class Table>
class LazySmpBackend final : public RootBackend<Table, LazyThread> {
 public:
  using RootBackend<Table, LazyThread>::RootBackend;
  std::string_view name() const override { return "lazysmp"; }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    threads_.reset(pos);
    for (int i = 0; i < threads_.size(); ++i) threads_.thread(i).result = SearchResult{};
    hooks_.emplace(threads_, lazysmp::Skip(this->config_.param("skip_schedule")),
                   Value(this->config_.param("window_offset")));
    search_.emplace(this->tt_, *hooks_, shared);
    shared_ = &shared;
    threads_.start(
        [this](LazyThread& t) { t.result = iterative_deepening(*search_, t, *shared_, nullptr); });
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    const SearchOptions& o = shared.options;
    LastIterationGate<RootThreads<LazyThread>> gate(observer, threads_, o.limits.depth);
    SearchResult r = iterative_deepening(*search_, threads_.thread(0), shared, &gate);
    if (this->config_.param("best_thread") == 0 || o.limits.depth > 0 || o.exact || !r.completed) return r;
    threads_.finish();
    threads_.thread(0).result = r;
    std::vector<lazysmp::Ballot> ballots;
    for (int i = 0; i < threads_.size(); ++i) {
      const SearchResult& t = threads_.thread(i).result;
      ballots.push_back({t.best_move, t.score, t.completed ? t.depth : 0});
    }
    const std::size_t winner = lazysmp::vote(ballots);
    if (winner == 0) return r;
    SearchResult chosen = threads_.thread(int(winner)).result;
    chosen.seconds = r.seconds;
    chosen.stopped = r.stopped;
    return chosen;
  }

  void end_search() noexcept override { threads_.finish(); }

 private:
  using RootBackend<Table, LazyThread>::threads_;
  std::optional<LazyHooks> hooks_;
  std::optional<Search<Table, LazyHooks>> search_;
  SearchShared* shared_ = nullptr;  // set before the helpers start, constant during a search
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme.
extern const BackendInfo kLazySmpBackend = {
    .name = "lazysmp",
    .summary = "Lazy SMP: every thread deepens from the root on the shared table (depth skips, window shifts)",
    .default_hash = "xor",
    .sharing = Sharing::Table,
    .supports = runs_on<EveryTable>,
    .make = make_on<LazySmpBackend, EveryTable>,
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = with_heuristics_share({
          {"skip_schedule", "depths the helpers skip (Stockfish 7 or 9 schedule)", 0, 2,
           {"none", "sf7", "sf9"}, 2},
          {"window_offset", "aspiration-window shift per helper (+o, -o, +2o, ...)", 0, 500, {},
           0},
          {"best_thread", "result of a search without depth limit: main thread or a vote", 0, 1,
           {"main", "vote"}, 0}});
      return kParams;
    }
};

}  // namespace xq
