// The node function of the "hybrid PVS" engine: principal-variation search
// (or plain alpha-beta) with a transposition table, null move, MVV-LVA,
// killers, history, check extension and quiescence, each switchable -- the
// thesis profile -- and the modern profile's selective search on top of it:
// late-move reductions, reverse futility, razoring, move-count, futility and
// SEE pruning, adaptive and verified null move, internal iterative
// reduction, ProbCut and singular extension (search/options.h, Features).
// With the modern features off the thesis's engine runs node for node.
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

#include <array>
#include <cmath>
#include <cstdlib>

#include "board/eval.h"
#include "board/movegen.h"
#include "board/see.h"
#include "hashing/entry.h"
#include "search/hooks.h"
#include "search/movepick.h"
#include "search/node_guard.h"
#include "search/options.h"
#include "search/shared.h"
#include "search/split_child.h"
#include "search/values.h"
#include "search/worker.h"
#include "search/coordination.h"

namespace xq {

// Which node a call of the node function searches: the root (Search::root(),
// called by the driver) or one below it. The root's own rules -- no
// repetition, table cutoff or null move, the banned root moves, the running
// best shared with other threads -- are compile-time branches of the Root
// instantiation; the nodes below it do not test for the root.
enum class NodeKind { Root, Inner };


template <class Table, class Hooks>
class Search {
 public:
  // Nodes a thread searches between two looks at the limits.
  static constexpr std::uint64_t kNodeBatch = 1024;

  Search(Table& tt, Hooks& hooks, SearchShared& shared)
      : tt_(tt),
        hooks_(hooks),
        shared_(shared),
        f_(effective_features(shared.options)),
        t_(shared.options.tuning),
        selective_(f_.selective()) {
    if (f_.lmr) fill_reductions();
  }

