// The node function of the "hybrid PVS" engine: principal-variation search
// (or plain alpha-beta) with a transposition table, null move, MVV-LVA,
// killers, history, check extension and quiescence, each switchable.
//
// Search<Table, Hooks> is compiled once per (hash scheme, backend) pair. It is
// stateless apart from references to the shared table, the backend's hooks and
// the shared search state, so several threads can use one Search object, each
// passing its own Worker.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <type_traits>

#include "board/eval.h"
#include "board/movegen.h"
#include "hashing/entry.h"
#include "search/hooks.h"
#include "search/movepick.h"
#include "search/node_guard.h"
#include "search/options.h"
#include "search/shared.h"
#include "search/split_child.h"
#include "search/values.h"
#include "search/worker.h"

namespace xq {

// Which node a call of the node function searches: the root (Search::root(),
// called by the driver) or one below it. The root's own rules -- no
// repetition, table cutoff or null move, the banned root moves, the running
// best shared with other threads -- are compile-time branches of the Root
// instantiation; the nodes below it do not test for the root.
enum class NodeKind { Root, Inner };

// The alpha-refresh policy of Search::child(): what a younger brother whose
// null-window result landed inside (alpha, beta) does before its open-window
// re-search. KeepAlpha, the ordinary move loop: nothing, the node's alpha is
// the thread's own. Any other policy is a functor
// `bool(Worker&, Value& alpha, Value v)` that may raise alpha to a bound
// other threads reached meanwhile and returns true when the move must first
// be tested with a null window at the new alpha: Search::root_child() (a root
// shared with other threads) and LiveAlpha (a split point, split_child.h).
struct KeepAlpha {};

template <class Table, class Hooks>
class Search {
 public:
  // Nodes a thread searches between two looks at the limits.
  static constexpr std::uint64_t kNodeBatch = 1024;

  Search(Table& tt, Hooks& hooks, SearchShared& shared)
      : tt_(tt), hooks_(hooks), shared_(shared), f_(effective_features(shared.options)) {}

  static Features effective_features(const SearchOptions& o) {
    Features f = o.features;
    if (o.exact) {
      f.null = false;
      f.aspiration = false;
    }
    return f;
  }
  const Features& features() const { return f_; }
  const Hooks& hooks() const { return hooks_; }
  // The table's fill in permille (UCI "hashfull"), or -1 when it cannot say.
  int hashfull() const {
    if constexpr (requires(const Table& t) { t.hashfull(); }) return tt_.hashfull();
    else return -1;
  }
  bool pvs() const { return shared_.options.algorithm == Algorithm::Pvs; }

  // True when this thread must unwind: global stop or a backend abort.
  bool stopped(const Worker& w) const { return shared_.stopped() || hooks_.aborted(w); }

  // Searches the root of w.pos with the window (alpha, beta): the driver's
  // entry (search/driver.h), the Root instantiation of node().
  Value root(Worker& w, Value alpha, Value beta, Depth depth) {
    return node<NodeKind::Root>(w, alpha, beta, depth, 0, true, false);
  }

  // Step 7d of node(), the one child search: searches the child reached by m
  // (already tested legal on w.pos) and returns its value from this node's
  // point of view. PVS: the first move gets the full window, later ones a
  // null window and, when they land inside (alpha, beta), a re-search with
  // the full window; before it, `refresh` (see KeepAlpha) may raise alpha to
  // a bound other threads reached meanwhile and ask for a null-window test
  // at the new alpha first. `pv_node` marks the principal path: in PVS the
  // open-window nodes, in alpha-beta and MTD(f) the leftmost path (where the
  // PV-splitting backend splits); only PVS forbids table cutoffs and null
  // moves there. `exclusive`: return kOnEvaluation instead of searching a
  // child that another thread is searching (hooks with kClaimsNodes); the
  // re-searches are not exclusive.
  template <class Refresh = KeepAlpha>
  Value child(Worker& w, Move m, Value alpha, Value beta, Depth depth, int ply, bool pv_node,
              bool first, bool exclusive = false, Refresh refresh = {}) {
    w.pos.do_move(m);
    Value v;
    if (first || !pvs()) {
      v = -node(w, -beta, -alpha, depth - 1, ply + 1, pv_node && first, true, exclusive);
    } else {
      v = -node(w, -alpha - 1, -alpha, depth - 1, ply + 1, false, true, exclusive);
      if (v > alpha && v < beta && !stopped(w)) {
        if constexpr (std::is_same_v<Refresh, KeepAlpha>) {
          v = -node(w, -beta, -alpha, depth - 1, ply + 1, true, true);
        } else {
          if (refresh(w, alpha, v))
            v = -node(w, -alpha - 1, -alpha, depth - 1, ply + 1, false, true);
          if (v > alpha && v < beta && !stopped(w))
            v = -node(w, -beta, -alpha, depth - 1, ply + 1, true, true);
        }
      }
    }
    w.pos.undo_move(m);
    if constexpr (Hooks::kClaimsNodes)
      if (v == -kOnEvaluation) return kOnEvaluation;
    return v;
  }

