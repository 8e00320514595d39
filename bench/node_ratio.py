#!/usr/bin/env python3
"""Paired node comparison of two backends from a lab CSV (xqlab lab --csv).

For backends A and B at one thread count, prints per pass the ratio of the
nodes A searched to the nodes B searched over the whole suite (the ratio of
their search overheads, since both divide by the same serial nodes), their
SO per pass against the serial rows of the same pass, and over all passes
the ratio of summed nodes with a 95 % bootstrap interval that resamples
positions (each drawn position keeps all its passes), so that a difference
carried by a few positions shows as a wide interval.

    python3 bench/node_ratio.py FILE.csv A B THREADS
"""
import collections
import csv
import random
import sys


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    path, a, b, threads = argv[1], argv[2], argv[3], argv[4]
    nodes = collections.defaultdict(dict)  # position -> {(backend, run): nodes}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["backend"] == "serial" and r["threads"] == "1":
                key = "serial"
            elif r["backend"] in (a, b) and r["threads"] == threads:
                key = r["backend"]
            else:
                continue
            nodes[r["position"]][(key, r["run"])] = int(r["nodes"])
    runs = sorted({run for p in nodes.values() for _, run in p}, key=int)
    positions = sorted(nodes, key=int)
    for p in positions:
        for run in runs:
            for key in (a, b, "serial"):
                if (key, run) not in nodes[p]:
                    sys.exit(f"{path}: no {key} row for position {p} in run {run}")

    def total(key, ps, rs):
        return sum(nodes[p][(key, r)] for p in ps for r in rs)

    def ratio(ps):
        return total(a, ps, runs) / total(b, ps, runs)

    print(f"{path}: {a} vs {b} at {threads} threads, {len(positions)} positions x "
          f"{len(runs)} passes")
    for r in runs:
        serial = total("serial", positions, [r])
        print(f"  pass {r}: SO {a} {total(a, positions, [r]) / serial:.3f}  "
              f"{b} {total(b, positions, [r]) / serial:.3f}  "
              f"nodes {a}/{b} {total(a, positions, [r]) / total(b, positions, [r]):.3f}")
    rng = random.Random(14)
    boot = sorted(ratio([rng.choice(positions) for _ in positions]) for _ in range(4000))
    print(f"  all passes: nodes {a}/{b} {ratio(positions):.3f}, 95% bootstrap over "
          f"positions [{boot[99]:.3f}, {boot[3899]:.3f}]")


if __name__ == "__main__":
    main(sys.argv)
