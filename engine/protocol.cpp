#include "engine/protocol.h"

#include <charconv>
#include <cstdint>
#include <iostream>
#include <istream>
#include <ostream>
#include <stdexcept>

#include "engine/text.h"
#include "parallel/slice.h"

namespace xq {

void ProtocolOutput::line(std::string_view text) {
  std::lock_guard lock(mutex_);
  out_ << text << '\n';
  out_.flush();
}

Words split_words(std::string_view line) {
  Words words;
  std::size_t i = 0;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

std::string join_words(const Words& words, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to && i < words.size(); ++i) s += (s.empty() ? "" : " ") + words[i];
  return s;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_number(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(v == v))
    return std::nullopt;
  return v;
}

std::vector<OptionSpec> current_options(const Engine& engine) {
  const EngineOptions now = engine.options();
  std::vector<OptionSpec> specs = EngineOptions::specs();
  for (OptionSpec& s : specs)
    if (s.type != OptionType::Button) s.default_value = now.get(s.name);
  return specs;
}

void set_position_command(Engine& engine, const Words& words) {
  std::size_t moves_at = words.size();
  for (std::size_t i = 1; i < words.size(); ++i)
    if (words[i] == "moves") {
      moves_at = i;
      break;
    }
  std::string fen;
  if (words.size() >= 2 && words[1] == "startpos" && moves_at == 2) {
    fen = "startpos";
  } else if (words.size() >= 3 && words[1] == "fen" && moves_at > 2) {
    fen = join_words(words, 2, moves_at);
  } else {
    throw std::invalid_argument("expected 'position startpos|fen FEN [moves M...]', got " +
                                quoted(join_words(words, 0, words.size())));
  }
  const std::vector<std::string> moves(words.begin() + std::ptrdiff_t(std::min(moves_at + 1, words.size())),
                                       words.end());
  engine.set_position(fen, moves);
}

void Dialect::finish() { stop_and_wait(); }

void Dialect::start(const GoLimits& limits, SearchCallbacks callbacks,
                    const std::string& refusal) {
  if (thinking()) {
    out_.line(refusal + "a search is running; stop it first");
    return;
  }
  // The flag turns false before the result is printed, so a GUI that
  // answers the result with a new "go" at once is never refused.
  auto print = std::move(callbacks.on_bestmove);
  callbacks.on_bestmove = [this, print](const SearchResult& r) {
    thinking_.store(false, std::memory_order_release);
    if (print) print(r);
  };
  thinking_.store(true, std::memory_order_release);
  try {
    engine_.go(limits, std::move(callbacks));
  } catch (const std::invalid_argument& e) {
    thinking_.store(false, std::memory_order_release);
    out_.line(refusal + one_line(e.what()));
  }
}

void Dialect::stop_and_wait() {
  engine_.stop();
  engine_.wait();
}

ProtocolKind protocol_for(std::string_view first_command) {
  if (first_command == "ucci") return ProtocolKind::Ucci;
  if (first_command == "xboard") return ProtocolKind::Xboard;
  return ProtocolKind::Uci;
}

namespace {

// Asks the scheduler for a short time slice for the calling thread (the
// reader of the protocol's input). With every core running a search thread,
// Linux's EEVDF scheduler (6.6+) lets a woken thread wait for the running
// one's slice or the next tick, which held "stop" up by up to ~13 ms at 2
// threads on 2 cores; since 6.12 a thread with a shorter slice preempts on
// wake-up. Threads created later (the search threads) keep the default
// slice. Elsewhere the request is refused or ignored, which is harmless.
void request_short_slice() { set_thread_slice(kShortSliceNs); }

}  // namespace

int run_protocol(std::istream& in, std::ostream& out, const EngineOptions& options) {
  // An input stream tied to the output flushes it before each read, outside
  // ProtocolOutput's lock, racing the search thread's writes (std::cin is
  // tied to std::cout): every line is flushed as written instead.
  in.tie(nullptr);
  ProtocolOutput output(out);
  // Declared before the engine, so it outlives the search thread whose
  // callbacks call into it.
  std::unique_ptr<Dialect> dialect;
  Engine engine(options);
  if (&in == &std::cin) request_short_slice();
  std::string line;
  while (std::getline(in, line)) {
    const Words words = split_words(line);
    if (words.empty()) continue;
    if (!dialect) {
      switch (protocol_for(words[0])) {
        case ProtocolKind::Uci: dialect = make_uci(engine, output); break;
        case ProtocolKind::Ucci: dialect = make_ucci(engine, output); break;
        case ProtocolKind::Xboard: dialect = make_xboard(engine, output); break;
      }
    }
    if (!dialect->handle(words)) break;
  }
  if (dialect) dialect->finish();
  return 0;
}

}  // namespace xq
