#!/usr/bin/env python3
"""Builds a mate suite for `xqlab solve` with Fairy-Stockfish (Debian's
fairy-stockfish, an engine independent of xqlab) as the oracle.

From every position of the given suites, Fairy-Stockfish plays itself at
MOVETIME ms a move; the first position of each game where it reports a mate
in 2..MAX_N moves for the side to move is verified by a deeper search with
two principal variations (--verify-ms): it is kept when the first line is
still a mate in N and the second line is no mate or a slower one, so that the
solution move is the only one that mates fastest, and when a search of
depth --easy-depth (3) does not already play it, so that the position is not
solved by any search at all. Each game gives at most one position. Moves are written in ICCS (ranks 0-9; Fairy-Stockfish counts ranks
from 1). Output columns: name,moves,fen,solution,mate (mate = N, in moves).

Usage: make_mate_suite.py OUT.csv SUITE.csv... [--movetime MS] [--verify-ms MS]
       [--max-n N] [--plies P] [--easy-depth D] [--engine PATH]
       make_mate_suite.py OUT.csv --refilter IN.csv [--easy-depth D]  (the last test
       again, on a suite this script wrote)
"""
import argparse, csv, re, subprocess, sys


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci"); self.until("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")
        self.ready()

    def send(self, s):
        self.p.stdin.write(s + "\n"); self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("make_mate_suite.py: the engine exited")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready"); self.until("readyok")

    def go(self, fen, moves, ms, multipv=1):
        self.send(f"setoption name MultiPV value {multipv}")
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {ms}")
        lines = self.until("bestmove")
        best = lines[-1].split()[1]
        scores = {}
        for l in lines:
            m = re.search(r"multipv (\d+) score (cp|mate) (-?\d+).* pv (\S+)", l)
            if m and " depth " in l and "bound" not in l:
                scores[int(m.group(1))] = (m.group(2), int(m.group(3)), m.group(4))
        return best, scores

    def easy(self, fen, depth, solution):
        self.send("setoption name MultiPV value 1")
        self.send("ucinewgame"); self.ready()
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        return iccs(self.until("bestmove")[-1].split()[1]) == solution

    def fen(self, fen, moves):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        for l in self.until("Checkers"):
            if l.startswith("Fen: "):
                return l[5:].strip()
        sys.exit("make_mate_suite.py: no Fen line in the engine's display")


def iccs(move):  # Fairy-Stockfish's ranks 1-10 to ICCS's 0-9
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    if not m:
        sys.exit(f"make_mate_suite.py: unexpected move {move}")
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("suites", nargs="*")
    ap.add_argument("--movetime", type=int, default=60)
    ap.add_argument("--verify-ms", type=int, default=2000)
    ap.add_argument("--max-n", type=int, default=6)
    ap.add_argument("--plies", type=int, default=240)
    ap.add_argument("--easy-depth", type=int, default=3)
    ap.add_argument("--refilter")
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    e = Engine(a.engine)
    if a.refilter:
        with open(a.refilter) as f:
            rows = [r for r in csv.DictReader(f)]
        kept = [r for r in rows if not e.easy(r["fen"], a.easy_depth, r["solution"])]
        write(a.out, kept)
        print(f"{len(kept)} of {len(rows)} positions kept", file=sys.stderr)
        return
    starts = []
    for path in a.suites:
        with open(path) as f:
            for row in csv.DictReader(f):
                starts.append((row.get("name") or path, row["fen"]))
    rows, games = [], 0
    for name, start in starts:
        games += 1
        moves = []
        for ply in range(a.plies):
            best, scores = e.go(start, moves, a.movetime)
            if best in ("(none)", "0000"):
                break
            kind, value, _ = scores.get(1, ("cp", 0, best))
            if kind == "mate" and 2 <= value <= a.max_n:
                _, deep = e.go(start, moves, a.verify_ms, multipv=2)
                first, second = deep.get(1), deep.get(2)
                unique = second is None or second[0] != "mate" or second[1] <= 0 or second[1] > first[1]
                fen = e.fen(start, moves)
                if (first and first[0] == "mate" and first[1] == value and unique
                        and not e.easy(fen, a.easy_depth, iccs(first[2]))):
                    rows.append({"name": f"mate in {value}: {name}, ply {ply}", "moves": "",
                                 "fen": fen, "solution": iccs(first[2]), "mate": value})
                    write(a.out, rows)  # as found: an interrupted run keeps them
                    print(f"{len(rows)}: {rows[-1]['name']} {rows[-1]['solution']}", flush=True)
                break
            moves.append(best)
    write(a.out, rows)
    print(f"{len(rows)} positions from {games} games", file=sys.stderr)


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["name", "moves", "fen", "solution", "mate"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
