// The xboard/CECP protocol (version 2) for the variant "xiangqi", as XBoard
// 4.9 sends it: moves as "usermove h2e2" (files a-i, ranks 0-9, red on rank
// 0), answers "move h0g2"; clocks from "level"/"st"/"time" (centiseconds).
// A search that "new", "force", "result", "setboard", "undo" or "remove"
// interrupts ends without a move (the game it was for is gone); "?" and end
// of input end it with its move.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/protocol.h"
#include "engine/text.h"

namespace xq {
namespace {

std::string feature_option(const OptionSpec& s) {
  std::string l = "feature option=\"" + s.name + " ";
  switch (s.type) {
    case OptionType::Spin:
      return l + "-spin " + s.default_value + " " + std::to_string(s.min) + " " +
             std::to_string(s.max) + "\"";
    case OptionType::Check: return l + "-check " + (s.default_value == "true" ? "1" : "0") + "\"";
    case OptionType::Button: return l + "-button\"";
    case OptionType::String: return l + "-string " + s.default_value + "\"";
    case OptionType::Combo: {
      l += "-combo";
      for (std::size_t i = 0; i < s.choices.size(); ++i)
        l += std::string(i ? " /// " : " ") + (s.choices[i] == s.default_value ? "*" : "") +
             s.choices[i];
      return l + "\"";
    }
  }
  return l + "\"";
}

// "5", "0:30" or "1:30" (minutes, or minutes:seconds) in milliseconds.
std::optional<std::int64_t> base_time_ms(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::optional<double> min = parse_number(text.substr(0, colon));
  if (!min || *min < 0 || *min > 1e7) return std::nullopt;
  double sec = 0;
  if (colon != std::string_view::npos) {
    const std::optional<double> s = parse_number(text.substr(colon + 1));
    if (!s || *s < 0 || *s >= 60) return std::nullopt;
    sec = *s;
  }
  return std::int64_t(std::llround((*min * 60 + sec) * 1000));
}

class Xboard final : public Dialect {
 public:
  using Dialect::Dialect;

  bool handle(const Words& w) override {
    const std::string& c = w[0];
    try {
      if (c == "quit") return false;
      if (!game_command(w) && !clock_command(w) && !setting_command(w) && !quiet(c))
        out_.line("Error (unknown command): " + one_line(c));
    } catch (const std::invalid_argument& e) {
      out_.line("Error (" + one_line(e.what()) + "): " + one_line(join_words(w, 0, w.size())));
    }
    return true;
  }

 private:
  static bool quiet(const std::string& c) {
    static const char* const kIgnored[] = {"xboard", "accepted", "rejected", "random", "hard",
                                           "easy",   "computer", "name",     "rating", "ics",
                                           "draw",   "otim",     ".",        "white",  "black"};
    return std::any_of(std::begin(kIgnored), std::end(kIgnored), [&](const char* k) { return c == k; });
  }

  bool game_command(const Words& w) {
    const std::string& c = w[0];
    if (c == "protover") features();
    else if (c == "new") new_game();
    else if (c == "variant") variant(w);
    else if (c == "force" || c == "result") abandon(), force_ = true;
    else if (c == "go") force_ = false, engine_red_ = to_move_is_red(), think();
    else if (c == "?") engine_.stop();
    else if (c == "ping") out_.line("pong" + std::string(w.size() > 1 ? " " + w[1] : ""));
    else if (c == "usermove" && w.size() == 2) user_move(w[1]);
    else if (w.size() == 1 && c.size() == 4 && is_move_text(c)) user_move(c);
    else if (c == "setboard") set_board(join_words(w, 1, w.size()));
    else if (c == "undo" || c == "remove") take_back(c == "undo" ? 1 : 2);
    else return false;
    return true;
  }

  bool clock_command(const Words& w) {
    const std::string& c = w[0];
    if (c == "level" && w.size() == 4) level(w);
    else if (c == "st" && w.size() == 2) st_ms_ = seconds_ms(w[1], "st");
    else if (c == "sd" && w.size() == 2) sd_ = Depth(std::min<std::int64_t>(count(w[1], "sd"), kMaxDepth));
    else if (c == "time" && w.size() == 2) own_ms_ = count(w[1], "time") * 10;
    else return false;
    return true;
  }

  bool setting_command(const Words& w) {
    const std::string& c = w[0];
    if (c == "post") post_ = true;
    else if (c == "nopost") post_ = false;
    else if (c == "memory" && w.size() == 2) engine_.set_option("Hash", w[1]);
    else if (c == "cores" && w.size() == 2) engine_.set_option("Threads", w[1]);
    else if (c == "option" && w.size() >= 2) option(join_words(w, 1, w.size()));
    else return false;
    return true;
  }

  void features() {
    out_.line("feature done=0");
    out_.line("feature myname=\"xqlab\" variants=\"xiangqi\" usermove=1 setboard=1 ping=1 "
              "time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 memory=1 smp=1");
    for (const OptionSpec& s : current_options(engine_)) out_.line(feature_option(s));
    out_.line("feature done=1");
  }

  void new_game() {
    abandon();
    engine_.new_game();
    std::lock_guard lock(game_mutex_);
    start_fen_ = "startpos";
    moves_.clear();
    force_ = false;
    engine_red_ = false;
    sd_ = 0;
    own_ms_.reset();
  }

  void variant(const Words& w) {
    if (w.size() != 2 || w[1] != "xiangqi")
      out_.line("Error (unsupported variant): " + one_line(join_words(w, 1, w.size())));
  }

  static bool is_move_text(const std::string& t) {
    return t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9' && t[2] >= 'a' &&
           t[2] <= 'i' && t[3] >= '0' && t[3] <= '9';
  }

  bool to_move_is_red() const { return engine_.position().side_to_move() == Color::Red; }

