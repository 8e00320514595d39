// UIDPABS, unsynchronized iteratively deepening parallel alpha-beta search
// (Newborn 1988): the root moves are dealt out round-robin in the order of
// their depth-2 scores (so that the good moves spread over the threads), and
// each thread deepens its own share of them on its own, never waiting for
// the others (one may be at depth 9 while another is at 7). Beyond the first
// two iterations each thread searches with Newborn's window around RS, the
// root's depth-2 value: (RS - P, RS + P), P = `pawn` units, twice as wide
// when depths 1 and 2 disagree by 2P or more; a fail-low shifts the window
// down by P once (a second fail-low leaves the iteration with an upper bound:
// this share holds no best move), a fail-high re-searches it open above.
// Each completed iteration is reported; the result is the best exact report:
// at the depth limit, once every thread has completed it (if every thread
// failed low there, the main thread searches the whole root again with the
// full window, counted in `researches`); at a stop or time limit, the best
// of the threads whose last completed iteration was exact, whatever its
// depth (Newborn's rule; a share whose last iteration failed low is out) --
// which is why the method is meant to be judged by time and games, not by
// time to depth.
//
// Counters: each thread's time is booked as search until its share is done,
// then idle (split_timing's ledger rule): the idle share is the load
// imbalance of a static deal. The critical path is the most nodes one thread
// searched (the threads never wait for each other). The main thread's
// iteration reports carry the best exact report known at the time.
#include <algorithm>
#include <mutex>
#include <optional>
#include <vector>

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/shared/root_threads.h"
#include "parallel/shared/uidpabs.h"
#include "parallel/split/timing.h"
#include "search/driver.h"

namespace xq {
namespace uidpabs {

int choose(const std::vector<Share>& shares, Depth depth) {
  int out = -1;
  const auto score_first = [&](const Report& r) {
    const Report& o = shares[std::size_t(out)].last_exact;
    return r.score > o.score || (r.score == o.score && r.depth > o.depth);
  };
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const Report& r = shares[i].last_exact;
    if (r.depth == 0) continue;
    if (depth > 0 ? r.depth != depth : r.depth != shares[i].last_depth) continue;
    if (out < 0 || score_first(r)) out = int(i);
  }
  if (out >= 0 || depth > 0) return out;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const Report& r = shares[i].last_exact;
    if (r.depth == 0) continue;
    const Report* o = out < 0 ? nullptr : &shares[std::size_t(out)].last_exact;
    if (!o || r.depth > o->depth || (r.depth == o->depth && r.score > o->score)) out = int(i);
  }
  return out;
}

}  // namespace uidpabs

namespace {

using split_timing::Part;

using uidpabs::Report;

struct ShareThread : LedgerThread {
  explicit ShareThread(int thread_id) : LedgerThread(thread_id) {}
  std::vector<Move> banned;  // the root moves dealt to the other threads
  bool has_moves = false;
  // Guarded by the hooks' mutex.
  uidpabs::Share share;
};

// The first iterations every thread searches on its share with the full
// window (Newborn's "first two iterations").
constexpr Depth kOpenDepths = 2;

class ShareHooks : public SerialHooks {
 public:
  static constexpr bool kRunsIterations = true;
  ShareHooks(RootThreads<ShareThread>& threads, Value pawn) : threads_(threads), pawn_(pawn) {}

  bool aborted(const Worker& w) const { return threads_.helper_stopped(w); }
  void add_helper_stats(SearchStats& s) const { threads_.add_helpers(s); }
  const std::vector<Move>* banned_root(const Worker& w) const {
    return &static_cast<const ShareThread&>(w).banned;
  }

  // Newborn's window around RS (set before any thread searches).
  void set_window(Value rs, Value half) {
    rs_ = rs;
    half_ = half;
  }

