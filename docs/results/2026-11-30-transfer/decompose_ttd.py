#!/usr/bin/env python3
"""Splits a dist_ttd run's speedup into search overhead and node rate.

Usage: decompose_ttd.py DIR   (a bench/dist_ttd.sh output directory with
rN-CONFIG.jsonl files, one search per line). Prints, per repetition and
configuration, the geometric means over positions of nodes / serial nodes
(SO) and of node rate / serial node rate (NPS); S is about NPS / SO.
"""
import json, math, os, statistics, sys

base = sys.argv[1]
def load(name):
    return {j["fen"]: j for j in map(json.loads, open(os.path.join(base, name))) }
for r in range(1, 10):
    if not os.path.exists(os.path.join(base, f"r{r}-serial.jsonl")):
        continue
    serial = load(f"r{r}-serial.jsonl")
    for cfg in ("lazysmp", "mpi", "loop", "off"):
        path = f"r{r}-{cfg}.jsonl"
        if not os.path.exists(os.path.join(base, path)):
            continue
        d = load(path)
        gm = lambda f: math.exp(statistics.mean(math.log(f(p)) for p in serial))
        so = gm(lambda p: d[p]["nodes"] / serial[p]["nodes"])
        nps = gm(lambda p: (d[p]["nodes"] / d[p]["seconds"]) / (serial[p]["nodes"] / serial[p]["seconds"]))
        print(f"rep {r} {cfg:8s} SO {so:.3f}  NPS ratio {nps:.3f}")