  void user_move(const std::string& text) {
    if (thinking()) abandon();  // a move while thinking: the GUI moved for us
    {
      std::lock_guard lock(game_mutex_);
      std::vector<std::string> next = moves_;
      next.push_back(text);
      try {
        engine_.set_position(start_fen_, next);
      } catch (const std::invalid_argument&) {
        out_.line("Illegal move: " + one_line(text));
        return;
      }
      moves_ = std::move(next);
    }
    if (!force_ && to_move_is_red() == engine_red_) think();
  }

  void set_board(const std::string& fen) {
    abandon();
    std::lock_guard lock(game_mutex_);
    try {
      engine_.set_position(fen, {});
    } catch (const std::invalid_argument& e) {
      out_.line("tellusererror Illegal position: " + one_line(e.what()));
      return;
    }
    start_fen_ = fen;
    moves_.clear();
  }

  void take_back(std::size_t n) {
    abandon();
    std::lock_guard lock(game_mutex_);
    if (moves_.size() < n) throw std::invalid_argument("nothing to take back");
    moves_.resize(moves_.size() - n);
    engine_.set_position(start_fen_, moves_);
  }

  void option(const std::string& text) {
    const std::size_t eq = text.find('=');
    engine_.set_option(text.substr(0, eq), eq == std::string::npos ? "" : text.substr(eq + 1));
  }

  static std::int64_t count(const std::string& text, const char* what) {
    const std::optional<std::int64_t> v = parse_int(text);
    if (!v || *v < 0 || *v > std::int64_t(1) << 40)
      throw std::invalid_argument(std::string(what) + ": " + quoted(text) + " is not a count");
    return *v;
  }

  static std::int64_t seconds_ms(const std::string& text, const char* what) {
    const std::optional<double> v = parse_number(text);
    if (!v || *v < 0 || *v > 1e9)
      throw std::invalid_argument(std::string(what) + ": " + quoted(text) + " is not a time");
    return std::int64_t(std::llround(*v * 1000));
  }

  void level(const Words& w) {
    const std::int64_t mps = count(w[1], "level");
    const std::optional<std::int64_t> base = base_time_ms(w[2]);
    if (!base) throw std::invalid_argument("level: " + quoted(w[2]) + " is not a base time");
    inc_ms_ = seconds_ms(w[3], "level");
    mps_ = int(std::min<std::int64_t>(mps, 1000));
    base_ms_ = *base;
    st_ms_ = 0;
  }

  GoLimits limits() const {
    GoLimits g;
    g.depth = sd_;
    if (st_ms_ > 0) {
      g.movetime_ms = st_ms_;
      return g;
    }
    GameClock clock;
    clock.time_ms = own_ms_.value_or(base_ms_);
    clock.inc_ms = inc_ms_;
    if (mps_ > 0) clock.moves_to_go = mps_ - int((moves_.size() / 2) % std::size_t(mps_));
    g.red = g.black = clock;
    return g;
  }

  void think();
  // Ends a running search without playing its move.
  void abandon() {
    if (suppress_) suppress_->store(true, std::memory_order_release);
    stop_and_wait();
  }

  std::mutex game_mutex_;  // the game below; the search thread appends its move
  std::string start_fen_ = "startpos";
  std::vector<std::string> moves_;
  std::shared_ptr<std::atomic<bool>> suppress_;  // the latest search's "drop the move"
  // Read and written by the input thread only.
  bool force_ = false;
  bool engine_red_ = false;  // the engine plays black after "new"
  bool post_ = false;
  Depth sd_ = 0;
  std::int64_t st_ms_ = 0;
  int mps_ = 40;                             // XBoard's default control: 40 moves
  std::int64_t base_ms_ = 5 * 60 * 1000;     // in 5 minutes
  std::int64_t inc_ms_ = 0;
  std::optional<std::int64_t> own_ms_;       // from "time", centiseconds x 10
};

void Xboard::think() {
  GoLimits g;
  {
    std::lock_guard lock(game_mutex_);
    g = limits();
  }
  auto drop = std::make_shared<std::atomic<bool>>(false);
  suppress_ = drop;
  SearchCallbacks cb;
  const bool post = post_;
  cb.on_iteration = [this, post](const SearchResult& r) {
    if (!post) return;
    std::string l = std::to_string(r.depth) + " " + std::to_string(r.score) + " " +
                    std::to_string(std::int64_t(r.seconds * 100)) + " " +
                    std::to_string(r.stats.nodes.load());
    for (const Move m : r.pv) (l += ' ') += move_name(m);
    out_.line(l);
  };
  cb.on_info = [this, drop](std::string_view text) {
    if (!drop->load(std::memory_order_acquire)) out_.line("# " + one_line(text));
  };
  cb.on_bestmove = [this, drop](const SearchResult& r) {
    std::lock_guard lock(game_mutex_);
    if (drop->load(std::memory_order_acquire)) return;
    if (!r.best_move) {
      const bool red_lost = engine_.position().side_to_move() == Color::Red;
      return out_.line(red_lost ? "0-1 {red has no legal move}" : "1-0 {black has no legal move}");
    }
    moves_.push_back(move_name(r.best_move));
    try {
      engine_.set_position(start_fen_, moves_);  // legal: the engine just chose it
    } catch (const std::invalid_argument& e) {   // the game outgrew the history
      moves_.pop_back();
      out_.line("# " + one_line(e.what()));
    }
    out_.line("move " + move_name(r.best_move));
  };
  start(g, std::move(cb), "Error (cannot think): ");
}

}  // namespace

std::unique_ptr<Dialect> make_xboard(Engine& engine, ProtocolOutput& out) {
  return std::make_unique<Xboard>(engine, out);
}

}  // namespace xq
