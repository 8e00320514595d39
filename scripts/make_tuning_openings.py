#!/usr/bin/env python3
"""Builds opening suites for the tuners (`xqlab evolve` / `xqlab spsa`
--openings) and a disjoint held-out suite to verify their results on: from
the start position, RANDOM plies drawn uniformly among the legal moves
(seeded), then PLIES plies of Fairy-Stockfish self-play (`go nodes N`, one
thread); kept when Fairy-Stockfish scores the position within MARGIN
centipawns of level (its own units) and its FEN is new. Fixed-depth games
between two fixed engines replay the same game from the same opening, so a
tuner and a verification match need many openings, not the lab's sixteen.
The project's own engine plays no part in choosing the positions.

With --book, each row also records the balance check (`cp`: Fairy-Stockfish's
score, side to move, at the last ply) and its half (`half`: tune or verdict,
by the SHA-256 of the FEN and the seed, so that the halves do not depend on
the order of the rows): the games' book, data/book.csv.

Usage: scripts/make_tuning_openings.py --count 400 --seed 1 [--random 4]
           [--plies 6] [--nodes 20000] [--margin 80] [--exclude FILE...]
           [--engine /usr/games/fairy-stockfish] [--book] > data/tuning_openings.csv
"""
import argparse
import csv
import hashlib
import random
import re
import sys
from uci_engine import UciEngine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--random", type=int, default=4)
    ap.add_argument("--plies", type=int, default=6)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--margin", type=int, default=80)
    ap.add_argument("--exclude", nargs="*", default=[])
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--book", action="store_true")
    ap.add_argument("--name", default="tuning")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seen = set()
    for path in a.exclude:
        with open(path, newline="") as f:
            seen.update(" ".join(r["fen"].split()[:2]) for r in csv.DictReader(f))

    eng = UciEngine(a.engine)
    send, read_until = eng.send, eng.read_until

    def to_iccs(m):  # Fairy-Stockfish numbers Xiangqi ranks 1..10; ICCS 0..9
        f1, r1, f2, r2 = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m).groups()
        return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"

    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["name", "moves", "fen"] + (["cp", "half"] if a.book else []))
    made = tries = 0
    while made < a.count:
        tries += 1
        if tries > 50 * a.count:
            sys.exit(f"only {made} openings after {tries} tries")
        played = []
        for _ in range(a.random):
            send(f"position startpos moves {' '.join(played)}".rstrip())
            send("go perft 1")
            moves = [l.split(":")[0] for l in read_until("Nodes searched") if re.fullmatch(r"[a-i]\d+[a-i]\d+: \d+", l)]
            if not moves:
                break
            played.append(rng.choice(sorted(moves)))
        score = None
        for _ in range(a.plies + 1):
            send("ucinewgame")
            best, cp = eng.go_nodes(f"startpos moves {' '.join(played)}", a.nodes)
            score = cp if cp is not None else score
            if len(played) >= a.random + a.plies or best in ("(none)", "0000"):
                break
            played.append(best)
        if score is None or abs(score) > a.margin:
            continue
        fen = eng.fen(f"startpos moves {' '.join(played)}")
        key = " ".join(fen.split()[:2])
        if key in seen:
            continue
        seen.add(key)
        made += 1
        row = [f"{a.name} {a.seed}-{made}", " ".join(to_iccs(m) for m in played), fen]
        if a.book:
            digest = hashlib.sha256(f"{a.seed}:{fen}".encode()).digest()
            row += [score, "tune" if digest[0] % 2 == 0 else "verdict"]
        out.writerow(row)
        sys.stdout.flush()
    send("quit")


if __name__ == "__main__":
    main()