  // The node function, in steps. NodeKind::Inner (the default) for every
  // node below the root (ply > 0); the root is searched through root().
  template <NodeKind K = NodeKind::Inner>
  Value node(Worker& w, Value alpha, Value beta, Depth depth, int ply, bool pv_node,
             bool null_allowed, bool exclusive = false) {
    constexpr bool kRoot = K == NodeKind::Root;
    Position& pos = w.pos;
    PvLine& pv = w.pv[ply];
    pv.size = 0;

    // Step 1. Horizon: quiescence (or the static value when it is off).
    if (depth <= 0) return qsearch(w, alpha, beta, ply);

    // Step 2. Count the node; unwind on stop, abort or a reached limit.
    ++w.stats.nodes;
    if (w.stats.nodes >= w.next_time_check) check_limits(w);
    if (stopped(w)) return 0;
    if (ply >= kMaxPly) return evaluate(pos);

    // Step 3. Repetition (simplified rule, see Position::repetition()).
    if (!kRoot && !shared_.options.exact) {
      switch (pos.repetition()) {
        case Repetition::Draw: return kDraw;
        case Repetition::Win: return kRepetitionWin - ply;
        case Repetition::Loss: return -kRepetitionWin + ply;
        case Repetition::None: break;
      }
    }

    // Step 4. Enter the node (left on every exit from here on); probe the
    // table: move for ordering, cutoff outside exact mode, kOnEvaluation for
    // an exclusive search of a node another thread is searching.
    NodeGuard<Table, Hooks> guard(tt_, hooks_, w, ply);
    const Value alpha_orig = alpha;
    const bool full_width = pv_node && pvs();  // PVS keeps its PV nodes exact
    Move tt_move;
    if (f_.tt) {
      if (const std::optional<Value> cut =
              probe_table(w, alpha, beta, depth, ply, full_width, exclusive, tt_move, guard))
        return *cut;
    }

    // Step 5. Null move (see try_null_move for when it is tried).
    const bool in_check = pos.in_check();
    if (f_.null && !full_width && !in_check && null_allowed && !kRoot && depth >= 2) {
      if (const std::optional<Value> cut = try_null_move(w, beta, depth, ply)) return *cut;
    }

    // Step 6. Check extension: a node in check is searched one ply deeper.
    if (f_.checkext && in_check) ++depth;

    // Step 7. The move loop.
    MovePicker picker(pos, w, f_, tt_move, ply);
    if constexpr (kRoot)
      if (!shared_.options.banned_root_moves.empty())
        picker.exclude(shared_.options.banned_root_moves);
    SplitContext ctx;
    ctx.depth = depth;
    ctx.ply = ply;
    ctx.beta = beta;
    ctx.pv_node = pv_node;
    ctx.picker = &picker;
    Value best = -kInfinite;
    Move best_move;
    int searched = 0;
    for (Move m = picker.next(); m; m = picker.next()) {
      // Step 7a. Legality (the picker's moves are pseudo-legal).
      if (!pos.is_legal(m)) continue;

      // Step 7b. Deferral (kDefersMoves, kClaimsNodes): a younger brother the
      // backend names waits for the deferred stage; once a move was deferred,
      // another thread's stored result may cut the rest of the loop off.
      const bool young = kDeferral && searched > 0 && !picker.deferred_stage();
      if constexpr (Hooks::kDefersMoves) {
        if (young && hooks_.defer_move(w, m, ply)) {
          defer(w, picker, m);
          continue;
        }
      }
      if constexpr (kDeferral) {
        if (picker.deferred_stage()) ++w.stats.deferred_searches;
        if (picker.has_deferred() && !full_width)
          if (const std::optional<Value> cut = reprobe(w, beta, depth, ply)) return *cut;
      }

      // Step 7c. Root shared with other threads (kSharesRoot): another
      // thread's better root best is adopted before each younger move.
      if constexpr (kRoot && Hooks::kSharesRoot)
        if (searched > 0 && adopt_root_best(w, depth, alpha_orig, beta, alpha, best, best_move) &&
            alpha >= beta)
          break;

      // Step 7d. Search the child (child(); at the root root_child()). A
      // child another thread is searching (kOnEvaluation) is deferred.
      if constexpr (Hooks::kDefersMoves) hooks_.before_child(w, m, depth, ply, picker.deferred_stage());
      const bool only_if_free = young && exclusive_child(depth, ply);
      Value v;
      if constexpr (kRoot)
        v = root_child(w, m, alpha, beta, depth, pv_node, searched == 0, only_if_free, alpha_orig,
                       best, best_move);
      else
        v = child(w, m, alpha, beta, depth, ply, pv_node, searched == 0, only_if_free);
      if constexpr (Hooks::kDefersMoves) hooks_.after_child(w, ply);
      if (stopped(w)) return 0;
      if constexpr (Hooks::kClaimsNodes) {
        if (v == kOnEvaluation) {
          defer(w, picker, m);
          continue;
        }
      }
      ++searched;
      if constexpr (kRoot && Hooks::kSharesRoot)  // an adopted root best at or above beta
        if (alpha >= beta) break;

      // Step 7e. Record the result: a better value raises best, then alpha
      // and the line (published to the other threads at a shared root);
      // reaching beta ends the loop with a cutoff.
      if (v > best) {
        best = v;
        best_move = m;
        if (v > alpha) {
          alpha = v;
          update_pv(w, ply, m);
          if constexpr (kRoot && Hooks::kSharesRoot)
            hooks_.publish_root(w, depth, alpha_orig, beta, v);
          if (v >= beta) {
            on_cutoff(w, m, depth, ply, searched == 1);
            break;
          }
        }
      }

      // Step 8. Offer a split point: the node goes to the backend once the
      // eldest brother is done (after it, at every move: a thread may fall
      // idle while this node is half searched, and a later split point is all
      // the surer an ALL node).
      if constexpr (Hooks::kSplits) {
        ctx.alpha = alpha;
        ctx.best_value = best;
        ctx.best_move = best_move;
        ctx.moves_searched = searched;
        if (hooks_.want_split(w, ctx)) {
          split_and_merge(w, ctx, alpha, best, best_move, searched);
          if (stopped(w)) return 0;
          break;
        }
      }
    }

    // Step 9. No legal move: mated (stalemate loses too in Xiangqi).
    if (searched == 0) return mated_in(ply);

    // Step 10. Store.
    if (f_.tt) {
      TTData d;
      d.move = best_move;
      d.value = std::int16_t(value_to_tt(best, ply));
      d.depth = std::int8_t(std::min(depth, 127));
      d.bound = best >= beta ? Bound::Lower : best > alpha_orig ? Bound::Exact : Bound::Upper;
      tt_.store(pos.key(), d, w.id);
    }
    return best;
  }

