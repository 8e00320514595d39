// UCCI, the Chinese GUIs' variant of UCI (UCCI 3.0): "ucci" -> "ucciok",
// "setoption NAME VALUE" with one-word names, "go time T increment I
// opptime T ..." with times in seconds unless "usemillisec" is on,
// "banmoves" (root moves the next search must not play), "bye" on quit,
// "nobestmove" when there is no move to play.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "board/movegen.h"
#include "engine/protocol.h"
#include "engine/text.h"

namespace xq {
namespace {

// A UCCI option name: the engine's name lowercase without blanks
// ("Move Overhead" -> "moveoverhead").
std::string ucci_name(std::string_view name) {
  std::string s;
  for (const char c : name)
    if (c != ' ') s += char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string option_line(const OptionSpec& s) {
  std::string l = "option " + ucci_name(s.name) + " type ";
  switch (s.type) {
    case OptionType::Spin:
      return l + "spin min " + std::to_string(s.min) + " max " + std::to_string(s.max) +
             " default " + s.default_value;
    case OptionType::Check: return l + "check default " + s.default_value;
    case OptionType::Button: return l + "button";
    case OptionType::String: return l + "string default " + s.default_value;
    case OptionType::Combo:
      l += "combo";
      for (const std::string& c : s.choices) l += " var " + c;
      return l + " default " + s.default_value;
  }
  return l;
}

std::string info_line(const SearchResult& r) {
  std::string l = "info depth " + std::to_string(r.depth) + " score " + std::to_string(r.score) +
                  " time " + std::to_string(std::int64_t(r.seconds * 1000.0)) + " nodes " +
                  std::to_string(r.stats.nodes.load()) + " nps " +
                  std::to_string(std::llround(r.nps())) + " pv";
  for (const Move m : r.pv) (l += ' ') += move_name(m);
  return l;
}

class Ucci final : public Dialect {
 public:
  using Dialect::Dialect;

  bool handle(const Words& w) override {
    const std::string& c = w[0];
    try {
      if (c == "ucci") identify();
      else if (c == "isready") ready();
      else if (c == "setoption") set_option(w);
      else if (c == "position") position(w);
      else if (c == "banmoves") ban(w);
      else if (c == "go") go(w);
      else if (c == "stop" || c == "ponderhit") engine_.stop();
      else if (c == "quit") return false;
      else out_.line("info string unknown command " + quoted(c) + " ignored");
    } catch (const std::invalid_argument& e) {
      out_.line("info string " + one_line(e.what()));
    }
    return true;
  }

  void finish() override {
    stop_and_wait();
    out_.line("bye");
  }

 private:
  void identify() {
    out_.line("id name xqlab");
    out_.line("id author the xqlab authors");
    out_.line("option usemillisec type check default false");
    out_.line("option newgame type button");
    for (const OptionSpec& s : current_options(engine_)) out_.line(option_line(s));
    out_.line("ucciok");
  }

  void ready() {
    try {
      engine_.is_ready();
    } catch (const std::invalid_argument& e) {
      out_.line("info string " + one_line(e.what()));
    }
    out_.line("readyok");
  }

  void set_option(const Words& w) {
    if (w.size() < 2) throw std::invalid_argument("expected 'setoption NAME [VALUE]'");
    const std::string name = ucci_name(w[1]);
    const std::string value = join_words(w, 2, w.size());
    if (name == "usemillisec") {
      if (value != "true" && value != "false")
        throw std::invalid_argument("option usemillisec: " + quoted(value) +
                                    " is not true or false");
      millis_ = value == "true";
      return;
    }
    if (name == "newgame") return engine_.new_game();
    for (const OptionSpec& s : EngineOptions::specs())
      if (ucci_name(s.name) == name) return engine_.set_option(s.name, value);
    const std::string hashsize = "hashsize";
    if (name == hashsize) return engine_.set_option("Hash", value);
    throw std::invalid_argument("unknown option " + quoted(w[1]) + " ignored");
  }

  void position(const Words& w) {
    set_position_command(engine_, w);
    banned_.clear();  // a ban holds for the position it was given in
  }

  void ban(const Words& w) {
    const Position pos = engine_.position();
    std::vector<Move> moves;
    for (std::size_t i = 1; i < w.size(); ++i) {
      const Move m = pos.parse_move(w[i]);
      if (!m) throw std::invalid_argument("banmoves: " + quoted(w[i]) + " is not a legal move; "
                                          "no move banned");
      moves.push_back(m);
    }
    int allowed = 0;
    for (const Move m : MoveList(pos)) allowed += std::find(moves.begin(), moves.end(), m) == moves.end();
    if (allowed == 0 && !moves.empty())
      throw std::invalid_argument("banmoves would ban every legal move; no move banned");
    banned_ = std::move(moves);
  }

  std::int64_t time_after(const Words& w, std::size_t& i) const {
    if (i + 1 >= w.size()) throw std::invalid_argument("go: " + w[i] + " needs a value");
    const std::optional<double> v = parse_number(w[++i]);
    if (!v || *v < 0 || *v > 1e12)
      throw std::invalid_argument("go: " + w[i - 1] + " " + quoted(w[i]) + " is not a time");
    return std::int64_t(millis_ ? *v : *v * 1000.0);
  }

  static std::int64_t count_after(const Words& w, std::size_t& i) {
    const std::optional<std::int64_t> v = i + 1 < w.size() ? parse_int(w[i + 1]) : std::nullopt;
    if (!v || *v < 0 || *v > std::int64_t(1) << 50)
      throw std::invalid_argument("go: " + w[i] + " needs a non-negative integer");
    ++i;
    return *v;
  }

  GoLimits parse_go(const Words& w) const {
    GoLimits g;
    GameClock own;
    bool clock = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
      const std::string& k = w[i];
      if (k == "ponder" || k == "draw") continue;  // no pondering, no draw offers
      if (k == "time") own.time_ms = time_after(w, i), clock = true;
      else if (k == "increment") own.inc_ms = time_after(w, i);
      else if (k == "movestogo") own.moves_to_go = int(std::min<std::int64_t>(count_after(w, i), 1000));
      else if (k == "opptime" || k == "oppincrement" || k == "oppmovestogo") time_after(w, i);
      else if (k == "infinite") g.infinite = true;
      else if (k == "depth" && i + 1 < w.size() && w[i + 1] == "infinite") g.infinite = true, ++i;
      else if (k == "depth") g.depth = Depth(std::min<std::int64_t>(count_after(w, i), kMaxDepth));
      else if (k == "nodes") g.nodes = std::uint64_t(count_after(w, i));
      else {
        throw std::invalid_argument("go: " + quoted(k) + " is not a UCCI go parameter");
      }
    }
    // The clock given is the side to move's, whichever colour that is.
    if (clock) g.red = g.black = own;
    return g;
  }

  void go(const Words& w) {
    GoLimits limits = parse_go(w);
    limits.banned_moves = banned_;
    SearchCallbacks cb;
    cb.on_iteration = [this](const SearchResult& r) { out_.line(info_line(r)); };
    cb.on_info = [this](std::string_view text) { out_.line("info string " + one_line(text)); };
    cb.on_bestmove = [this](const SearchResult& r) {
      if (!r.best_move) return out_.line("nobestmove");
      std::string l = "bestmove " + move_name(r.best_move);
      if (r.pv.size() >= 2 && r.pv[0] == r.best_move) l += " ponder " + move_name(r.pv[1]);
      out_.line(l);
    };
    start(limits, std::move(cb), "info string go refused: ");
  }

  bool millis_ = false;
  std::vector<Move> banned_;
};

}  // namespace

std::unique_ptr<Dialect> make_ucci(Engine& engine, ProtocolOutput& out) {
  return std::make_unique<Ucci>(engine, out);
}

}  // namespace xq