  // The features a search runs with: the options' own, less in exact mode
  // every one that prunes, reduces or extends, and the evaluation's
  // knowledge (move ordering stays).
  static Features effective_features(const SearchOptions& o) {
    Features f = o.features;
    if (o.exact) {
      f.null = false;
      f.aspiration = false;
      f.lmr = f.rfp = f.razor = f.lmp = f.futility = f.see = false;
      f.nullplus = f.iir = f.probcut = f.singular = f.aspdelta = false;
      f.knowledge = false;  // the thesis's evaluation: one exact value per tree
    }
    if (!f.null) f.nullplus = false;
    return f;
  }
  const Features& features() const { return f_; }
  const SearchTuning& tuning() const { return t_; }
  const Hooks& hooks() const { return hooks_; }
  Hooks& hooks() { return hooks_; }  // the driver's run_iteration() may keep state
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
    if (f_.singular) {  // the singular extensions' ply bound (node())
      int seen = shared_.root_depth.load(std::memory_order_relaxed);
      while (seen < depth &&
             !shared_.root_depth.compare_exchange_weak(seen, depth, std::memory_order_relaxed)) {
      }
    }
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
  //
  // `reduce` (late-move reductions, see plan_move): the first search of the
  // move is that many plies shallower, unless the move gives check; when it
  // beats alpha, the move is searched again at full depth before anything
  // else.
  template <class Refresh = KeepAlpha>
  Value child(Worker& w, Move m, Value alpha, Value beta, Depth depth, int ply, bool pv_node,
              bool first, bool exclusive = false, Refresh refresh = {}, Depth reduce = 0) {
    w.pos.do_move(m);
    if (reduce > 0 && w.pos.in_check()) reduce = 0;
    if (reduce > 0) ++w.stats.reductions;
    Value v;
    if (first || !pvs()) {
      v = -node(w, -beta, -alpha, depth - 1 - reduce, ply + 1, pv_node && first, true, exclusive);
      if (reduce > 0 && v > alpha && !stopped(w)) {
        ++w.stats.reduction_researches;
        v = -node(w, -beta, -alpha, depth - 1, ply + 1, false, true, exclusive);
      }
    } else {
      v = -node(w, -alpha - 1, -alpha, depth - 1 - reduce, ply + 1, false, true, exclusive);
      if (reduce > 0 && v > alpha && !stopped(w)) {
        ++w.stats.reduction_researches;
        v = -node(w, -alpha - 1, -alpha, depth - 1, ply + 1, false, true, exclusive);
      }
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
    if (ply >= kMaxPly) return evaluate(pos, f_.knowledge);

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
    // A singular-extension search (Step 5e) searches the node again without
    // its table move: it neither probes nor stores the table.
    NodeGuard<Table, Hooks> guard(tt_, hooks_, w, ply);
    const Value alpha_orig = alpha;
    const bool full_width = pv_node && pvs();  // PVS keeps its PV nodes exact
    const Move excluded = kRoot || !f_.singular ? Move::none() : w.excluded[std::size_t(ply)];
    Move tt_move;
    TTData tt_entry;
    bool tt_hit = false;
    if (f_.tt && !excluded) {
      if (const std::optional<Value> cut = probe_table(w, alpha, beta, depth, ply, full_width,
                                                       exclusive, tt_move, guard, tt_entry, tt_hit))
        return *cut;
    }

    // Step 5. Selectivity before the move loop. The modern profile's steps
    // (5a-5c, 5e) need the node's static value; the thesis's null move
    // computes its own. None of them at the root, in check or (but IIR and
    // singular extension) at a PV node.
    const bool in_check = pos.in_check();
    Value eval = -kInfinite;
    bool improving = false;
    if (selective_ && !kRoot) {
      eval = in_check ? -kInfinite : evaluate(pos, f_.knowledge);
      w.static_eval[std::size_t(ply)] = eval;
      improving = !in_check && ply >= 2 && eval > w.static_eval[std::size_t(ply) - 2];
    }
    // Against a side left with only its palace pieces (king, advisors,
    // elephants), a quiet move that leaves it no legal move wins without
    // check: nothing that skips quiet moves or the search itself applies.
    const bool boxable = selective_ && !kRoot && boxable_opponent(pos);
    const bool prune_node = !kRoot && !pv_node && !in_check && !excluded && !boxable;
    if (selective_ && prune_node) {
      if (const std::optional<Value> cut = static_cutoff(w, alpha, beta, depth, ply, eval, improving))
        return *cut;
    }

    // Step 5d. Null move (see try_null_move for when it is tried).
    if (f_.null && !full_width && !in_check && null_allowed && !kRoot && depth >= 2 && !excluded) {
      const std::optional<Value> cut = f_.nullplus ? try_null_move_plus(w, beta, depth, ply, eval)
                                                   : try_null_move(w, beta, depth, ply);
      if (cut) return *cut;
    }
    if (f_.probcut && prune_node && depth >= t_.probcut_depth && std::abs(beta) < kMateInMaxPly) {
      if (const std::optional<Value> cut = probcut(w, beta, depth, ply, eval)) return *cut;
    }

    // Step 5e. Internal iterative reduction: a node the table knows no move
    // for is searched a ply shallower (its ordering is a guess).
    if (f_.iir && !kRoot && !excluded && !tt_move && depth >= t_.iir_depth) --depth;

    // Step 5f. Singular extension: a table move much better than every other
    // move is searched a ply deeper; when even the others reach beta, the
    // node is cut off (multi-cut).
    Depth singular = 0;
    if (f_.singular && !kRoot && !excluded && tt_hit && tt_move && depth >= t_.singular_depth) {
      const std::optional<Value> cut =
          singular_search(w, beta, depth, ply, tt_move, tt_entry, singular);
      if (cut) return *cut;
    }

    // Step 6. Check extension: a node in check is searched one ply deeper.
    if (f_.checkext && in_check) ++depth;

    // Step 7. The move loop.
    MovePicker picker(pos, w, f_, tt_move, ply);
    if constexpr (kRoot) {
      if (!shared_.options.banned_root_moves.empty())
        picker.exclude(shared_.options.banned_root_moves);
      if (const std::vector<Move>* own = hooks_.banned_root(w)) picker.exclude(*own);
    }
    SplitContext ctx;
    ctx.depth = depth;
    ctx.ply = ply;
    ctx.beta = beta;
    ctx.pv_node = pv_node;
    ctx.picker = &picker;
    ctx.static_eval = eval;
    ctx.improving = improving;
    ctx.in_check = in_check;
    ctx.tt_move = tt_move;
    ctx.excluded = excluded;
    Value best = -kInfinite;
    Move best_move;
    int searched = 0;
    // The quiet moves searched before a cutoff, for histgravity's malus.
    std::array<Move, 32> quiets;
    int quiet_count = 0;
    // Step 7'. Split before the eldest brother (tree splitting, Mandatory
    // Work First): the backend may take the whole move loop at once. Nothing
    // is searched yet, so ctx's defaults (no best, no move searched, no
    // pruning) are the node's state but for alpha.
    bool split_first = false;
    if constexpr (Hooks::kSplits) {
      if (hooks_.want_split_first(w, ctx)) {
        ctx.alpha = alpha;
        split_and_merge(w, ctx, alpha, best, best_move, searched);
        if (stopped(w)) return 0;
        split_first = true;
      }
    }
    for (Move m = split_first ? Move::none() : picker.next(); m; m = picker.next()) {
      // Step 7a. Legality (the picker's moves are pseudo-legal); the move a
      // singular-extension search leaves out.
      if (!pos.is_legal(m) || m == excluded) continue;

      // Step 7a'. The modern profile's move pruning and late-move reduction.
      MovePlan plan;
      if (selective_ && searched > 0) {
        plan = plan_move(w, m, picker.ordinal(), depth, ply, pv_node, in_check, eval, improving,
                         alpha, tt_move, kRoot || boxable ? false : best > -kMateInMaxPly);
        if (plan.skip) continue;
      }

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
        if (picker.deferred_stage()) ++w.stats[coordination::deferred_searches];
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
                       best, best_move, plan.reduce);
      else
        v = child(w, m, alpha, beta, m == tt_move ? depth + singular : depth, ply, pv_node,
                  searched == 0, only_if_free, KeepAlpha{}, plan.reduce);
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
            if (f_.histgravity && !pos.is_capture(m)) history_malus(w, quiets, quiet_count, depth);
            break;
          }
        }
      }
      if (f_.histgravity && !pos.is_capture(m) && quiet_count < int(quiets.size()))
        quiets[std::size_t(quiet_count++)] = m;

