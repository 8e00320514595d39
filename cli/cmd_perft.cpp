// xqlab perft: counts legal move paths to a depth, optionally per root move.
#include <chrono>
#include <cstdio>

#include "board/movegen.h"
#include "board/position.h"
#include "cli/args.h"
#include "cli/commands.h"

namespace xq::cli {

Position parse_position_arg(const std::string& fen) {
  Position pos;
  if (fen.empty()) throw UsageError("--fen is required (a FEN string or 'startpos')");
  if (fen == "startpos") return pos;
  if (const std::string err = pos.set_fen(fen); !err.empty()) throw UsageError(err);
  return pos;
}

int cmd_perft(const Argv& argv) {
  const Args args(argv, {"fen", "depth"}, {"divide", "json"});
  Position pos = parse_position_arg(args.get("fen"));
  if (!args.has("depth")) throw UsageError("--depth is required");
  const int depth = int(args.get_int("depth", 0, 1, 12));
  const bool json = args.has("json");

  const auto start = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  if (args.has("divide")) {
    for (Move m : MoveList(pos)) {
      pos.do_move(m);
      const std::uint64_t n = perft(pos, depth - 1);
      pos.undo_move(m);
      nodes += n;
      if (!json) std::printf("%s: %llu\n", move_name(m).c_str(), static_cast<unsigned long long>(n));
    }
  } else {
    nodes = perft(pos, depth);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double nps = seconds > 0 ? double(nodes) / seconds : 0.0;
  if (json) {
    std::printf("{\"fen\": \"%s\", \"depth\": %d, \"nodes\": %llu, \"seconds\": %.6f, \"nps\": %.0f}\n",
                json_escape(pos.fen()).c_str(), depth, static_cast<unsigned long long>(nodes),
                seconds, nps);
  } else {
    std::printf("nodes %llu\ntime %.3f s\nnps %.0f\n", static_cast<unsigned long long>(nodes),
                seconds, nps);
  }
  return 0;
}

}  // namespace xq::cli
