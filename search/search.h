// The node function of the "hybrid PVS" engine: principal-variation search
// (or plain alpha-beta) with a transposition table, null move, MVV-LVA,
// killers, history, check extension and quiescence, each switchable.
//
// Search<Table, Hooks> is compiled once per (hash scheme, backend) pair. It is
// stateless apart from references to the shared table, the backend's hooks and
// the shared search state, so several threads can use one Search object, each
// passing its own Worker.
#pragma once

#include <atomic>
#include <chrono>

#include "board/eval.h"
#include "board/movegen.h"
#include "hashing/entry.h"
#include "search/hooks.h"
#include "search/movepick.h"
#include "search/options.h"
#include "search/worker.h"

namespace xq {

// State shared by every thread of one search; set up before threads start.
struct SearchShared {
  // Constant after set-up.
  SearchOptions options;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  // Mutable, touched by every thread.
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> nodes{0};  // flushed by workers in batches (node limit)

  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  }
  bool stopped() const { return stop.load(std::memory_order_relaxed); }
};

// Scores stored in the table are relative to the node, mate scores included:
// a mate found 3 plies below a node is stored as "mate in 3 from here".
constexpr Value value_to_tt(Value v, int ply) {
  return v >= kMateInMaxPly ? v + ply : v <= -kMateInMaxPly ? v - ply : v;
}
constexpr Value value_from_tt(Value v, int ply) {
  return v >= kMateInMaxPly ? v - ply : v <= -kMateInMaxPly ? v + ply : v;
}

// Scores of the simplified repetition rule: a perpetual checker loses, by a
// margin below every mate score so mate distances stay meaningful.
constexpr Value kRepetitionWin = kMateInMaxPly - 1;

template <class Table, class Hooks>
class Search {
 public:
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
  bool pvs() const { return shared_.options.algorithm == Algorithm::Pvs; }

  // True when this thread must unwind: global stop or a backend abort.
  bool stopped(const Worker& w) const { return shared_.stopped() || hooks_.aborted(w); }

  // Searches the child reached by m (already tested legal on w.pos) and
  // returns its value from this node's point of view. PVS: the first move
  // gets the full window, later ones a null window and a re-search when they
  // land inside (alpha, beta). `pv_node` marks the principal path: in PVS the
  // open-window nodes, in alpha-beta and MTD(f) the leftmost path (where the
  // PV-splitting backend splits); only PVS forbids table cutoffs and null
  // moves there.
  Value child(Worker& w, Move m, Value alpha, Value beta, Depth depth, int ply, bool pv_node,
              bool first) {
    w.pos.do_move(m);
    Value v;
    if (first || !pvs()) {
      v = -node(w, -beta, -alpha, depth - 1, ply + 1, pv_node && first, true);
    } else {
      v = -node(w, -alpha - 1, -alpha, depth - 1, ply + 1, false, true);
      if (v > alpha && v < beta && !stopped(w))
        v = -node(w, -beta, -alpha, depth - 1, ply + 1, true, true);
    }
    w.pos.undo_move(m);
    return v;
  }

  Value node(Worker& w, Value alpha, Value beta, Depth depth, int ply, bool pv_node,
             bool null_allowed) {
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
    if (ply > 0 && !shared_.options.exact) {
      switch (pos.repetition()) {
        case Repetition::Draw: return kDraw;
        case Repetition::Win: return kRepetitionWin - ply;
        case Repetition::Loss: return -kRepetitionWin + ply;
        case Repetition::None: break;
      }
    }

    // Step 4. Transposition table: move for ordering, cutoff outside exact
    // mode. A table move may hold any bits (torn or colliding entries), so it
    // is validated before use and counted when it fails.
    const Value alpha_orig = alpha;
    const bool full_width = pv_node && pvs();  // PVS keeps its PV nodes exact
    Move tt_move;
    if (f_.tt) {
      TTData e;
      ++w.stats.tt_probes;
      if (tt_.probe(pos.key(), e, w.id)) {
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
      }
    }

    // Step 5. Null move: R = 2, R = 3 at depth >= 9 with a material lead of
    // at least 600; never in check, at the root, twice in a row, or when the
    // side to move has fewer than 3 attacking pieces (zugzwang danger).
    const bool in_check = pos.in_check();
    if (f_.null && !full_width && !in_check && null_allowed && ply > 0 && depth >= 2 &&
        attackers(pos) >= 3 && evaluate(pos) >= beta) {
      const Color us = pos.side_to_move();
      const Depth r = depth >= 9 && pos.material(us) - pos.material(~us) >= 600 ? 3 : 2;
      ++w.stats.null_tries;
      pos.do_null_move();
      Value v = -node(w, -beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
      pos.undo_null_move();
      if (stopped(w)) return 0;
      if (v >= beta) {
        ++w.stats.null_cutoffs;
        return v >= kMateInMaxPly ? beta : v;  // an unproven mate is not reported
      }
    }

    // Step 6. Check extension: a node in check is searched one ply deeper.
    if (f_.checkext && in_check) ++depth;

    // Step 7. The move loop.
    MovePicker picker(pos, w, f_, tt_move, ply);
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
      if (!pos.is_legal(m)) continue;
      const Value v = child(w, m, alpha, beta, depth, ply, pv_node, searched == 0);
      ++searched;
      if (stopped(w)) return 0;
      if (v > best) {
        best = v;
        best_move = m;
        if (v > alpha) {
          alpha = v;
          update_pv(w, ply, m);
          if (v >= beta) {
            on_cutoff(w, m, depth, ply, searched == 1);
            break;
          }
        }
      }
      // Step 8. Offer the node to the backend once the eldest brother is done
      // (after it, at every move: a thread may fall idle while this node is
      // half searched, and a later split point is all the surer an ALL node).
      if constexpr (Hooks::kSplits) {
        ctx.alpha = alpha;
        ctx.best_value = best;
        ctx.best_move = best_move;
        ctx.moves_searched = searched;
        if (hooks_.want_split(w, ctx)) {
          hooks_.split(w, ctx, [this](Worker& hw, Move hm, Value a, const SplitContext& c) {
            return child(hw, hm, a, c.beta, c.depth, c.ply, c.pv_node, false);
          });
          if (stopped(w)) return 0;
          searched = std::max(searched, ctx.moves_searched);
          if (ctx.best_value > best) {
            best = ctx.best_value;
            best_move = ctx.best_move;
            if (best > alpha) alpha = best;  // split() left the line in w.pv[ply]
          }
          if (best >= beta) on_cutoff(w, best_move, depth, ply, false);
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

  // Every 1024 nodes: flush the node count, test the node and time limits
  // and the caller's stop signal.
  void check_limits(Worker& w) {
    static constexpr std::uint64_t kInterval = 1024;
    w.next_time_check = w.stats.nodes + kInterval;
    const Limits& lim = shared_.options.limits;
    const std::uint64_t total = shared_.nodes.fetch_add(kInterval, std::memory_order_relaxed);
    const std::atomic<bool>* signal = shared_.options.stop_signal;
    if ((lim.nodes && total + kInterval >= lim.nodes) ||
        (lim.movetime_ms && shared_.elapsed_ms() >= double(lim.movetime_ms)) ||
        (signal && signal->load(std::memory_order_acquire)))
      shared_.stop.store(true, std::memory_order_relaxed);
  }

  Table& tt_;
  Hooks& hooks_;
  SearchShared& shared_;
  const Features f_;
};

}  // namespace xq
