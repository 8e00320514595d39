// The facade a protocol (UCI, UCCI, xboard) or a match runner drives: the game
// position with its move history, the options, a Backend built from them, and
// one dedicated search thread. go() returns at once; the search reports each
// completed iteration and exactly one best move through callbacks, called on
// the search thread.
//
// Threading: every public member may be called from any thread except the
// search thread (a callback calling go() or wait() would wait for itself and
// gets std::logic_error instead). go() first waits for the previous search to
// deliver its best move, as a protocol sends "go" only after "bestmove".
// Changes that need an idle backend (Threads, Hash, Backend..., Clear Hash,
// new_game) are applied at once when no search runs, else before the next one.
//
// Stops are sticky per search: go() creates a fresh stop flag and passes it
// as SearchOptions::stop_signal, so a stop() that arrives before the backend
// has begun still ends that search at once, and a stop() after a search has
// ended touches only that finished search's flag, never the next one's.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "board/position.h"
#include "engine/options.h"
#include "parallel/backend.h"
#include "search/timeman.h"

namespace xq {

// What one "go" asks for. Depth and nodes always apply; the time comes from
// movetime if set, else from the side to move's clock, else there is none.
// `infinite` ignores both time sources (the search ends on stop(), depth or
// nodes).
struct GoLimits {
  Depth depth = 0;                // 0 = none
  std::uint64_t nodes = 0;        // 0 = none
  std::int64_t movetime_ms = 0;   // 0 = none; the move overhead is taken off
  std::optional<GameClock> red;   // UCI wtime/winc (+ movestogo)
  std::optional<GameClock> black; // UCI btime/binc (+ movestogo)
  bool infinite = false;
  Algorithm algorithm = Algorithm::Pvs;
  // Unset: the features of the engine's Profile option.
  std::optional<Features> features;
  bool exact = false;
  // Root moves not to play (UCCI "banmoves"); moves not legal there are
  // ignored. If every legal move is banned the ban is ignored.
  std::vector<Move> banned_moves;
};

// Called on the search thread, never two at once; they must not throw.
struct SearchCallbacks {
  std::function<void(const SearchResult&)> on_iteration;  // each completed iteration
  std::function<void(std::string_view)> on_info;          // a remark ("info string")
  // The final result. best_move is legal in the searched position, or
  // Move::none() only when that position has no legal move. When no iteration
  // completed (depth 0) it is the first legal move and on_info says so first.
  std::function<void(const SearchResult&)> on_bestmove;
};

class Engine {
 public:
  // Builds the backend the options name (throws std::invalid_argument if it
  // cannot be built) and starts the search thread, at the start position.
  explicit Engine(const EngineOptions& options = EngineOptions());
  // Stops a running search, lets it deliver its best move, joins the thread.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // `fen` is a FEN or "startpos"; `moves` are ICCS ("h2e2"), applied in order.
  // Throws std::invalid_argument naming the bad FEN or the first illegal or
  // malformed move (with its index); the position is then unchanged.
  void set_position(std::string_view fen, const std::vector<std::string>& moves);
  Position position() const;     // after the moves
  std::vector<Move> moves() const;

  // Validates and applies one option (EngineOptions::set); throws
  // std::invalid_argument with one line, leaving every option unchanged.
  void set_option(std::string_view name, std::string_view value);
  EngineOptions options() const;
  // A new game: the table and heuristics are cleared (before the next search
  // if one runs now) and the position is reset to the start.
  void new_game();

  // Starts searching the current position and returns at once. Throws
  // std::invalid_argument for negative or out-of-range limits.
  void go(const GoLimits& limits, SearchCallbacks callbacks);
  // Ends the running or just-requested search soon; a no-op when none runs.
  void stop();
  // Blocks until the current search (if any) has delivered its best move.
  void wait();
  // Returns at once, also during a search (a protocol then answers
  // "readyok"); when no search runs it first applies pending changes (a
  // backend rebuild can throw std::invalid_argument here).
  void is_ready();
  bool searching() const;

 private:
  struct Job {
    Position pos;
    SearchOptions options;
    SearchCallbacks callbacks;
    std::shared_ptr<std::atomic<bool>> stop;
  };

  void thread_loop();
  void run(Job& job);
  void apply_pending();  // mutex_ held, no search running
  // Replaces the backend by one built from `next` (mutex_ held, no search
  // running). The new one is built first, so that a failure leaves the old
  // in place, unless the old is exclusive (it holds the MPI ranks): then it
  // goes first, and a failure rebuilds it from the current options.
  void replace_backend(const EngineOptions& next);
  void check_not_search_thread(const char* what) const;
  SearchOptions search_options(const GoLimits& limits, const Position& pos) const;

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  // Guarded by mutex_.
  Position root_;
  std::vector<Move> moves_;
  EngineOptions options_;
  bool rebuild_pending_ = false;
  bool clear_pending_ = false;
  std::optional<Job> job_;     // handed to the search thread
  bool busy_ = false;          // from go() until the best move is delivered
  bool quit_ = false;
  std::shared_ptr<std::atomic<bool>> stop_;  // the latest search's flag
  // Replaced only while !busy_, used by the search thread only while busy_.
  std::unique_ptr<Backend> backend_;
  std::thread thread_;         // last: starts after everything above exists
};

}  // namespace xq
