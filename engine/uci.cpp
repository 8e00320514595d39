// UCI as the Xiangqi engines speak it (Pikafish, Fairy-Stockfish): the
// standard start FEN, moves in ICCS coordinates with ranks 0-9 ("h2e2").
#include <cmath>
#include <stdexcept>

#include "engine/protocol.h"
#include "engine/text.h"

namespace xq {
namespace {

std::string uci_option_line(const OptionSpec& s) {
  std::string l = "option name " + s.name + " type ";
  switch (s.type) {
    case OptionType::Spin:
      return l + "spin default " + s.default_value + " min " + std::to_string(s.min) + " max " +
             std::to_string(s.max);
    case OptionType::Check: return l + "check default " + s.default_value;
    case OptionType::Button: return l + "button";
    case OptionType::String: return l + "string default " + s.default_value;
    case OptionType::Combo:
      l += "combo default " + s.default_value;
      for (const std::string& c : s.choices) l += " var " + c;
      return l;
  }
  return l;
}

std::string score_text(const SearchResult& r) {
  if (const std::optional<int> m = r.mate()) return "mate " + std::to_string(*m);
  return "cp " + std::to_string(r.score);
}

std::string uci_info_line(const SearchResult& r) {
  const auto ms = std::int64_t(r.seconds * 1000.0);
  std::string l = "info depth " + std::to_string(r.depth) +
                  " seldepth " + std::to_string(std::max<std::uint64_t>(std::uint64_t(r.depth), r.stats.seldepth)) +
                  " score " + score_text(r) + " nodes " + std::to_string(r.stats.nodes.load()) +
                  " nps " + std::to_string(std::llround(r.nps()));
  if (r.hashfull >= 0) l += " hashfull " + std::to_string(r.hashfull);
  l += " time " + std::to_string(ms) + " pv";
  for (const Move m : r.pv) (l += ' ') += move_name(m);
  return l;
}

class Uci final : public Dialect {
 public:
  using Dialect::Dialect;

  bool handle(const Words& w) override {
    const std::string& c = w[0];
    try {
      if (c == "uci") identify();
      else if (c == "isready") ready();
      else if (c == "ucinewgame") engine_.new_game();
      else if (c == "setoption") set_option(w);
      else if (c == "position") set_position_command(engine_, w);
      else if (c == "go") go(w);
      else if (c == "stop") engine_.stop();
      else if (c == "ponderhit") engine_.stop();  // no pondering: answer now
      else if (c == "quit") return false;
      else out_.line("info string unknown command " + quoted(c) + " ignored");
    } catch (const std::invalid_argument& e) {
      out_.line("info string " + one_line(e.what()));
    }
    return true;
  }

 private:
  void identify() {
    out_.line("id name xqlab");
    out_.line("id author the xqlab authors");
    for (const OptionSpec& s : current_options(engine_)) out_.line(uci_option_line(s));
    out_.line("uciok");
  }

  void ready() {
    try {
      engine_.is_ready();
    } catch (const std::invalid_argument& e) {
      out_.line("info string " + one_line(e.what()));
    }
    out_.line("readyok");  // always: a GUI waiting for it must not hang
  }

  // setoption name N... [value V...]
  void set_option(const Words& w) {
    std::size_t value_at = w.size();
    for (std::size_t i = 2; i < w.size(); ++i)
      if (w[i] == "value") {
        value_at = i;
        break;
      }
    if (w.size() < 3 || w[1] != "name")
      throw std::invalid_argument("expected 'setoption name N [value V]'");
    engine_.set_option(join_words(w, 2, value_at), join_words(w, value_at + 1, w.size()));
  }

  static std::int64_t number_after(const Words& w, std::size_t& i) {
    if (i + 1 >= w.size()) throw std::invalid_argument("go: " + w[i] + " needs a value");
    const std::optional<std::int64_t> v = parse_int(w[++i]);
    if (!v || *v < 0)
      throw std::invalid_argument("go: " + w[i - 1] + " " + quoted(w[i]) +
                                  " is not a non-negative integer");
    return *v;
  }

  static GoLimits parse_go(const Words& w, std::vector<std::string>& remarks) {
    GoLimits g;
    GameClock red, black;
    bool red_clock = false, black_clock = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
      const std::string& k = w[i];
      if (k == "infinite") g.infinite = true;
      else if (k == "wtime") red.time_ms = number_after(w, i), red_clock = true;
      else if (k == "btime") black.time_ms = number_after(w, i), black_clock = true;
      else if (k == "winc") red.inc_ms = number_after(w, i);
      else if (k == "binc") black.inc_ms = number_after(w, i);
      else if (k == "movestogo") red.moves_to_go = black.moves_to_go = int(std::min<std::int64_t>(number_after(w, i), 1000));
      else if (k == "movetime") g.movetime_ms = number_after(w, i);
      else if (k == "depth") g.depth = Depth(std::min<std::int64_t>(number_after(w, i), kMaxDepth));
      else if (k == "nodes") g.nodes = std::uint64_t(number_after(w, i));
      else remarks.push_back("go: " + quoted(k) + " is not supported; ignored");
    }
    if (red_clock) g.red = red;
    if (black_clock) g.black = black;
    return g;
  }

  void go(const Words& w) {
    std::vector<std::string> remarks;
    const GoLimits limits = parse_go(w, remarks);
    for (const std::string& r : remarks) out_.line("info string " + one_line(r));
    SearchCallbacks cb;
    cb.on_iteration = [this](const SearchResult& r) { out_.line(uci_info_line(r)); };
    cb.on_info = [this](std::string_view text) { out_.line("info string " + one_line(text)); };
    cb.on_bestmove = [this](const SearchResult& r) {
      if (!r.best_move) return out_.line("bestmove (none)");
      std::string l = "bestmove " + move_name(r.best_move);
      if (r.pv.size() >= 2 && r.pv[0] == r.best_move) l += " ponder " + move_name(r.pv[1]);
      out_.line(l);
    };
    start(limits, std::move(cb), "info string go refused: ");
  }
};

}  // namespace

std::unique_ptr<Dialect> make_uci(Engine& engine, ProtocolOutput& out) {
  return std::make_unique<Uci>(engine, out);
}

}  // namespace xq
