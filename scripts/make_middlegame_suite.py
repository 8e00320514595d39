#!/usr/bin/env python3
"""Builds a held-out middlegame suite for `xqlab lab --suite`: each opening of
data/openings.csv continued by PLIES plies of Fairy-Stockfish self-play
(`go nodes N`, one thread, so the games are repeatable). The project's own
engine plays no part in choosing the positions.

Usage: scripts/make_middlegame_suite.py [--plies 16] [--nodes 20000]
           [--engine /usr/games/fairy-stockfish] > data/middlegames.csv
"""
import argparse
import csv
import re
import subprocess
import sys
from pathlib import Path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plies", type=int, default=16)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--openings", default=str(Path(__file__).resolve().parent.parent / "data/openings.csv"))
    a = ap.parse_args()

    eng = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(cmd):
        eng.stdin.write(cmd + "\n")
        eng.stdin.flush()

    def read_until(prefix):
        while True:
            line = eng.stdout.readline()
            if not line:
                sys.exit("engine exited")
            if line.startswith(prefix):
                return line.strip()

    send("uci"); read_until("uciok")
    send("setoption name UCI_Variant value xiangqi")
    send("setoption name Threads value 1")
    send("isready"); read_until("readyok")

    # Fairy-Stockfish numbers Xiangqi ranks 1..10 in UCI; ICCS uses 0..9.
    def to_iccs(m):
        f1, r1, f2, r2 = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m).groups()
        return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"

    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["name", "moves", "fen"])
    with open(a.openings, newline="") as f:
        for i, row in enumerate(csv.DictReader(f)):
            fen, played = row["fen"], []
            for _ in range(a.plies):
                send("ucinewgame")
                send(f"position fen {fen} moves {' '.join(played)}".rstrip())
                send(f"go nodes {a.nodes}")
                best = read_until("bestmove").split()[1]
                if best in ("(none)", "0000"):
                    break
                played.append(best)
            send(f"position fen {fen} moves {' '.join(played)}".rstrip())
            send("d")
            final = read_until("Fen:")[4:].strip()
            send("isready"); read_until("readyok")
            out.writerow([f"opening {i + 1} + {len(played)} plies", " ".join(to_iccs(m) for m in played), final])
    send("quit")


if __name__ == "__main__":
    main()
