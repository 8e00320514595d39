#include "engine/engine.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "board/movegen.h"
#include "engine/text.h"

namespace xq {
namespace {

// A game this long still leaves the search its kMaxPly plies of history.
constexpr std::size_t kMaxGameMoves = std::size_t(Position::kMaxHistory - kMaxPly - 8);

bool is_iccs(std::string_view text) {
  Square s;
  return text.size() == 4 && parse_square(text.substr(0, 2), s) &&
         parse_square(text.substr(2, 2), s);
}

void say(const SearchCallbacks& cb, const std::string& text) {
  if (cb.on_info) cb.on_info(text);
}

bool is_banned(const std::vector<Move>& banned, Move m) {
  return std::find(banned.begin(), banned.end(), m) != banned.end();
}

// Makes r.best_move a legal, unbanned move of pos whenever pos has one.
void settle_best_move(const Position& pos, const std::vector<Move>& banned, SearchResult& r,
                      const SearchCallbacks& cb) {
  const MoveList legal(pos);
  if (legal.size == 0) {
    r.best_move = Move::none();
    r.pv.clear();
    say(cb, "no legal move: the side to move has lost");
    return;
  }
  if (r.completed && legal.contains(r.best_move) && !is_banned(banned, r.best_move)) return;
  Move fallback = legal.moves[0];
  for (const Move m : legal)
    if (!is_banned(banned, m)) {
      fallback = m;
      break;
    }
  say(cb, std::string(r.completed ? "the search returned no legal move"
                                  : "no iteration completed") +
              "; playing the first legal move " + move_name(fallback));
  r.best_move = fallback;
  r.pv.clear();
}

class ForwardIterations final : public Observer {
 public:
  explicit ForwardIterations(const SearchCallbacks& cb) : cb_(cb) {}
  void on_iteration(const SearchResult& r) override {
    if (cb_.on_iteration) cb_.on_iteration(r);
  }

 private:
  const SearchCallbacks& cb_;
};

}  // namespace

Engine::Engine(const EngineOptions& options)
    : options_(options),
      backend_(make_backend(options.backend(), options.backend_config())),
      thread_([this] { thread_loop(); }) {}

Engine::~Engine() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    if (busy_ && stop_) stop_->store(true, std::memory_order_release);
  }
  cv_.notify_all();
  thread_.join();
}

void Engine::set_position(std::string_view fen, const std::vector<std::string>& moves) {
  Position pos;
  if (fen != "startpos") {
    const std::string error = pos.set_fen(fen);
    if (!error.empty()) throw std::invalid_argument(one_line("bad FEN: " + error));
  }
  if (moves.size() > kMaxGameMoves)
    throw std::invalid_argument("too many moves (" + std::to_string(moves.size()) +
                                ", at most " + std::to_string(kMaxGameMoves) + ")");
  std::vector<Move> applied;
  applied.reserve(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move m = pos.parse_move(moves[i]);
    if (!m)
      throw std::invalid_argument("move " + std::to_string(i + 1) + " " + quoted(moves[i]) +
                                  (is_iccs(moves[i]) ? " is illegal in its position"
                                                     : " is not a move in ICCS notation"));
    pos.do_move(m);
    applied.push_back(m);
  }
  std::lock_guard lock(mutex_);
  root_ = pos;
  moves_ = std::move(applied);
}

Position Engine::position() const {
  std::lock_guard lock(mutex_);
  return root_;
}

std::vector<Move> Engine::moves() const {
  std::lock_guard lock(mutex_);
  return moves_;
}

void Engine::set_option(std::string_view name, std::string_view value) {
  std::lock_guard lock(mutex_);
  EngineOptions next = options_;
  const OptionEffect effect = next.set(name, value);
  if (effect == OptionEffect::Rebuild) {
    if (busy_) {
      rebuild_pending_ = true;
    } else {  // built before anything changes, so a failure leaves all as it was
      replace_backend(next);
      rebuild_pending_ = clear_pending_ = false;
    }
  }
  if (effect == OptionEffect::Clear) clear_pending_ = true;
  options_ = std::move(next);
  if (!busy_) apply_pending();
}

EngineOptions Engine::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

void Engine::new_game() {
  std::lock_guard lock(mutex_);
  root_ = Position();
  moves_.clear();
  clear_pending_ = true;
  if (!busy_) apply_pending();
}

