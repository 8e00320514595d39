// An external UCI engine as a match player (lab/games/player.h).
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
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

// The number after `key` in an "info" line ("depth 12", "nodes 345"), if any.
template <class T>
std::optional<T> info_number(const std::vector<std::string>& w, const char* key) {
  if (w.size() > 1 && w[1] == "string") return std::nullopt;  // free text
  for (std::size_t i = 1; i + 1 < w.size(); ++i) {
    if (w[i] != key) continue;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(w[i + 1].c_str(), &end, 10);
    if (end == w[i + 1].c_str() || *end != '\0' || w[i + 1][0] == '-') return std::nullopt;
    return T(v);
  }
  return std::nullopt;
}

// One process's /proc/PID/stat fields from field 3 (state) on: the command
// name before them may hold spaces and parentheses. Empty when unreadable.
std::vector<std::string> stat_fields(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string text;
  if (!std::getline(in, text)) return {};  // it ended meanwhile
  const auto paren = text.rfind(')');
  if (paren == std::string::npos || paren + 2 > text.size()) return {};
  std::istringstream rest(text.substr(paren + 2));
  std::vector<std::string> f;
  for (std::string x; f.size() < 13 && rest >> x;) f.push_back(x);
  return f.size() == 13 ? f : std::vector<std::string>{};
}

// The processes of process group `group` (field 5, f[2]).
std::vector<std::string> group_members(pid_t group) {
  std::vector<std::string> out;
  DIR* proc = ::opendir("/proc");
  if (!proc) return out;
  while (const dirent* e = ::readdir(proc)) {
    const std::string name = e->d_name;
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const std::vector<std::string> f = stat_fields(name);
    if (!f.empty() && std::atol(f[2].c_str()) == long(group)) out.push_back(name);
  }
  ::closedir(proc);
  return out;
}

// User + system CPU seconds of `pids` (utime and stime, fields 14 and 15,
// in clock ticks; every thread of a process is in its counts); one that has
// ended counts no more.
double cpu_seconds_of(const std::vector<std::string>& pids) {
  const double tick = double(::sysconf(_SC_CLK_TCK));
  if (tick <= 0) return -1;
  double sum = 0;
  for (const std::string& pid : pids) {
    const std::vector<std::string> f = stat_fields(pid);
    if (!f.empty()) sum += double(std::atoll(f[11].c_str()) + std::atoll(f[12].c_str())) / tick;
  }
  return sum;
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
  void set_options(const std::vector<std::pair<std::string, std::string>>& options) override {
    for (const auto& [k, v] : options) {
      if (k.find('\n') != std::string::npos || v.find('\n') != std::string::npos)
        throw std::invalid_argument("engine " + name_ + ": an option holds a line break");
      bool replaced = false;
      for (auto& [ok, ov] : options_)
        if (ok == k) {
          ov = v;
          replaced = true;
        }
      if (!replaced) options_.emplace_back(k, v);
      if (child_ && child_->alive()) child_->send("setoption name " + k + " value " + v);
    }
    if (child_ && child_->alive()) {
      const std::string why = ready();
      if (!why.empty()) throw std::runtime_error("engine " + name_ + ": " + why);
    }
  }
  // The group's members are listed once per start of the engine (the first
  // call; /proc holds hundreds of processes), then only their counters are
  // read: an engine that starts processes while it searches is not followed.
  double cpu_seconds() override {
    if (!child_ || child_->pid() <= 0) return -1;
    if (members_.empty()) members_ = group_members(child_->pid());
    return members_.empty() ? -1 : cpu_seconds_of(members_);
  }

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
  std::vector<std::string> members_;  // the engine's process group, by pid
};

// Starts the engine: "uci" ... "uciok", the options, "isready" ... "readyok".
std::string UciPlayer::start() {
  child_.reset();
  members_.clear();
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
  else if (req.nodes > 0) go << "go nodes " << req.nodes;
  else if (req.movetime_ms > 0) go << "go movetime " << req.movetime_ms;
  else
    go << "go wtime " << req.red_ms << " btime " << req.black_ms << " winc " << req.red_inc_ms
       << " binc " << req.black_inc_ms;
  const auto start = Clock::now();
  const bool sent = child_ && child_->send(pos) && child_->send(go.str());
  bool stop_sent = false;
  std::string line;
  constexpr std::chrono::milliseconds kPoll{20};
  while (sent) {
    auto until = stop_sent ? deadline + grace : deadline;
    if (!stop_sent && req.should_stop) until = std::min(until, Clock::now() + kPoll);
    const auto st = child_->read_line(line, until);
    if (st == ChildProcess::ReadStatus::Closed) break;
    if (st == ChildProcess::ReadStatus::Timeout) {
      if (!stop_sent && req.should_stop && Clock::now() < deadline) {
        if (!req.should_stop()) continue;  // a poll, not the deadline
        reply.stopped = true;
        deadline = Clock::now();  // the grace for its best move starts now
      }
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
      if (auto d = info_number<int>(w, "depth")) reply.depth = d;
      if (auto n = info_number<std::uint64_t>(w, "nodes")) reply.nodes = n;
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
