// Move generation against an independent engine: Fairy-Stockfish (Debian
// package fairy-stockfish, UCI with UCI_Variant xiangqi) counts perft on
// positions that no table holds — reached by seeded random playouts, so they
// include checks, pins by the facing kings and bare endgames — and its counts
// must equal ours. Skipped, with the reason, when the engine is not installed
// (XQLAB_FAIRY names another binary).
#include <gtest/gtest.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "board/movegen.h"

namespace xq {
namespace {

std::string fairy_path() {
  if (const char* p = std::getenv("XQLAB_FAIRY")) return access(p, X_OK) == 0 ? p : "";
  for (const char* p : {"/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"})
    if (access(p, X_OK) == 0) return p;
  return "";
}

// A UCI engine on two pipes; every read is bounded by the engine's answers
// (it always ends a perft with "Nodes searched").
class Engine {
 public:
  explicit Engine(const std::string& path) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[1]);
      close(from_child[0]);
      execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = fdopen(to_child[1], "w");
    out_ = fdopen(from_child[0], "r");
  }
  ~Engine() {
    if (in_) {
      send("quit");
      std::fclose(in_);
    }
    if (out_) std::fclose(out_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  bool ok() const { return pid_ > 0 && in_ && out_; }
  void send(const std::string& cmd) {
    std::fputs((cmd + "\n").c_str(), in_);
    std::fflush(in_);
  }
  // Reads lines until one starts with `prefix`; returns it ("" at EOF).
  std::string read_until(const std::string& prefix) {
    char buf[4096];
    while (std::fgets(buf, sizeof buf, out_)) {
      std::string line(buf);
      if (line.rfind(prefix, 0) == 0) return line;
    }
    return "";
  }

 private:
  pid_t pid_ = -1;
  std::FILE* in_ = nullptr;
  std::FILE* out_ = nullptr;
};

TEST(FairyOracle, PerftMatchesOnRandomPlayoutPositions) {
  const std::string path = fairy_path();
  if (path.empty())
    GTEST_SKIP() << "fairy-stockfish is not installed (apt-get install fairy-stockfish)";
  Engine fairy(path);
  ASSERT_TRUE(fairy.ok()) << "could not start " << path;
  fairy.send("uci");
  ASSERT_NE(fairy.read_until("uciok"), "") << path << " did not answer uci";
  fairy.send("setoption name UCI_Variant value xiangqi");
  fairy.send("isready");
  ASSERT_NE(fairy.read_until("readyok"), "");

  std::mt19937 rng(20261122);
  int compared = 0;
  while (compared < 40) {
    Position pos;
    const int plies = 4 + int(rng() % 140);
    for (int i = 0; i < plies; ++i) {
      const MoveList moves(pos);
      if (moves.size == 0) break;
      pos.do_move(moves.moves[rng() % unsigned(moves.size)]);
    }
    Position root;
    if (!root.set_fen(pos.fen()).empty()) continue;  // e.g. a position our FEN rules refuse
    const int depth = compared % 2 ? 3 : 2;
    fairy.send("position fen " + root.fen());
    fairy.send("go perft " + std::to_string(depth));
    const std::string line = fairy.read_until("Nodes searched");
    ASSERT_NE(line, "") << "no perft answer for " << root.fen();
    const std::uint64_t theirs = std::strtoull(line.substr(line.find(':') + 1).c_str(), nullptr, 10);
    EXPECT_EQ(perft(root, depth), theirs) << "perft " << depth << " of " << root.fen();
    ++compared;
  }
}

}  // namespace
}  // namespace xq
