#include "lab/games/player.h"

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "engine/engine.h"
#include "search/tunables.h"
#include "lab/games/process.h"

namespace xq::lab::games {
namespace {

using Clock = std::chrono::steady_clock;
using KeyValues = std::vector<std::pair<std::string, std::string>>;

// "k=v,k=v" -> pairs; throws on an item without '='.
KeyValues parse_pairs(const std::string& text, const std::string& spec) {
  KeyValues out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("engine spec '" + spec + "': '" + item + "' is not KEY=VALUE");
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

std::string& binary_override() {
  static std::string path;
  return path;
}

// The spec keys that name engine options, by the options' names.
std::string option_name(const std::string& key) {
  if (key == "backend") return "Backend";
  if (key == "hash") return "HashScheme";
  if (key == "threads") return "Threads";
  if (key == "hash_mb") return "Hash";
  if (key == "profile") return "Profile";
  if (key == "features") return "Features";
  return key;
}

// "xqlab-BACKEND-Tt", then the profile (when not thesis) or the Features
// option's list (when set).
std::string default_name(const EngineOptions& opt, const std::string& backend,
                         const std::string& threads) {
  std::string name = "xqlab-" + backend + "-" + threads + "t";
  const std::string features = opt.get("Features");
  if (features != "profile") name += "-" + features;
  else if (opt.profile() != "thesis") name += "-" + opt.profile();
  return name;
}

// Whether a spec sets evaluation weights (a parameters file or an "eval"
// tunable): such an engine needs a process of its own.
bool sets_eval(const KeyValues& kv) {
  for (const auto& [k, v] : kv) {
    if (k == "tunables") return true;
    const TunableParam* t = find_tunable(k);
    if (t != nullptr && t->sets_eval()) return true;
  }
  return false;
}

// The `uci:` arguments that run this xqlab engine in a child process: every
// option checked here first (a bad one is the spec's error, not a child's
// silence), the parameters file's values sent one by one.
std::string child_args(const std::string& spec, const KeyValues& kv) {
  EngineOptions opt;
  KeyValues sent;
  std::string name, backend = "serial", threads = "1";
  for (const auto& [k, v] : kv)
    if (k == "backend") {
      opt.set("Backend", backend = v);
      sent.emplace_back("Backend", v);
    }
  for (const auto& [k, v] : kv) {
    if (k == "backend") continue;
    if (k == "name") {
      name = v;
    } else if (k == "tunables") {
      Tunables t;
      try {
        t = load_tunables(v);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("engine spec '" + spec + "': " + e.what());
      }
      for (const TunableParam& p : tunable_params())
        if (p.get(t) != p.default_value()) {
          opt.set(p.name, std::to_string(p.get(t)));
          sent.emplace_back(std::string(p.name), std::to_string(p.get(t)));
        }
    } else {
      if (k == "threads") threads = v;
      opt.set(option_name(k), v);
      sent.emplace_back(option_name(k), v);
    }
  }
  if (name.empty()) name = default_name(opt, backend, threads) + "-tuned";
  std::string args = engine_binary() + " engine,name=" + name + ",ranks=0";
  for (const auto& [k, v] : sent) {
    if (k.find_first_of(",=") != std::string::npos || v.find_first_of(",=") != std::string::npos)
      throw std::invalid_argument("engine spec '" + spec + "': '" + k + "=" + v +
                                  "' cannot be passed on");
    args += "," + k + "=" + v;
  }
  return args;
}

std::optional<int> score_of(const SearchResult& r) {
  if (!r.completed || r.depth == 0) return std::nullopt;
  return r.score;
}

class XqlabPlayer final : public Player {
 public:
  XqlabPlayer(const std::string& spec, const std::string& args) : spec_(spec) {
    EngineOptions opt;
    const KeyValues kv = parse_pairs(args, spec);
    std::string backend = "serial", threads = "1";
    for (const auto& [k, v] : kv)  // the backend first: a scheme is checked against it
      if (k == "backend") opt.set("Backend", backend = v);
    for (const auto& [k, v] : kv) {
      if (k == "backend") continue;
      if (k == "name") {
        name_ = v;
        continue;
      }
      if (k == "threads") threads = v;
      opt.set(option_name(k), v);
    }
    if (name_.empty()) name_ = default_name(opt, backend, threads);
    engine_ = std::make_unique<Engine>(opt);
  }
  ~XqlabPlayer() override {
    // A search that never ended cannot be joined: leaving its engine behind
    // lets the match finish instead of hanging in the destructor.
    if (stuck_) static_cast<void>(engine_.release());
  }
  XqlabPlayer(const XqlabPlayer&) = delete;
  XqlabPlayer& operator=(const XqlabPlayer&) = delete;
  const std::string& name() const override { return name_; }
  const std::string& spec() const override { return spec_; }
  std::string new_game() override {
    if (stuck_) return "the engine did not finish its last search";
    engine_->new_game();
    return "";
  }
  MoveReply think(const MoveRequest& req, Clock::time_point deadline,
                  std::chrono::milliseconds grace) override;
  void set_options(const KeyValues& options) override {
    for (const auto& [k, v] : options) {
      const TunableParam* t = find_tunable(k);
      if (t != nullptr && t->sets_eval())
        throw std::invalid_argument("engine " + name_ + ": " + k +
                                    " is an evaluation weight: it needs an engine of its own "
                                    "process (an xqlab spec that sets one)");
      engine_->set_option(option_name(k), v);
    }
  }

 private:
  struct Shared {  // outlives a late callback
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::string move;
    std::optional<int> score;
  };
  std::string spec_, name_;
  std::unique_ptr<Engine> engine_;
  bool stuck_ = false;
};

MoveReply XqlabPlayer::think(const MoveRequest& req, Clock::time_point deadline,
                             std::chrono::milliseconds grace) {
  MoveReply reply;
  if (stuck_) {
    reply.status = MoveReply::Status::Timeout;
    reply.detail = "the engine did not finish its last search";
    return reply;
  }
  engine_->set_position(req.fen, req.moves);
  GoLimits limits;
  if (req.depth > 0) limits.depth = Depth(req.depth);
  else if (req.nodes > 0) limits.nodes = req.nodes;
  else if (req.movetime_ms > 0) limits.movetime_ms = req.movetime_ms;
  else {
    limits.red = GameClock{req.red_ms, req.red_inc_ms, 0};
    limits.black = GameClock{req.black_ms, req.black_inc_ms, 0};
  }
  auto shared = std::make_shared<Shared>();
  SearchCallbacks cb;
  cb.on_iteration = [shared](const SearchResult& r) {
    std::lock_guard lock(shared->m);
    shared->score = score_of(r);
  };
  cb.on_bestmove = [shared](const SearchResult& r) {
    std::lock_guard lock(shared->m);
    shared->move = r.best_move ? move_name(r.best_move) : "(none)";
    shared->done = true;
    shared->cv.notify_all();
  };
  const auto start = Clock::now();
  engine_->go(limits, cb);
  std::unique_lock lock(shared->m);
  if (!shared->cv.wait_until(lock, deadline, [&] { return shared->done; })) {
    lock.unlock();
    engine_->stop();
    lock.lock();
    shared->cv.wait_until(lock, deadline + grace, [&] { return shared->done; });
  }
  reply.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  reply.score_cp = shared->score;
  if (!shared->done) {
    stuck_ = true;  // the engine's thread is still inside the search
    reply.status = MoveReply::Status::Timeout;
    reply.detail = "no best move " + std::to_string(grace.count()) + " ms after the deadline";
  } else {
    reply.move = shared->move;
  }
  return reply;
}

}  // namespace

std::unique_ptr<Player> make_uci_player(const std::string& spec, const std::string& args,
                                        std::chrono::milliseconds handshake);

const std::string& engine_binary() {
  if (binary_override().empty()) {
    std::error_code ec;
    binary_override() = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec) throw std::runtime_error("cannot find this program's executable: " + ec.message());
  }
  return binary_override();
}

void set_engine_binary(std::string path) { binary_override() = std::move(path); }

std::vector<std::pair<std::string, std::string>> xqlab_spec_pairs(const std::string& spec) {
  if (spec.rfind("xqlab:", 0) != 0) return {};
  return parse_pairs(spec.substr(6), spec);
}

std::unique_ptr<Player> make_player(const std::string& spec, std::chrono::milliseconds handshake) {
  if (spec == "xqlab") return std::make_unique<XqlabPlayer>(spec, "");
  if (spec.rfind("xqlab:", 0) == 0) {
    const std::string args = spec.substr(6);
    const KeyValues kv = parse_pairs(args, spec);
    if (sets_eval(kv)) return make_uci_player(spec, child_args(spec, kv), handshake);
    return std::make_unique<XqlabPlayer>(spec, args);
  }
  if (spec.rfind("uci:", 0) == 0) return make_uci_player(spec, spec.substr(4), handshake);
  throw std::invalid_argument("engine spec '" + spec +
                              "' must start with 'xqlab' or 'uci:' (xqlab:backend=ybwc,threads=2 "
                              "or uci:/usr/games/fairy-stockfish)");
}

namespace {

// file letter + rank number; returns false unless the rank is in range.
bool split_square(const std::string& s, std::size_t& pos, char& file, int& rank, int lo, int hi) {
  if (pos >= s.size() || s[pos] < 'a' || s[pos] > 'i') return false;
  file = s[pos++];
  std::size_t digits = 0;
  rank = 0;
  while (pos < s.size() && digits < 2 && s[pos] >= '0' && s[pos] <= '9') {
    rank = rank * 10 + (s[pos++] - '0');
    ++digits;
  }
  return digits > 0 && rank >= lo && rank <= hi;
}

std::string shift_ranks(const std::string& m, int lo, int hi, int delta) {
  std::size_t pos = 0;
  char f1, f2;
  int r1, r2;
  if (!split_square(m, pos, f1, r1, lo, hi) || !split_square(m, pos, f2, r2, lo, hi) ||
      pos != m.size())
    return "";
  std::string out(1, f1);
  out += std::to_string(r1 + delta);
  out += f2;
  out += std::to_string(r2 + delta);
  return out;
}

}  // namespace

std::string ranks_from_one(const std::string& iccs) { return shift_ranks(iccs, 0, 9, 1); }
std::string ranks_from_zero(const std::string& one_based) {
  return shift_ranks(one_based, 1, 10, -1);
}

}  // namespace xq::lab::games
