#!/usr/bin/env python3
"""Builds data/stratified.csv, a suite of real middlegames for the 2-thread
speedup figures, in two steps.

1. candidates (Fairy-Stockfish only; may run beside other work): from the
   openings of data/book.csv (the `tune` half and the `verdict` half alike,
   in file order), Fairy-Stockfish self-play (`go nodes N`, one thread, so
   the games repeat) continues each opening by PLIES + (k mod SPREAD) plies;
   the position is kept when Fairy-Stockfish scores it within MARGIN
   centipawns (not decided), it has legal moves and it is in no other suite
   of data/. The project's own engine plays no part in choosing them.

     scripts/make_stratified_suite.py candidates --count 96 > /tmp/candidates.csv

2. strata (a timing: run it on a quiet machine, nothing else running): each
   candidate is searched once by the serial engine at depth 10 (`xqlab
   search --depth 10 --json`, thesis profile, xor, 16 MiB); its time gives
   the size class (small < 3 s, large > 20 s, else medium), its share of
   quiescence nodes the quiescence class (q-heavy when the share is at or
   above the candidates' median). Each position goes to the `tune` or the
   `verdict` half by the SHA-256 of its FEN and the seed, so that the halves
   do not depend on the order of the rows.

     scripts/make_stratified_suite.py strata --xqlab build/xqlab /tmp/candidates.csv > data/stratified.csv

data/stratified.csv was made on 2026-12-03 by the two commands above (the
candidates 06:14-06:40 UTC beside a CI run, niced; the strata 06:59-07:07 UTC,
nothing else running, with build/xqlab of 6698ece, LTO, on a 2-core AMD EPYC VM:
2.71 M nodes/s over the 96 searches, 433 s in all). Its classes: small 50,
medium 42, large 4; q-heavy 48 (quiescence share >= 0.857); tune 46,
verdict 50. Large trees are rare in real middlegames at depth 10 (4 of 96):
per-class figures of the large class rest on 2 positions a half.

The strata hold on the host that made them (its serial speed is recorded in
the file's `serial_s` column and in the journal); on another host only the
ratios between positions carry over.
"""
import argparse
import csv
import hashlib
import json
import statistics
import subprocess
import sys
from pathlib import Path
from uci_engine import UciEngine

DATA = Path(__file__).resolve().parent.parent / "data"


def fens_of(path):
    with open(path, newline="") as f:
        return {" ".join(r["fen"].split()[:2]) for r in csv.DictReader(f)}


def candidates(a):
    eng = UciEngine(a.engine)

    seen = set()
    for p in sorted(DATA.glob("*.csv")):
        if p.name != "stratified.csv":  # its own output: a re-run makes the same rows
            seen |= fens_of(p)
    with open(DATA / "book.csv", newline="") as f:
        book = list(csv.DictReader(f))

    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["name", "opening", "plies", "cp", "fen"])
    made = 0
    for k, row in enumerate(book):
        if made >= a.count:
            break
        plies = a.plies + k % a.spread
        eng.send("ucinewgame")
        played, score = [], None
        for _ in range(plies + 1):
            best, cp = eng.go_nodes(f"fen {row['fen']} moves {' '.join(played)}".rstrip(), a.nodes)
            score = cp if cp is not None else score
            if len(played) >= plies or best in ("(none)", "0000"):
                break
            played.append(best)
        if score is None or abs(score) > a.margin or len(played) < plies:
            continue
        fen = eng.fen(f"fen {row['fen']} moves {' '.join(played)}")
        key = " ".join(fen.split()[:2])
        if key in seen:
            continue
        seen.add(key)
        made += 1
        out.writerow([f"stratified {made}", row["name"], len(played), score, fen])
        sys.stdout.flush()
    eng.send("quit")
    if made < a.count:
        sys.exit(f"only {made} candidates from {len(book)} openings")


def strata(a):
    with open(a.candidates, newline="") as f:
        rows = list(csv.DictReader(f))
    timed = []
    for r in rows:
        cmd = [a.xqlab, "search", "--fen", r["fen"], "--depth", str(a.depth), "--json"]
        res = subprocess.run(cmd, capture_output=True, text=True, check=True)
        d = json.loads(res.stdout)
        timed.append((r, d["seconds"], d["qnodes"] / max(1, d["nodes"]), d["nodes"]))
        print(f"{r['name']}: {d['seconds']:.2f} s, {d['nodes']} nodes", file=sys.stderr)
    q_median = statistics.median(q for _, _, q, _ in timed)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["name", "fen", "size", "quiescence", "half", "serial_s", "nodes", "qshare", "opening", "cp"])
    for r, s, q, n in timed:
        size = "small" if s < 3 else "large" if s > 20 else "medium"
        qclass = "q-heavy" if q >= q_median else "q-light"
        digest = hashlib.sha256(f"{a.seed}:{r['fen']}".encode()).digest()
        half = "tune" if digest[0] % 2 == 0 else "verdict"
        out.writerow([r["name"], r["fen"], size, qclass, half, f"{s:.3f}", n, f"{q:.4f}", r["opening"], r["cp"]])


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="step", required=True)
    c = sub.add_parser("candidates")
    c.add_argument("--count", type=int, default=96)
    c.add_argument("--plies", type=int, default=20)
    c.add_argument("--spread", type=int, default=21)
    c.add_argument("--nodes", type=int, default=20000)
    c.add_argument("--margin", type=int, default=300)
    c.add_argument("--engine", default="/usr/games/fairy-stockfish")
    s = sub.add_parser("strata")
    s.add_argument("candidates")
    s.add_argument("--xqlab", default="build/xqlab")
    s.add_argument("--depth", type=int, default=10)
    s.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    candidates(a) if a.step == "candidates" else strata(a)


if __name__ == "__main__":
    main()
