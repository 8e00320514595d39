// Simplified ABDADA after Kerrigan (2017): every thread runs iterative
// deepening from the root on the shared table; the table's entries stay
// untouched. Instead a small side table (busy_moves.h) holds the moves being
// searched: at remaining depth >= mark depth a thread marks each move before
// searching it and unmarks it after, and defers a younger brother another
// thread has marked to the end of the move list. Once a node deferred a move,
// it re-probes the table before each further move at depth >= re-probe depth
// ("cutoff checks"): another thread may have finished the node meanwhile.
//
// Every mark is removed on every exit: after the child returns, and by the
// node's on_leave() on any other path (a stop's unwinding, an exception), so
// the side table is empty after each search; what is not is counted as
// mark_leaks (and cleared).
//
// As in abdada, the threads search the whole root at the same depths with
// the root's running best shared, so under a depth limit the first thread
// to complete the last iteration ends the search, a helper's iteration
// standing for the main thread's (parallel/first_complete.h;
// abdada_first_complete=no: only the main thread's).
#include <array>
#include <optional>

#include "parallel/backend_base.h"
#include "parallel/backend_factory.h"
#include "parallel/heuristics_share.h"
#include "parallel/shared/busy_moves.h"
#include "parallel/shared/first_complete.h"
#include "parallel/shared/root_share.h"
#include "parallel/shared/root_threads.h"
#include "search/driver.h"
#include "search/coordination.h"

namespace xq {
namespace {

// A search thread and the marks it holds, per ply of the node that placed them.
struct SimpleThread : Worker {
  explicit SimpleThread(int thread_id) : Worker(thread_id) {}
  std::array<long, kMaxPly + 2> slot{};          // side-table slot held (-1: none)
  std::array<std::uint64_t, kMaxPly + 2> hash{};  // the move hash in that slot
  std::array<Depth, kMaxPly + 2> depth{};         // remaining depth of the node
};

struct SimpleSettings {
  Depth mark_depth = 3;
  Depth reprobe_depth = 4;
  bool root_retest = true;
};

template <class Table>
class SimpleHooks : public RootSharingHooks {
 public:
  static constexpr bool kDefersMoves = true;
  static constexpr bool kTracksNodes = true;

  // first: where a helper that completes the depth limit first is recorded
  // (null: only the main thread ends the search; always so for a lone thread).
  SimpleHooks(BusyMoves& busy, RootThreads<SimpleThread>& threads, SimpleSettings s,
              RootShare& root, const FirstComplete* first)
      : RootSharingHooks(threads.size() > 1 ? &root : nullptr, s.root_retest),
        busy_(busy),
        threads_(threads),
        s_(s),
        first_(threads.size() > 1 ? first : nullptr) {}

  // Helpers end when the main thread is done; the main thread by its own
  // limits, or when a helper has completed the depth limit first.
  bool aborted(const Worker& w) const {
    if (w.id != 0) return threads_.helper_stopped(w);
    return first_ && first_->overtaken();
  }
  void add_helper_stats(SearchStats& s) const { threads_.add_helpers(s); }

  void on_enter(Worker& w, int ply) {
    SimpleThread& t = self(w);
    t.slot[std::size_t(ply)] = -1;
  }
  void on_leave(Worker& w, int ply) { unmark(self(w), ply); }

  // Called for younger brothers only, so before_child() has already set the
  // node's depth for this ply.
  bool defer_move(const Worker& w, Move m, int ply) const {
    SimpleThread& t = threads_.thread(w.id);
    if (t.depth[std::size_t(ply)] < s_.mark_depth) return false;
    if (!busy_.marked(BusyMoves::move_hash(w.pos.key(), m))) return false;
    ++t.stats[coordination::busy_answers];
    return true;
  }

  // Cutoff checks are the node function's re-probe (reprobe_depth()).
  Depth reprobe_depth() const { return s_.reprobe_depth; }

  void before_child(Worker& w, Move m, Depth depth, int ply, bool deferred_stage) {
    SimpleThread& t = self(w);
    const auto p = std::size_t(ply);
    t.depth[p] = depth;
    if (depth < s_.mark_depth) return;
    const std::uint64_t h = BusyMoves::move_hash(w.pos.key(), m);
    if (deferred_stage && busy_.marked(h)) ++t.stats[coordination::busy_answers];  // still busy: searched anyway
    t.slot[p] = busy_.mark(h);
    t.hash[p] = h;
  }
  void after_child(Worker& w, int ply) { unmark(self(w), ply); }