  template <class S>
  Value run_iteration(S& search, Worker& w, Depth depth, Value, const Worker*& line) const {
    auto& t = static_cast<ShareThread&>(w);
    line = &t;
    Value alpha = -kInfinite, beta = kInfinite;
    if (depth > kOpenDepths) {
      alpha = std::max(Value(rs_ - half_), Value(-kInfinite));
      beta = std::min(Value(rs_ + half_), kInfinite);
    }
    bool shifted = false;
    while (true) {
      const Value v = search.root(t, alpha, beta, depth);
      if (search.stopped(t)) return v;
      if (v <= alpha) {
        if (shifted || alpha == -kInfinite) {
          record(t, depth, v, false);
          return v;
        }
        shifted = true;
        alpha = std::max(Value(alpha - pawn_), Value(-kInfinite));
        beta = std::max(Value(beta - pawn_), Value(alpha + 1));
      } else if (v >= beta && beta < kInfinite) {
        alpha = Value(v - 1);
        beta = kInfinite;
      } else {
        record(t, depth, v, true);
        return v;
      }
    }
  }

  // The result's report (uidpabs::choose), if any share has an exact one.
  std::optional<Report> best(Depth depth) const {
    std::lock_guard lock(mutex_);
    std::vector<uidpabs::Share> shares;
    for (int i = 0; i < threads_.size(); ++i) shares.push_back(threads_.thread(i).share);
    const int k = uidpabs::choose(shares, depth);
    if (k < 0) return std::nullopt;
    return shares[std::size_t(k)].last_exact;
  }

 private:
  void record(ShareThread& t, Depth depth, Value v, bool exact) const {
    std::lock_guard lock(mutex_);
    t.share.last_depth = depth;
    if (!exact) return;
    t.share.last_exact.depth = depth;
    t.share.last_exact.score = v;
    t.share.last_exact.pv.assign(t.pv[0].moves.begin(), t.pv[0].moves.begin() + t.pv[0].size);
  }