  Value qsearch(Worker& w, Value alpha, Value beta, int ply) {
    Position& pos = w.pos;
    w.pv[ply].size = 0;
    if (!f_.qsearch) {
      ++w.stats.nodes;
      return evaluate(pos);
    }
    ++w.stats.nodes;
    ++w.stats.qnodes;
    if (std::uint64_t(ply) >= w.stats.seldepth) w.stats.seldepth = std::uint64_t(ply) + 1;
    if (w.stats.nodes >= w.next_time_check) check_limits(w);
    if (stopped(w)) return 0;
    if (ply >= kMaxPly) return evaluate(pos);

    // Stand pat unless in check (then every evasion is searched).
    const bool in_check = pos.in_check();
    Value best = -kInfinite;
    if (!in_check) {
      best = evaluate(pos);
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
    }
    MovePicker picker(pos, w, f_);
    int searched = 0;
    for (Move m = picker.next(); m; m = picker.next()) {
      if (!pos.is_legal(m)) continue;
      ++searched;
      pos.do_move(m);
      const Value v = -qsearch(w, -beta, -alpha, ply + 1);
      pos.undo_move(m);
      if (stopped(w)) return 0;
      if (v > best) {
        best = v;
        if (v > alpha) {
          alpha = v;
          if (v >= beta) break;
        }
      }
    }
    if (in_check && searched == 0) return mated_in(ply);
    return best;
  }

