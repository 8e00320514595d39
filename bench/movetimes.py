#!/usr/bin/env python3
"""Time use per engine in an `xqlab match` results file (JSON lines with
move_ms and clock_ms per game, as `--results FILE` writes them): moves, mean,
median, p99 and longest move in ms, and the least time an engine had left
when its move arrived. Usage: bench/movetimes.py RESULTS.jsonl"""
import json
import statistics
import sys


def main(path):
    used, left = {}, {}
    games = 0
    with open(path) as f:
        for line in f:
            g = json.loads(line)
            if "header" in g or "move_ms" not in g:
                continue
            games += 1
            red_first = g["fen"].split()[1] != "b"
            for i, (u, c) in enumerate(zip(g["move_ms"], g["clock_ms"])):
                red = (i % 2 == 0) == red_first
                name = g["red"] if red else g["black"]
                used.setdefault(name, []).append(u)
                if c >= 0:
                    left.setdefault(name, []).append(c)
    if not games:
        sys.exit(f"movetimes.py: no game with move times in {path}")
    print(f"{games} games")
    for name, u in used.items():
        s = sorted(u)
        least = f"{min(left[name])} ms" if name in left else "- (fixed time per move)"
        print(f"{name}: moves {len(u)}, mean {statistics.mean(u):.0f} ms, median "
              f"{statistics.median(u):.0f}, p99 {s[int(0.99 * (len(s) - 1))]}, max {s[-1]}; "
              f"least left when moving {least}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
