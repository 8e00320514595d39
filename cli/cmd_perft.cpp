// xqlab perft: counts legal move paths to a depth, optionally per root move.
// Deep counts (beyond kProgressDepth) print each root move as it finishes,
// and Ctrl-C ends them cleanly.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <unistd.h>

#include "board/perft_divide.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/usage_error.h"
#include "lab/common/progress.h"
#include "lab/records/json.h"

namespace xq::cli {
namespace {

constexpr int kMaxPerftDepth = 12;
// From a full board, depth 8 takes minutes: show progress from there on.
constexpr int kProgressDepth = 7;

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_sigint(int) { g_interrupted.store(true, std::memory_order_relaxed); }

struct PerftArgs {
  std::string fen;
  int depth = 0;
  bool divide = false, json = false, quiet = false;
};

int run(const PerftArgs& a) {
  const Position pos = parse_position_arg(a.fen);
  const bool progress = a.divide || a.depth > kProgressDepth;
  // In JSON mode stdout holds the one document; progress goes to stderr.
  std::FILE* out = a.json ? stderr : stdout;
  // Off a terminal the root-move lines are the progress; on one, an updating
  // line on stderr adds the time left.
  const bool bar = progress && !a.quiet && isatty(fileno(stderr));
  std::optional<lab::common::Progress> line;
  auto on_move = [&](const PerftResult& r) {
    if (!progress) return;
    if (bar && !line)
      line.emplace("perft", r.root_moves, lab::common::Progress::Mode::terminal, stderr);
    const auto& [m, n] = r.divide.back();
    if (line) line->clear();
    std::fprintf(out, "%s: %llu\n", move_name(m).c_str(), static_cast<unsigned long long>(n));
    std::fflush(out);
    if (line) line->done("depth " + std::to_string(a.depth) + ", root move " + move_name(m));
  };
  g_interrupted.store(false);
  const auto previous = std::signal(SIGINT, on_sigint);
  const PerftResult r = perft_divide(pos, a.depth, g_interrupted, on_move);
  // An interrupted count keeps the flag-only handler until the process ends:
  // a second SIGINT (timeout(1) forwards one to the child and another to its
  // process group; a user presses Ctrl-C twice) must not kill the process
  // before it has said where it stopped.
  if (!r.interrupted) std::signal(SIGINT, previous);
  if (line) line->clear();
  if (r.interrupted)
    throw Interrupted("interrupted after " + std::to_string(r.divide.size()) + " of " +
                      std::to_string(r.root_moves) + " root moves (" + std::to_string(r.nodes) +
                      " nodes counted)");
  if (a.json) {
    print_json(Json(r));
  } else {
    std::printf("nodes %llu\ntime %.3f s\nnps %.0f\n", static_cast<unsigned long long>(r.nodes),
                r.seconds, r.nps());
  }
  return 0;
}

}  // namespace

Command add_perft(CLI::App& root) {
  auto a = std::make_shared<PerftArgs>();
  CLI::App* app = root.add_subcommand("perft", "count legal move paths (the move generator's proof)");
  add_fen_option(app, a->fen);
  app->add_option("--depth", a->depth, "plies")->required()->check(CLI::Range(1, kMaxPerftDepth));
  app->add_flag("--divide", a->divide, "print the count of every root move as it finishes");
  app->add_flag("--json", a->json, "one JSON object on stdout");
  app->add_flag("--quiet", a->quiet, "no progress line on a terminal");
  return {app, [a] { return run(*a); }};
}

}  // namespace xq::cli
