// The text protocols a GUI or match tool speaks to the engine: UCI (as the
// Xiangqi engines Pikafish and Fairy-Stockfish speak it), UCCI and
// xboard/CECP. One command loop reads lines and hands each to the dialect
// the first line chose; each dialect lives in its own file (uci.cpp,
// ucci.cpp, xboard.cpp) and drives the Engine facade (engine/engine.h).
//
// Threading: the loop runs on the caller's thread; search results (info
// lines, the best move) are printed from the engine's search thread. Every
// line goes through one ProtocolOutput, which writes whole lines under a
// mutex and flushes each, so the two never interleave mid-line.
//
// Robustness: a malformed or illegal command gets one message line in the
// dialect's own form ("info string ...", "Illegal move: ...", "Error ...")
// and changes nothing; the loop goes on. End of input ends a running search
// and waits for its result to be printed, then returns.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace xq {

class ProtocolOutput {
 public:
  explicit ProtocolOutput(std::ostream& out) : out_(out) {}
  void line(std::string_view text);  // text + '\n', flushed

 private:
  std::mutex mutex_;
  std::ostream& out_;
};

using Words = std::vector<std::string>;

// Words separated by blanks (spaces, tabs, a trailing '\r').
Words split_words(std::string_view line);
// words[from..to) joined by single spaces.
std::string join_words(const Words& words, std::size_t from, std::size_t to);
// A whole decimal integer / number, or nullopt.
std::optional<std::int64_t> parse_int(std::string_view text);
std::optional<double> parse_number(std::string_view text);

// Every option with its current value as the default a GUI shows (the
// engine may start with options other than the built-in defaults).
std::vector<OptionSpec> current_options(const Engine& engine);

// "position startpos|fen F... [moves M...]" after the keyword, as UCI and
// UCCI share it. Sets the engine's position or throws std::invalid_argument
// (the position then stays as it was).
void set_position_command(Engine& engine, const Words& words);

// A dialect: the handlers of one protocol.
class Dialect {
 public:
  Dialect(Engine& engine, ProtocolOutput& out) : engine_(engine), out_(out) {}
  virtual ~Dialect() = default;
  Dialect(const Dialect&) = delete;
  Dialect& operator=(const Dialect&) = delete;

  // Handles one non-empty line split into words; false asks the loop to end.
  virtual bool handle(const Words& words) = 0;
  // Input ended or quit: ends a running search and waits until its result
  // has been printed (each dialect prints it as a normal result).
  virtual void finish();

 protected:
  // True from a go() until the search's result has been handed to the GUI.
  bool thinking() const { return thinking_.load(std::memory_order_acquire); }
  // Starts a search; `print_result` runs on the search thread after
  // thinking() has turned false. On a refused go it prints `refusal` + why.
  void start(const GoLimits& limits, SearchCallbacks callbacks, const std::string& refusal);
  // Stops a running search and waits until its result has been delivered.
  void stop_and_wait();

  Engine& engine_;
  ProtocolOutput& out_;

 private:
  std::atomic<bool> thinking_{false};
};

std::unique_ptr<Dialect> make_uci(Engine& engine, ProtocolOutput& out);
std::unique_ptr<Dialect> make_ucci(Engine& engine, ProtocolOutput& out);
std::unique_ptr<Dialect> make_xboard(Engine& engine, ProtocolOutput& out);

// The dialect a first command chooses: "ucci" and "xboard" name theirs;
// anything else means UCI (the default of Fairy-Stockfish too), and that
// first line is then handled as a UCI command.
enum class ProtocolKind : std::uint8_t { Uci, Ucci, Xboard };
ProtocolKind protocol_for(std::string_view first_command);

// Reads commands from `in` until "quit" or end of input and answers on
// `out`. The engine is built with `options` (throws std::invalid_argument
// when it cannot be). Returns the exit status: 0.
int run_protocol(std::istream& in, std::ostream& out, const EngineOptions& options = {});

}  // namespace xq