void Engine::replace_backend(const EngineOptions& next) {
  if (!backend_->exclusive()) {
    backend_ = make_backend(next.backend(), next.backend_config());
    return;
  }
  backend_.reset();
  try {
    backend_ = make_backend(next.backend(), next.backend_config());
  } catch (...) {
    backend_ = make_backend(options_.backend(), options_.backend_config());
    throw;
  }
}

void Engine::apply_pending() {
  // The evaluation's weights are the process's (board/eval.h): set them when
  // this engine's differ, before a backend forks its worker processes.
  if (!(eval_params() == options_.tunables().eval)) {
    set_eval_params(options_.tunables().eval);
    root_.refresh_eval();
    rebuild_pending_ = true;
  }
  if (!(knowledge_params() == options_.tunables().knowledge)) {
    set_knowledge_params(options_.tunables().knowledge);
    rebuild_pending_ = true;
  }
  if (rebuild_pending_) {
    replace_backend(options_);
    rebuild_pending_ = clear_pending_ = false;  // a new backend knows nothing yet
  }
  if (clear_pending_) {
    backend_->clear();
    clear_pending_ = false;
  }
}

SearchOptions Engine::search_options(const GoLimits& limits, const Position& pos) const {
  if (limits.depth < 0 || limits.depth > kMaxDepth)
    throw std::invalid_argument("depth " + std::to_string(limits.depth) + " is outside [0, " +
                                std::to_string(kMaxDepth) + "]");
  if (limits.movetime_ms < 0)
    throw std::invalid_argument("movetime " + std::to_string(limits.movetime_ms) +
                                " is negative");
  SearchOptions o;
  o.algorithm = limits.algorithm;
  o.features = limits.features ? *limits.features : options_.features();
  o.tuning = options_.tunables().search;
  o.exact = limits.exact;
  o.limits.depth = limits.depth;
  o.limits.nodes = limits.nodes;
  const MoveList legal(pos);
  for (const Move m : limits.banned_moves)
    if (legal.contains(m)) o.banned_root_moves.push_back(m);
  if (o.banned_root_moves.size() == std::size_t(legal.size)) o.banned_root_moves.clear();
  if (limits.infinite) return o;
  const std::int64_t overhead = options_.move_overhead_ms();
  const std::optional<GameClock>& clock =
      pos.side_to_move() == Color::Red ? limits.red : limits.black;
  if (limits.movetime_ms > 0)
    apply_budget(budget_for_movetime(limits.movetime_ms, overhead), o.limits);
  else if (clock)
    apply_budget(budget_for_clock(*clock, overhead), o.limits);
  return o;
}

void Engine::go(const GoLimits& limits, SearchCallbacks callbacks) {
  check_not_search_thread("go");
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return !busy_; });
  SearchOptions options = search_options(limits, root_);
  apply_pending();
  auto flag = std::make_shared<std::atomic<bool>>(false);
  options.stop_signal = flag.get();
  stop_ = flag;
  job_ = Job{root_, options, std::move(callbacks), std::move(flag)};
  busy_ = true;
  lock.unlock();
  cv_.notify_all();
}

void Engine::stop() {
  std::lock_guard lock(mutex_);
  if (busy_) stop_->store(true, std::memory_order_release);
}

void Engine::wait() {
  check_not_search_thread("wait");
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return !busy_; });
}

void Engine::is_ready() {
  std::lock_guard lock(mutex_);
  if (!busy_) apply_pending();
}

bool Engine::searching() const {
  std::lock_guard lock(mutex_);
  return busy_;
}

void Engine::check_not_search_thread(const char* what) const {
  if (std::this_thread::get_id() == thread_.get_id())
    throw std::logic_error(std::string("Engine::") + what + " called on the search thread");
}

void Engine::thread_loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    cv_.wait(lock, [this] { return job_.has_value() || quit_; });
    if (!job_) return;
    Job job = std::move(*job_);
    job_.reset();
    lock.unlock();
    run(job);
    lock.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

void Engine::run(Job& job) {
  const SearchCallbacks& cb = job.callbacks;
  ForwardIterations observer(cb);
  SearchResult r;
  try {
    r = backend_->search(job.pos, job.options, observer);
  } catch (const std::exception& e) {
    say(cb, std::string("search failed: ") + e.what());
    r = SearchResult{};
  }
  settle_best_move(job.pos, job.options.banned_root_moves, r, cb);
  if (cb.on_bestmove) cb.on_bestmove(r);
}

}  // namespace xq
