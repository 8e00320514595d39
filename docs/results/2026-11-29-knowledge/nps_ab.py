#!/usr/bin/env python3
# 1-thread NPS A/B of two xqlab binaries (thesis profile, serial): depth 9 on
# the first 8 positions of data/middlegames.csv, two passes per position in
# swapped order (A B, then B A), both pinned to core 0. Prints per-search
# NPS ratios new/old and their median [min, max]; node counts must agree.
import csv, json, statistics, subprocess, sys
old, new, suite, out = sys.argv[1:5]
fens = [r["fen"] for r in csv.DictReader(open(suite))][:8]
def run(b, fen):
    r = subprocess.run(["taskset", "-c", "0", b, "search", "--fen", fen, "--depth", "9", "--json"],
                       capture_output=True, text=True, check=True)
    d = json.loads(r.stdout)
    return d["nodes"], d["seconds"]
rows, ratios = [], []
for i, fen in enumerate(fens):
    for order in (("old", "new"), ("new", "old")):
        res = {}
        for side in order:
            res[side] = run(old if side == "old" else new, fen)
        assert res["old"][0] == res["new"][0], (fen, res)
        ratio = (res["new"][0] / res["new"][1]) / (res["old"][0] / res["old"][1])
        ratios.append(ratio)
        rows.append({"position": i, "order": "-".join(order), "nodes": res["old"][0],
                     "old_seconds": res["old"][1], "new_seconds": res["new"][1], "ratio": ratio})
summary = {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios),
           "searches": len(ratios), "old": old, "new": new, "rows": rows}
json.dump(summary, open(out, "w"), indent=1)
print(f"NPS new/old median {summary['median']:.3f} [{summary['min']:.3f}, {summary['max']:.3f}] over {len(ratios)} pairs; nodes identical")