 private:
  static constexpr bool kDeferral = Hooks::kClaimsNodes || Hooks::kDefersMoves;

  // Whether a younger brother of this node is searched exclusively: only
  // for claiming hooks, and only where the child would claim its entry.
  bool exclusive_child(Depth depth, int ply) const {
    if constexpr (Hooks::kClaimsNodes)
      return depth - 1 >= hooks_.claim_depth() && (ply > 0 || hooks_.defer_root());
    return false;
  }

  // Step 7c of node() at a root shared with other threads (kSharesRoot):
  // adopts a better best another thread published for the same depth and
  // root window -- best, best_move and the root line w.pv[0] change, alpha
  // rises to it. Returns false when there is none.
  bool adopt_root_best(Worker& w, Depth depth, Value alpha_orig, Value beta, Value& alpha,
                       Value& best, Move& best_move) {
    if (!hooks_.adopt_root(w, depth, alpha_orig, beta, best)) return false;
    best_move = w.pv[0].moves[0];
    alpha = std::max(alpha, best);
    return true;
  }

  // Step 7d of node() at the root: child(), except for a younger root move of
  // a thread that shares the root's running best (Hooks::retest_root(),
  // PVS). When its null-window search fails high, another thread may
  // meanwhile have raised the root's best: it is adopted as in Step 7c and
  // the move is tested against it with a null window before any open-window
  // re-search. A move searched at a stale alpha fails high on a bound the
  // root has already passed, and its open-window re-search is the most
  // expensive search of the iteration.
  Value root_child(Worker& w, Move m, Value& alpha, Value beta, Depth depth, bool pv_node,
                   bool first, bool exclusive, Value alpha_orig, Value& best, Move& best_move) {
    if (first || !hooks_.retest_root() || !pvs())
      return child(w, m, alpha, beta, depth, 0, pv_node, first, exclusive);
    const auto adopt = [&](Worker& cw, Value& child_alpha, Value) {
      if (!adopt_root_best(cw, depth, alpha_orig, beta, alpha, best, best_move)) return false;
      ++cw.stats.root_retests;
      child_alpha = alpha;
      return child_alpha < beta;
    };
    return child(w, m, alpha, beta, depth, 0, pv_node, false, exclusive, adopt);
  }

  void defer(Worker& w, MovePicker& picker, Move m) {
    picker.defer(m);
    ++w.stats.deferrals;
  }

  // Once a move of the node was deferred, another thread may have finished
  // the node meanwhile: its stored result can cut the rest of the move loop
  // off (Kerrigan's "cutoff checks"). Not in exact mode, at the root or at
  // PVS's PV nodes, like every table cutoff.
  std::optional<Value> reprobe(Worker& w, Value beta, Depth depth, int ply) {
    const Depth from = hooks_.reprobe_depth();
    if (from == 0 || depth < from || ply == 0 || shared_.options.exact || !f_.tt)
      return std::nullopt;
    ++w.stats.cutoff_reprobes;
    TTData e;
    if (!tt_.probe(w.pos.key(), e, w.id) || !plausible_entry(e) || e.depth < depth)
      return std::nullopt;
    const Value v = value_from_tt(e.value, ply);
    if (v < beta || (e.bound != Bound::Lower && e.bound != Bound::Exact)) return std::nullopt;
    ++w.stats.tt_cutoffs;
    return v;
  }

