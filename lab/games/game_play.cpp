// play_game (lab/games/game.h): the move loop, the clocks, forfeits and adjudication.
#include <cstdlib>

#include "lab/games/game.h"

namespace xq::lab::games {
namespace {

using Clock = std::chrono::steady_clock;

std::string forfeit(const Player& p, Color c, const std::string& why) {
  return p.name() + " (" + (c == Color::Red ? "red" : "black") + ") forfeits: " + why;
}

GameResult loss_for(Color c) { return c == Color::Red ? GameResult::BlackWins : GameResult::RedWins; }

}  // namespace

GameEnd Adjudicator::update(Color side, std::optional<int> score, int move_number) {
  const int s = index(side);
  if (!score) {
    losing_[s] = winning_[s] = drawish_[s] = 0;
    return {};
  }
  if (const auto& r = rules_.resign) {
    losing_[s] = *score <= -r->score ? losing_[s] + 1 : 0;
    winning_[s] = *score >= r->score ? winning_[s] + 1 : 0;
    for (Color c : {Color::Red, Color::Black})
      if (losing_[index(c)] >= r->movecount && winning_[index(~c)] >= r->movecount)
        return {c == Color::Red ? GameResult::BlackWins : GameResult::RedWins,
                "adjudicated: resign (" + std::string(c == Color::Red ? "red" : "black") +
                    " at or below -" + std::to_string(r->score) + " cp)"};
  }
  if (const auto& d = rules_.draw) {
    drawish_[s] = move_number >= d->movenumber && std::abs(*score) <= d->score ? drawish_[s] + 1 : 0;
    if (drawish_[0] >= d->movecount && drawish_[1] >= d->movecount)
      return {GameResult::Draw, "adjudicated: draw (|score| <= " + std::to_string(d->score) + " cp)"};
  }
  return {};
}

GameRecord play_game(Player& red, Player& black, const std::string& opening_name,
                     const Position& opening, const TimeControl& tc, const Adjudication& adj) {
  return play_game(red, black, opening_name, opening, tc, tc, adj);
}

GameRecord play_game(Player& red, Player& black, const std::string& opening_name,
                     const Position& opening, const TimeControl& red_tc,
                     const TimeControl& black_tc, const Adjudication& adj) {
  GameRecord rec{red.name(), black.name(), opening_name, opening.fen(), {}, {}, GameResult::None, ""};
  for (Color c : {Color::Red, Color::Black}) {
    Player& p = c == Color::Red ? red : black;
    if (const std::string why = p.new_game(); !why.empty()) {
      rec.result = loss_for(c);
      rec.reason = forfeit(p, c, "cannot start a game: " + why);
      return rec;
    }
  }
  Referee ref(opening);
  Adjudicator adjudicator(adj);
  std::int64_t left[2] = {red_tc.base_ms, black_tc.base_ms};
  GameEnd end = ref.judge();
  while (end.result == GameResult::None) {
    const Color us = ref.position().side_to_move();
    Player& p = us == Color::Red ? red : black;
    const TimeControl& tc = us == Color::Red ? red_tc : black_tc;
    MoveRequest req;
    req.fen = ref.base_fen();
    req.moves = ref.moves_since_base();
    req.side = us;
    req.movetime_ms = tc.movetime_ms;
    req.red_ms = left[0];
    req.black_ms = left[1];
    req.red_inc_ms = red_tc.inc_ms;
    req.black_inc_ms = black_tc.inc_ms;
    req.depth = tc.depth;
    req.nodes = tc.nodes;
    const std::int64_t allowed = tc.fixed_work()      ? tc.depth_hang_ms
                                 : tc.movetime_ms > 0 ? tc.movetime_ms
                                                      : left[index(us)];
    const auto deadline = Clock::now() + std::chrono::milliseconds(allowed + tc.margin_ms);
    const MoveReply reply = p.think(req, deadline, std::chrono::milliseconds(tc.grace_ms));
    const auto used = std::int64_t(reply.seconds * 1000);
    if (reply.status != MoveReply::Status::Move) {
      end = {loss_for(us), forfeit(p, us, reply.status == MoveReply::Status::Timeout
                                              ? "hangs: " + reply.detail
                                              : reply.detail)};
      break;
    }
    if (!tc.fixed_work() && used > allowed + tc.margin_ms) {
      end = {loss_for(us), forfeit(p, us, "loses on time (" + std::to_string(used) + " ms of " +
                                              std::to_string(allowed) + ")")};
      break;
    }
    const bool clocked = tc.clocked();
    if (clocked) left[index(us)] += tc.inc_ms - used;
    const Move m = ref.position().parse_move(reply.move);
    if (!m) {
      end = {loss_for(us), forfeit(p, us, "illegal move " + quote_input(reply.move))};
      break;
    }
    const int move_number = int(rec.moves.size()) / 2 + 1;
    rec.moves.push_back(move_name(m));
    rec.times.push_back({used, clocked ? left[index(us)] - tc.inc_ms : -1, reply.score_cp});
    end = ref.play(m);
    if (end.result == GameResult::None) end = adjudicator.update(us, reply.score_cp, move_number);
  }
  rec.result = end.result;
  rec.reason = end.reason;
  return rec;
}

}  // namespace xq::lab::games