 private:
  SimpleThread& self(const Worker& w) const { return threads_.thread(w.id); }

  void unmark(SimpleThread& t, int ply) {
    long& slot = t.slot[std::size_t(ply)];
    if (slot < 0) return;
    if (!busy_.unmark(slot, t.hash[std::size_t(ply)])) ++t.stats[coordination::mark_underflows];
    slot = -1;
  }

  BusyMoves& busy_;
  RootThreads<SimpleThread>& threads_;
  const SimpleSettings s_;
  const FirstComplete* const first_;
};

template <class Table>
class AbdadaSimpleBackend final : public BackendBase<Table> {
 public:
  explicit AbdadaSimpleBackend(const BackendConfig& c)
      : BackendBase<Table>(c),
        busy_(std::size_t(c.param("busy_entries")), int(c.param("busy_ways"))),
        threads_(c) {
    this->require_thread_slots(c.threads);
  }
  std::string_view name() const override { return "abdada-simple"; }

  void clear() override {
    this->tt_.clear();
    threads_.clear_heuristics();
    busy_.clear();
  }

 protected:
  void begin_search(const Position& pos, SearchShared& shared) override {
    threads_.reset(pos);
    leaks_ = 0;
    SimpleSettings s;
    s.mark_depth = Depth(this->config_.param("simple_mark_depth"));
    s.reprobe_depth = Depth(this->config_.param("simple_reprobe_depth"));
    s.root_retest = this->config_.param("root_retest") != 0;
    root_.reset();
    first_.reset(this->config_.param("abdada_first_complete") != 0 ? shared.options.limits.depth : 0);
    hooks_.emplace(busy_, threads_, s, root_, &first_);
    search_.emplace(this->tt_, *hooks_, shared);
    shared_ = &shared;
    threads_.start(
        [this](SimpleThread& t) { iterative_deepening(*search_, t, *shared_, &offer_); });
  }
  SearchResult run_search(SearchShared& shared, Observer& observer) override {
    LastIterationGate<RootThreads<SimpleThread>> gate(observer, threads_, shared.options.limits.depth,
                                         &first_);
    const SearchResult r = iterative_deepening(*search_, threads_.thread(0), shared, &gate);
    // A helper that completed the depth limit first stands for the main thread.
    return first_.result(r, gate, [this] { return threads_.sum(); });
  }
  void end_search() noexcept override {
    threads_.finish();
    leaks_ = busy_.count_marked();
    if (leaks_ != 0) busy_.clear();
  }
  SearchStats thread_stats() const override {
    SearchStats s = threads_.sum();
    s[coordination::mark_leaks] += leaks_;
    return s;
  }

 private:
  using Hooks = SimpleHooks<Table>;
  BusyMoves busy_;
  RootShare root_;
  FirstComplete first_;
  FirstComplete::Offer offer_{first_};  // the helpers' observer (offer() locks)
  RootThreads<SimpleThread> threads_;
  std::optional<Hooks> hooks_;
  std::optional<Search<Table, Hooks>> search_;
  SearchShared* shared_ = nullptr;  // set before the helpers start, constant during a search
  std::uint64_t leaks_ = 0;
};

}  // namespace

// The registry's entry (parallel/registry.cpp): every scheme (the table is
// only probed and stored, never claimed).
extern const BackendInfo kAbdadaSimpleBackend = {
    .name = "abdada-simple",
    .summary = "simplified ABDADA (Kerrigan): shared table, busy-move side table, marked moves deferred",
    .default_hash = "xor",
    .sharing = Sharing::Marks,
    .supports = runs_on<EveryTable>,
    .make = make_on<AbdadaSimpleBackend, EveryTable>,
    // The busy-move side table: Kerrigan's 32768 buckets x 4 ways.
    .params = []() -> const std::vector<ParamSpec>& {
      static const std::vector<ParamSpec> kParams = with_heuristics_share({
          {"busy_entries", "buckets of the busy-move side table", 1, std::int64_t{1} << 22, {},
           32768},
          {"busy_ways", "slots per bucket of the busy-move side table", 1, 16, {}, 4},
          {"simple_mark_depth", "least remaining depth at which moves are marked and deferred",
           1, kMaxDepth, {}, 3},
          {"simple_reprobe_depth",
           "least remaining depth of the table re-probes after a deferral", 1, kMaxDepth, {}, 4},
          first_complete_param(),
          root_retest_param()});
      return kParams;
    },
    // The default lab runs one representative per way of sharing work (`--backends all`: every one).
    .in_default_lab = false,
    .counter_groups = {"coordination"}
};

}  // namespace xq
