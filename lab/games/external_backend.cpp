#include "lab/games/external_backend.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "lab/games/player.h"

namespace xq::lab::games {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// The spec as the match's players take it, without the lab's own key
// "depth=N" (stored in `depth`). Its KEY=VALUE items must leave Threads and
// Hash to the lab.
std::string player_spec(const std::string& spec, int& depth) {
  if (!common::is_external_engine(spec))
    throw std::invalid_argument("engine '" + spec + "': expected uci:COMMAND[,KEY=VALUE...]");
  std::stringstream in(spec);
  std::string item, out;
  std::getline(in, item, ',');  // the command
  out = item;
  while (std::getline(in, item, ',')) {
    const std::string key = lower(item.substr(0, item.find('=')));
    if (key == "threads" || key == "hash")
      throw std::invalid_argument("engine '" + spec + "': the lab sets " + item.substr(0, item.find('=')) +
                                  " itself (--threads, --hash-mb)");
    if (key == "depth") {
      const std::string v = item.find('=') == std::string::npos ? "" : item.substr(item.find('=') + 1);
      char* end = nullptr;
      const long d = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || d < 1 || d > 255)
        throw std::invalid_argument("engine '" + spec + "': depth must be 1..255, got '" + v + "'");
      depth = int(d);
      continue;
    }
    out += "," + item;
  }
  return out;
}

class ExternalBackend final : public Backend {
 public:
  ExternalBackend(const std::string& spec, const BackendConfig& c) : spec_(spec), config_(c) {
    const std::string plain = player_spec(spec, depth_);
    config_.hash = "own";
    player_ = make_player(plain + ",Threads=" + std::to_string(c.threads) +
                          ",Hash=" + std::to_string(c.hash_mib));
    if (const std::string why = player_->new_game(); !why.empty())
      throw std::invalid_argument("engine '" + spec + "': " + why);
    (void)player_->cpu_seconds();  // lists its processes now, outside the timed search
  }

  std::string_view name() const override { return spec_; }
  const BackendConfig& config() const override { return config_; }

  SearchResult search(const Position& pos, const SearchOptions& o, Observer&) override {
    stop_.store(false);
    MoveRequest req;
    req.fen = pos.fen();
    req.side = pos.side_to_move();
    if (depth_ > 0 && (o.limits.depth > 0 || o.limits.movetime_ms == 0)) req.depth = depth_;
    else if (o.limits.depth > 0) req.depth = o.limits.depth;
    else if (o.limits.movetime_ms > 0) req.movetime_ms = o.limits.movetime_ms;
    else throw std::invalid_argument("engine '" + spec_ + "': a search needs a depth or a move time");
    req.should_stop = [this, &o] {
      return stop_.load(std::memory_order_relaxed) ||
             (o.stop_signal && o.stop_signal->load(std::memory_order_relaxed));
    };
    const double cpu0 = player_->cpu_seconds();
    // No deadline of its own: a depth takes what it takes; stop() ends it.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::hours(24 * 365);
    const MoveReply reply = player_->think(req, deadline, std::chrono::seconds(5));
    const double cpu1 = player_->cpu_seconds();
    if (reply.status != MoveReply::Status::Move)
      throw std::runtime_error("engine '" + spec_ + "': " + reply.detail);
    SearchResult r;
    r.best_move = pos.parse_move(reply.move);
    if (!r.best_move)
      throw std::runtime_error("engine '" + spec_ + "' sent best move '" + reply.move +
                               "', not a legal move in " + pos.fen());
    r.pv = {r.best_move};
    r.score = Value(reply.score_cp.value_or(0));
    r.depth = Depth(reply.depth.value_or(0));
    r.completed = !reply.stopped;
    r.stopped = reply.stopped;
    r.seconds = reply.seconds;
    r.stats.nodes = reply.nodes.value_or(0);
    if (cpu0 >= 0 && cpu1 >= cpu0) r.stats.helper_cpu_seconds = cpu1 - cpu0;
    return r;
  }

  void stop() override { stop_.store(true, std::memory_order_relaxed); }
  void clear() override { (void)player_->new_game(); }

 private:
  std::string spec_;
  BackendConfig config_;
  std::unique_ptr<Player> player_;
  int depth_ = 0;  // "depth=N" in the spec: its own depth instead of the search's
  std::atomic<bool> stop_{false};
};

}  // namespace

std::unique_ptr<Backend> make_external_backend(const std::string& spec, const BackendConfig& c) {
  return std::make_unique<ExternalBackend>(spec, c);
}

}  // namespace xq::lab::games
