#include "lab/games/game.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "board/movegen.h"
#include "lab/common/text.h"
#include "lab/games/match_stats.h"

namespace xq::lab::games {
namespace {

using Clock = std::chrono::steady_clock;

int halfmove_of(const std::string& fen) {
  std::istringstream in(fen);
  std::string field;
  for (int i = 0; i < 5 && in >> field; ++i)
    if (i == 4) return std::stoi(field);
  return 0;
}

GameResult win_for(Color c) { return c == Color::Red ? GameResult::RedWins : GameResult::BlackWins; }
const char* color_name(Color c) { return c == Color::Red ? "red" : "black"; }

// Seconds with an optional "M:" prefix, as a count of milliseconds.
std::int64_t parse_seconds(const std::string& text, const std::string& whole) {
  std::size_t used = 0;
  double minutes = 0, seconds = 0;
  try {
    const auto colon = text.find(':');
    if (colon != std::string::npos) {
      minutes = std::stod(text.substr(0, colon), &used);
      if (used != colon) throw std::invalid_argument("");
      const std::string rest = text.substr(colon + 1);
      seconds = std::stod(rest, &used);
      if (used != rest.size()) throw std::invalid_argument("");
    } else {
      seconds = std::stod(text, &used);
      if (used != text.size()) throw std::invalid_argument("");
    }
  } catch (const std::exception&) {
    throw std::invalid_argument("time control '" + whole + "' is not BASE+INC in seconds (1+0.1)");
  }
  const double ms = (minutes * 60 + seconds) * 1000;
  if (!(ms >= 0 && ms < 1e9)) throw std::invalid_argument("time control '" + whole + "' is out of range");
  return std::int64_t(std::llround(ms));
}

// "key=value" words (or one word with spaces) into a callback per pair.
template <class F>
void for_each_pair(const std::vector<std::string>& words, const char* what, F&& f) {
  for (const std::string& s : option_items(words)) {
    const auto eq = s.find('=');
    const std::optional<int> v =
        eq == std::string::npos ? std::nullopt : common::whole_int(s.substr(eq + 1));
    if (!v || *v < 0)
      throw std::invalid_argument(std::string(what) + ": '" + s + "' is not KEY=N (N >= 0)");
    if (!f(s.substr(0, eq), *v)) throw std::invalid_argument(std::string(what) + ": unknown key '" + s.substr(0, eq) + "'");
  }
}

}  // namespace

std::string result_text(GameResult r) {
  switch (r) {
    case GameResult::RedWins: return "1-0";
    case GameResult::BlackWins: return "0-1";
    case GameResult::Draw: return "1/2-1/2";
    default: return "*";
  }
}

Referee::Referee(const Position& start) : pos_(start), base_fen_(start.fen()) {
  base_halfmove_ = halfmove_of(base_fen_);
  pos_.set_fen(base_fen_);  // the history starts here, as the engines see it
  keys_.push_back(pos_.key());
}

int Referee::no_capture_plies() const { return base_halfmove_ + int(tail_.size()); }

GameEnd Referee::play(Move m) {
  const bool capture = pos_.is_capture(m);
  pos_.do_move(m);
  if (capture) {  // a new base keeps the position's history short
    base_fen_ = pos_.fen();
    pos_.set_fen(base_fen_);
    base_halfmove_ = 0;
    tail_.clear();
    keys_.clear();
  } else {
    tail_.push_back(move_name(m));
  }
  keys_.push_back(pos_.key());
  return judge();
}

GameEnd Referee::judge() const {
  const Color us = pos_.side_to_move();
  if (MoveList(pos_).size == 0)
    return {win_for(~us), pos_.in_check() ? "checkmate" : "stalemate (no legal move)"};
  if (!keys_.empty() && std::count(keys_.begin(), keys_.end(), keys_.back()) >= 3) {
    switch (pos_.repetition()) {
      case Repetition::Win: return {win_for(us), std::string("perpetual check by ") + color_name(~us)};
      case Repetition::Loss: return {win_for(~us), std::string("perpetual check by ") + color_name(us)};
      default: return {GameResult::Draw, "threefold repetition"};
    }
  }
  if (no_capture_plies() >= kNoCaptureLimit)
    return {GameResult::Draw, std::to_string(kNoCaptureLimit) + " plies without a capture"};
  return {};
}

std::string TimeControl::text() const {
  if (depth > 0) return "depth=" + std::to_string(depth);
  if (nodes > 0) return "nodes=" + std::to_string(nodes);
  if (movetime_ms > 0) return "movetime=" + std::to_string(movetime_ms);
  auto secs = [](std::int64_t ms) {
    std::ostringstream o;
    o << double(ms) / 1000;
    return o.str();
  };
  return secs(base_ms) + "+" + secs(inc_ms);
}

TimeControl parse_time_control(const std::string& text) {
  const auto plus = text.find('+');
  TimeControl tc;
  tc.base_ms = parse_seconds(text.substr(0, plus), text);
  tc.inc_ms = plus == std::string::npos ? 0 : parse_seconds(text.substr(plus + 1), text);
  if (tc.base_ms <= 0) throw std::invalid_argument("time control '" + text + "' has no base time");
  return tc;
}

ResignRule parse_resign(const std::vector<std::string>& words) {
  ResignRule r;
  for_each_pair(words, "--resign", [&](const std::string& k, int v) {
    if (k == "movecount") r.movecount = v;
    else if (k == "score") r.score = v;
    else return false;
    return true;
  });
  return r;
}

DrawRule parse_draw(const std::vector<std::string>& words) {
  DrawRule r;
  for_each_pair(words, "--draw", [&](const std::string& k, int v) {
    if (k == "movenumber") r.movenumber = v;
    else if (k == "movecount") r.movecount = v;
    else if (k == "score") r.score = v;
    else return false;
    return true;
  });
  return r;
}

}  // namespace xq::lab::games