  // Step 4 of node(): probes the table, sets tt_move to the entry's move when
  // it is legal here, and returns the entry's value when it cuts the node
  // off. An entry may hold any bits (torn or colliding entries, a faulty
  // table), so an impossible one is rejected and counted, and its move is
  // validated before use and counted when it fails.
  template <class Guard>
  std::optional<Value> probe_table(Worker& w, Value alpha, Value beta, Depth depth, int ply,
                                   bool full_width, bool exclusive, Move& tt_move, Guard& guard) {
    const Position& pos = w.pos;
    TTData e;
    ++w.stats.tt_probes;
    if constexpr (Hooks::kClaimsNodes) {
      if (depth >= hooks_.claim_depth()) {
        const TTClaim c = tt_.claim(pos.key(), exclusive, w.id);
        if (c.busy) {
          ++w.stats.busy_answers;
          return kOnEvaluation;
        }
        guard.claimed(c.slot);
        if (!c.found) return std::nullopt;
        e = c.data;
      } else if (!tt_.probe(pos.key(), e, w.id)) {
        return std::nullopt;
      }
    } else {
      if (!tt_.probe(pos.key(), e, w.id)) return std::nullopt;
    }
    if (!plausible_entry(e)) {
      ++w.stats.tt_rejected;
      return std::nullopt;
    }
    ++w.stats.tt_hits;
    if (e.move && f_.ttmove) {
      if (pos.is_pseudo_legal(e.move) && pos.is_legal(e.move)) tt_move = e.move;
      else ++w.stats.bad_tt_moves;
    }
    const Value v = value_from_tt(e.value, ply);
    if (!shared_.options.exact && !full_width && ply > 0 && e.depth >= depth &&
        (e.bound == Bound::Exact || (e.bound == Bound::Lower && v >= beta) ||
         (e.bound == Bound::Upper && v <= alpha))) {
      ++w.stats.tt_cutoffs;
      return v;
    }
    return std::nullopt;
  }

  // Step 5 of node(): null move with R = 2, R = 3 at depth >= 9 with a
  // material lead of at least 600; the caller has excluded check, the root,
  // a second null move in a row and PVS's PV nodes. Not tried when the side
  // to move has fewer than 3 attacking pieces (zugzwang danger) or stands
  // below beta. Returns the node's value when it cuts off (0 on a stop).
  std::optional<Value> try_null_move(Worker& w, Value beta, Depth depth, int ply) {
    Position& pos = w.pos;
    if (attackers(pos) < 3 || evaluate(pos) < beta) return std::nullopt;
    const Color us = pos.side_to_move();
    const Depth r = depth >= 9 && pos.material(us) - pos.material(~us) >= 600 ? 3 : 2;
    ++w.stats.null_tries;
    pos.do_null_move();
    const Value v = -node(w, -beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
    pos.undo_null_move();
    if (stopped(w)) return Value{0};
    if (v < beta) return std::nullopt;
    ++w.stats.null_cutoffs;
    return v >= kMateInMaxPly ? beta : v;  // an unproven mate is not reported
  }

  // Step 8 of node(): hands the rest of the move loop to the backend and
  // merges what its threads found into the node's running best. split()
  // leaves the line of a move that raised alpha in w.pv[ply].
  void split_and_merge(Worker& w, SplitContext& ctx, Value& alpha, Value& best, Move& best_move,
                       int& searched) {
    hooks_.split(w, ctx, [this](Worker& hw, Move hm, Value a, const SplitContext& c) {
      return split_child(*this, hw, hm, a, c);
    });
    if (stopped(w)) return;
    searched = std::max(searched, ctx.moves_searched);
    if (ctx.best_value > best) {
      best = ctx.best_value;
      best_move = ctx.best_move;
      if (best > alpha) alpha = best;
    }
    if (best >= ctx.beta) on_cutoff(w, best_move, ctx.depth, ctx.ply, false);
  }

  // Pieces that can attack across the board: rooks, horses, cannons.
  static int attackers(const Position& pos) {
    const Color c = pos.side_to_move();
    return pos.count(c, PieceType::Rook) + pos.count(c, PieceType::Horse) +
           pos.count(c, PieceType::Cannon);
  }

  void update_pv(Worker& w, int ply, Move m) { set_line(w.pv[ply], m, w.pv[ply + 1]); }

  void on_cutoff(Worker& w, Move m, Depth depth, int ply, bool first) {
    ++w.stats.fail_highs;
    if (first) ++w.stats.fail_high_first;
    if (w.pos.is_capture(m)) return;
    if (f_.killers) w.add_killer(ply, m);
    if (f_.history) w.add_history(m, depth);
  }

  void check_limits(Worker& w) { check_search_limits(w, shared_, kNodeBatch); }

  Table& tt_;
  Hooks& hooks_;
  SearchShared& shared_;
  const Features f_;
};

}  // namespace xq