      // Step 8. Offer a split point: the node goes to the backend once the
      // eldest brother is done (after it, at every move: a thread may fall
      // idle while this node is half searched, and a later split point is all
      // the surer an ALL node).
      if constexpr (Hooks::kSplits) {
        ctx.alpha = alpha;
        ctx.best_value = best;
        ctx.best_move = best_move;
        ctx.moves_searched = searched;
        ctx.may_prune = !kRoot && !boxable && best > -kMateInMaxPly;
        if (hooks_.want_split(w, ctx)) {
          split_and_merge(w, ctx, alpha, best, best_move, searched);
          if (stopped(w)) return 0;
          break;
        }
      }
    }

    // Step 9. No legal move: mated (stalemate loses too in Xiangqi). A
    // singular-extension search without another legal move fails low.
    if (searched == 0) return excluded ? alpha : mated_in(ply);

    // Step 10. Store.
    if (f_.tt && !excluded) {
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
      return evaluate(pos, f_.knowledge);
    }
    ++w.stats.nodes;
    ++w.stats.qnodes;
    if (std::uint64_t(ply) >= w.stats.seldepth) w.stats.seldepth = std::uint64_t(ply) + 1;
    if (w.stats.nodes >= w.next_time_check) check_limits(w);
    if (stopped(w)) return 0;
    if (ply >= kMaxPly) return evaluate(pos, f_.knowledge);

    // Stand pat unless in check (then every evasion is searched).
    const bool in_check = pos.in_check();
    Value best = -kInfinite;
    if (!in_check) {
      best = evaluate(pos, f_.knowledge);
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
    }
    MovePicker picker(pos, w, f_);
    int searched = 0;
    for (Move m = picker.next(); m; m = picker.next()) {
      if (!pos.is_legal(m)) continue;
      // The modern profile skips captures that lose material (not evasions).
      if (f_.see && !in_check && !see_ge(pos, m, 0)) {
        ++w.stats.pruned_moves;
        continue;
      }
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
    ++w.stats[coordination::root_adoptions];
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
                   bool first, bool exclusive, Value alpha_orig, Value& best, Move& best_move,
                   Depth reduce) {
    if (first || !hooks_.retest_root() || !pvs())
      return child(w, m, alpha, beta, depth, 0, pv_node, first, exclusive, KeepAlpha{}, reduce);
    const auto adopt = [&](Worker& cw, Value& child_alpha, Value) {
      if (!adopt_root_best(cw, depth, alpha_orig, beta, alpha, best, best_move)) return false;
      ++cw.stats[coordination::root_retests];
      child_alpha = alpha;
      return child_alpha < beta;
    };
    return child(w, m, alpha, beta, depth, 0, pv_node, false, exclusive, adopt, reduce);
  }

  void defer(Worker& w, MovePicker& picker, Move m) {
    picker.defer(m);
    ++w.stats[coordination::deferrals];
  }

  // Once a move of the node was deferred, another thread may have finished
  // the node meanwhile: its stored result can cut the rest of the move loop
  // off (Kerrigan's "cutoff checks"). Not in exact mode, at the root or at
  // PVS's PV nodes, like every table cutoff.
  std::optional<Value> reprobe(Worker& w, Value beta, Depth depth, int ply) {
    const Depth from = hooks_.reprobe_depth();
    if (from == 0 || depth < from || ply == 0 || shared_.options.exact || !f_.tt)
      return std::nullopt;
    ++w.stats[coordination::cutoff_reprobes];
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
  // The entry found (plausible) is left in `entry`, with `hit` set.
  template <class Guard>
  std::optional<Value> probe_table(Worker& w, Value alpha, Value beta, Depth depth, int ply,
                                   bool full_width, bool exclusive, Move& tt_move, Guard& guard,
                                   TTData& entry, bool& hit) {
    const Position& pos = w.pos;
    TTData e;
    ++w.stats.tt_probes;
    if constexpr (Hooks::kClaimsNodes) {
      if (depth >= hooks_.claim_depth()) {
        const TTClaim c = claim(pos.key(), depth, exclusive, w.id);
        if (c.busy) {
          ++w.stats[coordination::busy_answers];
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
    entry = e;
    hit = true;
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

  // A table that keeps deep entries elsewhere (mpi-abdada's home ranks)
  // is told the node's depth with its claim.
  TTClaim claim(Key key, Depth depth, bool exclusive, int tid) {
    if constexpr (requires { tt_.claim(key, depth, exclusive, tid); })
      return tt_.claim(key, depth, exclusive, tid);
    else
      return tt_.claim(key, exclusive, tid);
  }

  // Step 5 of node(): null move with R = 2, R = 3 at depth >= 9 with a
  // material lead of at least 600; the caller has excluded check, the root,
  // a second null move in a row and PVS's PV nodes. Not tried when the side
  // to move has fewer than 3 attacking pieces (zugzwang danger) or stands
  // below beta. Returns the node's value when it cuts off (0 on a stop).
  std::optional<Value> try_null_move(Worker& w, Value beta, Depth depth, int ply) {
    Position& pos = w.pos;
    if (attackers(pos) < 3 || evaluate(pos, f_.knowledge) < beta) return std::nullopt;
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
  // leaves the line of a move that raised alpha in w.pv[ply]. A helper plans
  // each move as the node's own loop would (plan_move, from the node's state
  // in ctx); a pruned move returns -kInfinite, which improves nothing.
  void split_and_merge(Worker& w, SplitContext& ctx, Value& alpha, Value& best, Move& best_move,
                       int& searched) {
    hooks_.split(w, ctx, [this](Worker& hw, Move hm, int ordinal, Value a, const SplitContext& c) {
      if (hm == c.excluded) return -kInfinite;
      Depth reduce = 0;
      if (selective_) {
        const MovePlan plan = plan_move(hw, hm, ordinal, c.depth, c.ply, c.pv_node, c.in_check,
                                        c.static_eval, c.improving, a, c.tt_move, c.may_prune);
        if (plan.skip) return -kInfinite;
        reduce = plan.reduce;
      }
      return split_child(*this, hw, hm, a, c, reduce);
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

  // Whether the side not to move has only palace pieces left (no rook,
  // horse, cannon or pawn): it can be mated without check, by a quiet move
  // that leaves it no legal move.
  static bool boxable_opponent(const Position& pos) {
    const Color c = ~pos.side_to_move();
    return pos.count(c, PieceType::Rook) + pos.count(c, PieceType::Horse) +
               pos.count(c, PieceType::Cannon) + pos.count(c, PieceType::Pawn) ==
           0;
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
    if (f_.history) {
      if (f_.histgravity) w.add_history_gravity(m, history_bonus(depth));
      else w.add_history(m, depth);
    }
  }

  // ------------------------------------------------ the modern profile
  static int history_bonus(Depth depth) { return std::min(32 * depth * depth + 64 * depth, 2000); }

  // histgravity: the quiet moves searched before the one that cut off lose
  // what it gains.
  [[gnu::noinline]] void history_malus(Worker& w, const std::array<Move, 32>& quiets, int n, Depth depth) {
    if (!f_.history) return;
    for (int i = 0; i < n; ++i) w.add_history_gravity(quiets[std::size_t(i)], -history_bonus(depth));
  }

  // Late-move reductions by remaining depth and move ordinal, in plies:
  // (lmr_base + lmr_scale x ln d x ln n) / 100.
  void fill_reductions() {
    for (int d = 1; d < kLmrSize; ++d)
      for (int n = 1; n < kLmrSize; ++n)
        reductions_[std::size_t(d)][std::size_t(n)] = std::uint8_t(std::clamp(
            (t_.lmr_base + t_.lmr_scale * std::log(double(d)) * std::log(double(n))) / 100.0, 0.0,
            32.0));
  }

  struct MovePlan {
    bool skip = false;  // pruned: not searched
    Depth reduce = 0;   // late-move reduction of its first search
  };

  // Whether the side to move gives check with m (made and taken back).
  static bool gives_check(Position& pos, Move m) {
    pos.do_move(m);
    const bool check = pos.in_check();
    pos.undo_move(m);
    return check;
  }

  // Step 7a' of node() (and of a split point's helpers): whether to prune
  // move m, the ordinal-th of the node, and by how much to reduce it. Only
  // after the first move; `may_prune`: not at the root, and the best so far
  // is no mated score (so a node whose moves are all pruned does not claim a
  // mate). Moves that give check are never pruned (Xiangqi's quiet checks
  // are its mating moves), nor reduced (child()).
  // The modern profile's steps are kept out of the node function's body
  // (noinline): the thesis profile never calls them, and inlined they would
  // grow the hot loop it runs.
  [[gnu::noinline]] MovePlan plan_move(Worker& w, Move m, int ordinal, Depth depth, int ply, bool pv_node,
                     bool in_check, Value eval, bool improving, Value alpha, Move tt_move,
                     bool may_prune) {
    MovePlan plan;
    Position& pos = w.pos;
    const bool capture = pos.is_capture(m);
    const auto p = std::size_t(ply);
    const bool killer = w.killers[p][0] == m || w.killers[p][1] == m;
    if (f_.lmr && depth >= 3 && ordinal > 1 + int(pv_node) && !capture && !in_check &&
        m != tt_move) {
      int r = reductions_[std::size_t(std::min(depth, kLmrSize - 1))]
                         [std::size_t(std::min(ordinal, kLmrSize - 1))];
      if (pv_node) --r;
      if (killer) --r;
      if (!improving) ++r;
      if (f_.histgravity && f_.history)
        r -= w.history[index(m.from())][index(m.to())] / t_.lmr_history;
      plan.reduce = Depth(std::clamp(r, 0, depth - 2));
    }
    if (!may_prune || in_check || m == tt_move) return plan;
    const Depth lmr_depth = std::max(depth - 1 - plan.reduce, 0);
    bool prune = false;
    if (!capture) {
      if ((f_.lmp && depth <= t_.lmp_depth &&
           ordinal > (t_.lmp_base + depth * depth) / (2 - int(improving))) ||
          (!killer && ((f_.futility && lmr_depth <= t_.futility_depth &&
                        eval + t_.futility_base + t_.futility_per_depth * lmr_depth <= alpha) ||
                       (f_.see && lmr_depth <= 8 &&
                        !see_ge(pos, m, -t_.see_quiet * lmr_depth * lmr_depth)))))
        prune = !gives_check(pos, m);
    } else if (f_.see && depth <= 6 && !see_ge(pos, m, -t_.see_capture * depth)) {
      prune = !gives_check(pos, m);
    }
    if (prune) {
      plan.skip = true;
      ++w.stats.pruned_moves;
    }
    return plan;
  }

  // Steps 5a-5b of node(), at a non-PV node not in check: reverse futility
  // (the static value stands far enough above beta) and razoring (so far
  // below alpha that only a capture could help: quiescence decides).
  [[gnu::noinline]] std::optional<Value> static_cutoff(Worker& w, Value alpha, Value beta, Depth depth, int ply,
                                     Value eval, bool improving) {
    if (f_.rfp && depth <= t_.rfp_depth && eval < kMateInMaxPly && beta > -kMateInMaxPly &&
        eval - t_.rfp_margin * (depth - int(improving)) >= beta) {
      ++w.stats.static_cutoffs;
      return eval;
    }
    if (f_.razor && depth <= t_.razor_depth &&
        eval + t_.razor_margin + t_.razor_per_depth * depth <= alpha) {
      const Value v = qsearch(w, alpha, alpha + 1, ply);
      if (stopped(w)) return Value{0};
      if (v <= alpha) {
        ++w.stats.static_cutoffs;
        return v;
      }
    }
    return std::nullopt;
  }

  // Step 5d, nullplus: R = null_base + depth / null_depth_div + up to 3 more
  // as the static value exceeds beta. The guard against zugzwang, which in
  // Xiangqi comes with few attacking pieces: no null move without any rook,
  // horse or cannon, and a cutoff with fewer than 3 of them (or at depth >=
  // null_verify_depth) must be confirmed by a search of the node itself,
  // without null move, at the reduced depth.
  [[gnu::noinline]] std::optional<Value> try_null_move_plus(Worker& w, Value beta, Depth depth, int ply, Value eval) {
    Position& pos = w.pos;
    const int majors = attackers(pos);
    if (majors == 0 || eval < beta || beta <= -kMateInMaxPly) return std::nullopt;
    const Depth r = Depth(t_.null_base + depth / t_.null_depth_div +
                          std::min((eval - beta) / t_.null_eval_div, 3));
    ++w.stats.null_tries;
    pos.do_null_move();
    Value v = -node(w, -beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
    pos.undo_null_move();
    if (stopped(w)) return Value{0};
    if (v < beta) return std::nullopt;
    if (v >= kMateInMaxPly) v = beta;  // an unproven mate is not reported
    if (majors < 3 || depth >= t_.null_verify_depth) {
      const Value check = node(w, beta - 1, beta, std::max<Depth>(depth - r, 1), ply, false, false);
      if (stopped(w)) return Value{0};
      if (check < beta) return std::nullopt;
    }
    ++w.stats.null_cutoffs;
    return v;
  }

  // Step 5d', ProbCut: a capture that wins enough (SEE) and whose reduced
  // search (depth - 4) beats beta by probcut_margin cuts the node off. Its
  // own picker lives in this frame, not the node's.
  [[gnu::noinline]] std::optional<Value> probcut(Worker& w, Value beta, Depth depth, int ply, Value eval) {
    Position& pos = w.pos;
    const Value rbeta = std::min(beta + t_.probcut_margin, kMateInMaxPly - 1);
    MovePicker picker(pos, w, f_);  // captures (the node is not in check)
    int tried = 0;
    for (Move m = picker.next(); m && tried < 3; m = picker.next()) {
      if (!pos.is_legal(m) || !see_ge(pos, m, rbeta - eval)) continue;
      ++tried;
      pos.do_move(m);
      Value v = -qsearch(w, -rbeta, -rbeta + 1, ply + 1);
      if (v >= rbeta && !stopped(w)) v = -node(w, -rbeta, -rbeta + 1, depth - 4, ply + 1, false, true);
      pos.undo_move(m);
      if (stopped(w)) return Value{0};
      if (v >= rbeta) {
        ++w.stats.static_cutoffs;
        return v;
      }
    }
    return std::nullopt;
  }

  // Step 5f: the node is searched without its table move at half depth,
  // against a bound singular_margin x depth below the table's value. Below
  // it, the table move is singular and `extension` becomes 1 -- unless it
  // leads to a repetition (Xiangqi's back-and-forth shuffling would extend
  // forever), or the thread is already twice the iteration's depth deep.
  // Above it and at or above beta, several moves beat beta: the bound is
  // returned (multi-cut).
  [[gnu::noinline]] std::optional<Value> singular_search(Worker& w, Value beta, Depth depth, int ply, Move tt_move,
                                       const TTData& e, Depth& extension) {
    const Value ttv = value_from_tt(e.value, ply);
    if (e.depth < depth - 3 || std::abs(ttv) >= kMateInMaxPly ||
        (e.bound != Bound::Lower && e.bound != Bound::Exact) ||
        ply >= 2 * shared_.root_depth.load(std::memory_order_relaxed))
      return std::nullopt;
    const Value sbeta = ttv - t_.singular_margin * depth;
    const auto p = std::size_t(ply);
    w.excluded[p] = tt_move;
    const Value v = node(w, sbeta - 1, sbeta, (depth - 1) / 2, ply, false, false);
    w.excluded[p] = Move::none();
    if (stopped(w)) return Value{0};
    if (v < sbeta) {
      Position& pos = w.pos;
      pos.do_move(tt_move);
      const bool shuffles = pos.repetition() != Repetition::None;
      pos.undo_move(tt_move);
      if (!shuffles) {
        extension = 1;
        ++w.stats.singular_extensions;
      }
    } else if (sbeta >= beta) {
      ++w.stats.static_cutoffs;
      return sbeta;
    }
    return std::nullopt;
  }

  void check_limits(Worker& w) { check_search_limits(w, shared_, kNodeBatch); }

  static constexpr int kLmrSize = 64;

  Table& tt_;
  Hooks& hooks_;
  SearchShared& shared_;
  const Features f_;
  const SearchTuning t_;
  const bool selective_;  // any of the modern profile's pruning features
  std::array<std::array<std::uint8_t, kLmrSize>, kLmrSize> reductions_{};
};

}  // namespace xq