  RootThreads<ShareThread>& threads_;
  const Value pawn_;
  Value rs_ = 0, half_ = 0;
  mutable std::mutex mutex_;
};

// Puts a report's line into a result (the best move its first move).
void adopt(SearchResult& r, const Report& rep) {
  r.score = rep.score;
  r.pv = rep.pv;
  if (!r.pv.empty()) r.best_move = r.pv.front();
}

template <class Table>
class UidpabsBackend final : public RootBackend<Table, ShareThread> {
 public:
  using RootBackend<Table, ShareThread>::RootBackend;
  std::string_view name() const override { return "uidpabs"; }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    threads_.reset(pos);
    open_ledgers(threads_);
    for (int i = 0; i < threads_.size(); ++i) {
      ShareThread& t = threads_.thread(i);
      t.banned.clear();
      t.has_moves = false;
      t.share = uidpabs::Share{};
    }
    hooks_.emplace(threads_, Value(this->config_.param("pawn")));
    search_.emplace(this->tt_, *hooks_, shared);
  }

  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    deal(shared);
    if (threads_.size() > 1)
      threads_.start([this, &shared](ShareThread& t) {
        if (!t.has_moves) return;  // more threads than root moves
        t.ledger.to(Part::Search, t.stats);
        iterative_deepening(*search_, t, shared, nullptr);
        t.ledger.to(Part::Idle, t.stats);
      });
    Gate gate(*this, observer, shared);
    SearchResult r = iterative_deepening(*search_, threads_.thread(0), shared, &gate);
    if (gate.final_result) return *gate.final_result;
    // Stopped, or a limit other than depth: Newborn's rule over the reports.
    threads_.finish();
    if (const std::optional<Report> best = hooks_->best(0)) adopt(r, *best);
    r.stats = threads_.sum();
    return r;
  }

  void end_search() noexcept override {
    threads_.finish();
    close_ledgers(threads_);
  }
  SearchStats thread_stats() const override {
    SearchStats s = threads_.sum();
    // The threads never wait for each other: the longest chain is the
    // busiest thread's.
    std::uint64_t longest = 0;
    for (int i = 0; i < threads_.size(); ++i)
      longest = std::max<std::uint64_t>(longest, threads_.thread(i).stats.nodes);
    s.critical_path = longest;
    return s;
  }

 private:
  // Scores each legal root move at depths 1 and 2 on the main thread, deals
  // them out round-robin by their depth-2 scores, and sets Newborn's window.
  void deal(SearchShared& shared) {
    ShareThread& main = threads_.thread(0);
    std::vector<Move> moves;
    const std::vector<Move>& banned = shared.options.banned_root_moves;
    for (Move m : MoveList(main.pos))
      if (std::find(banned.begin(), banned.end(), m) == banned.end()) moves.push_back(m);
    if (moves.empty()) return;  // the driver reports the mate or stalemate
    std::vector<std::pair<Value, Move>> scored;
    Value rs[kOpenDepths] = {-kInfinite, -kInfinite};
    for (Depth d = 1; d <= kOpenDepths; ++d) {
      scored.clear();
      for (Move m : moves) {
        main.banned.clear();
        for (Move o : moves)
          if (o != m) main.banned.push_back(o);
        const Value v = search_->root(main, -kInfinite, kInfinite, d);
        scored.push_back({v, m});
        rs[d - 1] = std::max(rs[d - 1], v);
      }
      std::stable_sort(scored.begin(), scored.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (std::size_t i = 0; i < moves.size(); ++i) moves[i] = scored[i].second;
    }
    const Value pawn = Value(this->config_.param("pawn"));
    const Value half = std::abs(rs[1] - rs[0]) >= 2 * pawn ? Value(2 * pawn) : pawn;
    hooks_->set_window(rs[1], half);
    const int p = threads_.size();
    for (int i = 0; i < p; ++i) {
      ShareThread& t = threads_.thread(i);
      t.banned.clear();
      for (std::size_t k = 0; k < moves.size(); ++k) {
        if (int(k % std::size_t(p)) == i) t.has_moves = true;
        else t.banned.push_back(moves[k]);
      }
      // The options' banned moves stay banned (the picker drops both lists).
    }
  }

  // The main thread's iteration reports carry the best exact report; at the
  // depth limit it first waits for every thread to complete the depth (and
  // searches the whole root again if none was exact there).
  class Gate final : public Observer {
   public:
    Gate(UidpabsBackend& b, Observer& inner, SearchShared& shared)
        : b_(b), inner_(inner), shared_(shared) {}
    void on_iteration(const SearchResult& r) override {
      SearchResult out = r;
      const Depth limit = shared_.options.limits.depth;
      if (limit > 0 && r.depth >= limit) {
        ShareThread& main = b_.threads_.thread(0);
        {
          const split_timing::InPart wait(main.ledger, main.stats, Part::Idle);
          b_.threads_.join();
        }
        std::optional<Report> best = b_.hooks_->best(r.depth);
        if (!best && !shared_.stopped()) {
          ++main.stats.researches;
          main.banned.clear();
          const Value v = b_.search_->root(main, -kInfinite, kInfinite, r.depth);
          if (!shared_.stopped()) {
            best = Report{r.depth, v, {}};
            best->pv.assign(main.pv[0].moves.begin(), main.pv[0].moves.begin() + main.pv[0].size);
          }
        }
        if (best) adopt(out, *best);
        out.stats = b_.thread_stats();
        out.seconds = shared_.elapsed_ms() / 1000.0;
        final_result = out;
        final_result->stopped = shared_.stopped();
      } else if (const std::optional<Report> best = b_.hooks_->best(0)) {
        adopt(out, *best);
      }
      inner_.on_iteration(out);
    }
    std::optional<SearchResult> final_result;

   private:
    UidpabsBackend& b_;
    Observer& inner_;
    SearchShared& shared_;
  };

  using RootBackend<Table, ShareThread>::threads_;
  std::optional<ShareHooks> hooks_;
  std::optional<Search<Table, ShareHooks>> search_;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme (perthread
// plays Newborn's separate machines).
extern const BackendInfo kUidpabsBackend = {
    .name = "uidpabs",
    .summary = "UIDPABS (Newborn 1988): root moves dealt round-robin, each thread deepens its own share "
    "unsynchronised; the best report wins",
    .default_hash = "xor",
    .sharing = Sharing::Root,
    .supports = runs_on<EveryTable>,
    .make = make_on<UidpabsBackend, EveryTable>,
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = with_heuristics_share({
          {"pawn", "Newborn's P: the half-width of a share's window around the depth-2 value, "
           "and its one downward shift",
           1, 10000, {}, 30}});
      return kParams;
    },
    .serial_at_one_thread = false,
    .in_default_lab = false,
    .expect = {.reach_parallelism = 1.5}
};

}  // namespace xq
