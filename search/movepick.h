// Move ordering. A picker holds the pseudo-legal moves of one node, scored
// once, and hands them out best first by selection (most nodes cut off after
// one or two moves, so a full sort would be wasted). Order: the table move,
// then captures by MVV-LVA, then the two killers, then quiet moves by history.
// Each heuristic can be switched off; with all off, moves come in generation
// order. next() needs no position, so a split point can share one picker
// between threads under the split point's lock; callers test legality on
// their own position. A move handed out may be deferred: once every other
// move has been handed out, the deferred ones come back in the order they
// were deferred (the deferred stage, ABDADA's second pass). They are kept in
// the front of the array, whose moves have all been handed out already, so
// deferring costs no room.
#pragma once

#include <algorithm>
#include <cassert>
#include <vector>

#include "board/eval.h"
#include "board/movegen.h"
#include "search/options.h"
#include "search/worker.h"

namespace xq {

class MovePicker {
 public:
  // Main search: all moves.
  MovePicker(const Position& pos, const Worker& w, const Features& f, Move tt_move, int ply) {
    last_ = generate<GenType::All>(pos, moves_);
    score_all(pos, w, f, tt_move, ply);
  }
  // Quiescence: captures only, or every evasion when in check.
  MovePicker(const Position& pos, const Worker& w, const Features& f) {
    last_ = pos.in_check() ? generate<GenType::All>(pos, moves_)
                           : generate<GenType::Captures>(pos, moves_);
    score_all(pos, w, f, Move::none(), -1);
  }

  // An empty picker (a split point's copy of one, before it is filled).
  MovePicker() = default;
  // A copy hands out what the original would from here on: its cursors are
  // rebased onto its own arrays (a split of worker processes copies the
  // node's picker into shared memory).
  MovePicker(const MovePicker& o) { *this = o; }
  MovePicker& operator=(const MovePicker& o) {
    if (this == &o) return *this;
    const long n = o.last_ - o.moves_;
    std::copy(o.moves_, o.moves_ + n, moves_);
    std::copy(o.scores_, o.scores_ + n, scores_);
    cur_ = moves_ + (o.cur_ - o.moves_);
    last_ = moves_ + n;
    deferred_ = o.deferred_;
    next_deferred_ = o.next_deferred_;
    deferred_stage_ = o.deferred_stage_;
    return *this;
  }

  // Next move, best first, then the deferred moves; Move::none() when exhausted.
  Move next() {
    if (cur_ == last_) return next_deferred();
    Move* best = cur_;
    for (Move* m = cur_ + 1; m != last_; ++m)
      if (scores_[m - moves_] > scores_[best - moves_]) best = m;
    std::swap(*best, *cur_);
    std::swap(scores_[best - moves_], scores_[cur_ - moves_]);
    return *cur_++;
  }
  int size() const { return int(last_ - moves_); }
  // The place of the move next() handed out last, from 1: the moves of the
  // first pass in order, then the deferred ones after all of them.
  int ordinal() const {
    return deferred_stage_ ? size() + int(next_deferred_) : int(cur_ - moves_);
  }
  // Moves not handed out yet, deferred ones included.
  int remaining() const { return int(last_ - cur_) + int(deferred_ - next_deferred_); }

  // Drops the listed moves; only before the first next().
  void exclude(const std::vector<Move>& banned) {
    Move* kept = moves_;
    for (Move* m = moves_; m != last_; ++m) {
      if (std::find(banned.begin(), banned.end(), *m) != banned.end()) continue;
      scores_[kept - moves_] = scores_[m - moves_];
      *kept++ = *m;
    }
    last_ = kept;
  }

  // Puts aside m, the move just handed out, for the deferred stage. Not
  // allowed in the deferred stage itself (the second pass searches every move).
  void defer(Move m) {
    assert(!deferred_stage_ && deferred_ < cur_ - moves_);
    moves_[deferred_++] = m;
  }
  bool deferred_stage() const { return deferred_stage_; }
  bool has_deferred() const { return deferred_ > 0; }

 private:
  Move next_deferred() {
    if (next_deferred_ == deferred_) return Move::none();
    deferred_stage_ = true;
    return moves_[next_deferred_++];
  }

  static constexpr int kTtScore = 1 << 30;
  static constexpr int kCaptureBase = 1 << 29;
  static constexpr int kKillerBase = 1 << 28;

  void score_all(const Position& pos, const Worker& w, const Features& f, Move tt_move, int ply) {
    // The killers read once (their words are atomics: search/worker.h).
    const Move k0 = ply >= 0 ? w.killer(ply, 0) : Move::none();
    const Move k1 = ply >= 0 ? w.killer(ply, 1) : Move::none();
    for (Move* m = moves_; m != last_; ++m) {
      int s = 0;
      const Piece victim = pos.piece_on(m->to());
      if (f.ttmove && *m == tt_move) {
        s = kTtScore;
      } else if (victim != Piece::None && f.mvvlva) {
        const Piece attacker = pos.piece_on(m->from());
        s = kCaptureBase + piece_value(type_of(victim)) * 8 - index(type_of(attacker));
        if (type_of(victim) == PieceType::King) s += 1 << 20;
      } else if (ply >= 0 && f.killers && victim == Piece::None && (k0 == *m || k1 == *m)) {
        s = kKillerBase + (k0 == *m ? 1 : 0);
      } else if (f.history) {
        s = w.history_of(*m);
      }
      // Without any ordering, keep generation order (stable).
      scores_[m - moves_] = s == 0 ? -int(m - moves_) : s;
    }
  }

  Move moves_[kMaxMoves];
  int scores_[kMaxMoves];
  Move* cur_ = moves_;
  Move* last_ = moves_;
  long deferred_ = 0;       // deferred moves, in moves_[0, deferred_)
  long next_deferred_ = 0;  // the next one to hand out again
  bool deferred_stage_ = false;
};

}  // namespace xq
