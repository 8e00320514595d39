// An external UCI engine as a match player (lab/games/player.h).
#include <memory>
#include <sstream>
#include <stdexcept>

#include "board/types.h"
#include "lab/games/player.h"
#include "lab/games/process.h"

namespace xq::lab::games {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The score of an "info" line, side to move's view; mate as +-(30000 - n).
std::optional<int> info_score(const std::vector<std::string>& w) {
  for (std::size_t i = 0; i + 2 < w.size(); ++i) {
    if (w[i] != "score") continue;
    try {
      const int v = std::stoi(w[i + 2]);
      if (w[i + 1] == "cp") return v;
      if (w[i + 1] == "mate") return v > 0 ? kMate - v : -kMate - v;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

class UciPlayer final : public Player {
 public:
  UciPlayer(const std::string& spec, const std::string& args, std::chrono::milliseconds handshake)
      : spec_(spec), handshake_(handshake) {
    std::stringstream in(args);
    std::string item;
    std::getline(in, item, ',');
    argv_ = words(item);
    if (argv_.empty()) throw std::invalid_argument("engine spec '" + spec + "' names no command");
    while (std::getline(in, item, ',')) {
      const auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument("engine spec '" + spec + "': '" + item + "' is not KEY=VALUE");
      const std::string k = item.substr(0, eq), v = item.substr(eq + 1);
      if (k == "name") name_ = v;
      else if (k == "ranks") {
        if (v != "0" && v != "1") throw std::invalid_argument("engine spec '" + spec + "': ranks must be 0 or 1");
        ranks_from_one_ = v == "1";
      } else options_.emplace_back(k, v);
    }
    const std::string why = start();
    if (!why.empty()) throw std::invalid_argument("engine '" + spec + "': " + why);
  }
  const std::string& name() const override { return name_; }
  const std::string& spec() const override { return spec_; }
  std::string new_game() override {
    if (!child_ || !child_->alive()) {
      const std::string why = start();
      if (!why.empty()) return why;
    }
    child_->send("ucinewgame");
    return ready();
  }
  MoveReply think(const MoveRequest& req, Clock::time_point deadline,
                  std::chrono::milliseconds grace) override;

 private:
  std::string start();
  std::string ready();
  std::string to_engine(const std::string& m) const {
    return *ranks_from_one_ ? ranks_from_one(m) : m;
  }

  std::string spec_, name_;
  std::vector<std::string> argv_;
  std::vector<std::pair<std::string, std::string>> options_;
  std::optional<bool> ranks_from_one_;
  std::chrono::milliseconds handshake_;
  std::unique_ptr<ChildProcess> child_;
};

// Starts the engine: "uci" ... "uciok", the options, "isready" ... "readyok".
std::string UciPlayer::start() {
  child_.reset();
  child_ = std::make_unique<ChildProcess>(argv_);
  child_->send("uci");
  const auto deadline = Clock::now() + handshake_;
  bool variant = false;
  std::string line, engine_name;
  for (;;) {
    const auto st = child_->read_line(line, deadline);
    if (st == ChildProcess::ReadStatus::Timeout) return "no 'uciok' within the handshake time";
    if (st == ChildProcess::ReadStatus::Closed) return "ended before 'uciok' (" + child_->exit_description() + ")";
    const auto w = words(line);
    if (w.size() >= 3 && w[0] == "id" && w[1] == "name") engine_name = line.substr(line.find("name") + 5);
    if (w.size() >= 3 && w[0] == "option" && w[1] == "name" && w[2] == "UCI_Variant") variant = true;
    if (!w.empty() && w[0] == "uciok") break;
  }
  if (name_.empty()) name_ = engine_name.empty() ? argv_[0] : engine_name;
  if (!ranks_from_one_) ranks_from_one_ = variant;
  if (variant) child_->send("setoption name UCI_Variant value xiangqi");
  for (const auto& [k, v] : options_) child_->send("setoption name " + k + " value " + v);
  return ready();
}

std::string UciPlayer::ready() {
  child_->send("isready");
  const auto deadline = Clock::now() + handshake_;
  std::string line;
  for (;;) {
    const auto st = child_->read_line(line, deadline);
    if (st == ChildProcess::ReadStatus::Timeout) return "no 'readyok' within the handshake time";
    if (st == ChildProcess::ReadStatus::Closed) return "ended before 'readyok' (" + child_->exit_description() + ")";
    if (line == "readyok") return "";
  }
}

MoveReply UciPlayer::think(const MoveRequest& req, Clock::time_point deadline,
                           std::chrono::milliseconds grace) {
  MoveReply reply;
  std::string pos = "position fen " + req.fen;
  if (!req.moves.empty()) pos += " moves";
  for (const std::string& m : req.moves) {
    pos += ' ';
    pos += to_engine(m);
  }
  std::ostringstream go;
  if (req.depth > 0) go << "go depth " << req.depth;
  else if (req.movetime_ms > 0) go << "go movetime " << req.movetime_ms;
  else
    go << "go wtime " << req.red_ms << " btime " << req.black_ms << " winc " << req.inc_ms
       << " binc " << req.inc_ms;
  const auto start = Clock::now();
  const bool sent = child_ && child_->send(pos) && child_->send(go.str());
  bool stop_sent = false;
  std::string line;
  while (sent) {
    const auto st = child_->read_line(line, stop_sent ? deadline + grace : deadline);
    if (st == ChildProcess::ReadStatus::Closed) break;
    if (st == ChildProcess::ReadStatus::Timeout) {
      if (stop_sent) {
        reply.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        reply.status = MoveReply::Status::Timeout;
        reply.detail = "no best move " + std::to_string(grace.count()) + " ms after the deadline; killed";
        child_->kill();
        return reply;
      }
      child_->send("stop");
      stop_sent = true;
      continue;
    }
    const auto w = words(line);
    if (w.empty()) continue;
    if (w[0] == "info") {
      if (auto s = info_score(w)) reply.score_cp = s;
    } else if (w[0] == "bestmove") {
      reply.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      const std::string raw = w.size() > 1 ? w[1] : "";
      const std::string m = *ranks_from_one_ ? ranks_from_zero(raw) : raw;
      reply.move = m.empty() ? raw : m;  // an unreadable move stays as sent
      return reply;
    }
  }
  reply.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  reply.status = MoveReply::Status::Crashed;
  if (child_) child_->kill();  // reaps, so the exit status is known
  reply.detail = "crashed (" + (child_ ? child_->exit_description() : std::string("not started")) + ")";
  return reply;
}

}  // namespace

std::unique_ptr<Player> make_uci_player(const std::string& spec, const std::string& args,
                                        std::chrono::milliseconds handshake) {
  return std::make_unique<UciPlayer>(spec, args, handshake);
}

}  // namespace xq::lab::games
