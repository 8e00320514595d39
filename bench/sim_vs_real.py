#!/usr/bin/env python3
"""SIMULATED against measured: the error table of two lab documents
(`xqlab lab --json-file` of a real run and of `--simulate` over the same
suite, backends and thread counts). Per backend and thread count: speedup S
(ratio of summed times), search overhead SO, idle share of thread time (split
backends). Acceptance (issue 25): |S_sim - S_real| / S_real <= LIMIT (default
10 %) at every p <= CORES, SO within SO_LIMIT (default 0.03 at p = 2), and
the ranking of the backends by S the same at each p.

Usage: bench/sim_vs_real.py REAL.json SIM.json [CORES] [LIMIT] [SO_LIMIT]
"""
import json
import sys


def rows(doc):
    out = {}
    for r in doc["results"]:
        if r["backend"] == "serial":
            continue
        loss = r.get("loss") or {}
        paired = r.get("paired_speedup") or {}
        out[(r["backend"], r["threads"])] = {
            "S": r["speedup"], "SO": r["search_overhead"], "idle": loss.get("idle"),
            "lo": paired.get("min"), "hi": paired.get("max")}
    return out


def main():
    real, sim = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    if sim.get("mode") != "simulated" or real.get("mode", "measured") != "measured":
        sys.exit("sim_vs_real.py: give the measured document first, the simulated one second")
    cores = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 0.10
    so_limit = float(sys.argv[5]) if len(sys.argv) > 5 else 0.03
    over_so_limit = float(sys.argv[6]) if len(sys.argv) > 6 else 0.05
    sim_cores = (sim.get("simulation") or {}).get("cores")
    sliced = sim_cores == cores
    R, S = rows(real), rows(sim)
    pct = lambda v: "-" if v is None else f"{100 * v:.1f}%"
    print("SIMULATED against measured: S = speedup (real: median, [min, max] of paired runs; "
          "sim: median, [min, max] over seeds), SO = search overhead, idle = idle share")
    print(f"{'backend':14} {'p':>3} {'S real':>22} {'S sim':>22} {'S err':>7} "
          f"{'SO real':>8} {'SO sim':>7} {'dSO':>7} {'idle real':>9} {'idle sim':>8}  note")
    worst, fails = 0.0, []
    for key in sorted(R, key=lambda k: (k[1], k[0])):
        if key not in S:
            continue
        r, s = R[key], S[key]
        err = (s["S"] - r["S"]) / r["S"]
        dso = s["SO"] - r["SO"]
        over = key[1] > cores
        note = ""
        if over:
            note = ("time-sliced (both): SO compares, S is no speed" if sliced
                    else "time-sliced (real only): nothing compares")
            if sliced and abs(dso) > over_so_limit:
                fails.append(f"{key[0]}@{key[1]}")
        else:
            worst = max(worst, abs(err))
            if abs(err) > limit or (key[1] == 2 and abs(dso) > so_limit):
                fails.append(f"{key[0]}@{key[1]}")
        span = lambda x: f"{x['S']:.3f} [{x['lo']:.3f},{x['hi']:.3f}]" if x["lo"] else f"{x['S']:.3f}"
        print(f"{key[0]:14} {key[1]:>3} {span(r):>22} {span(s):>22} {100 * err:+6.1f}% "
              f"{r['SO']:8.3f} {s['SO']:7.3f} {dso:+7.3f} {pct(r['idle']):>9} "
              f"{pct(s['idle']):>8}  {note}")
    ranking_kept = True
    for p in sorted({k[1] for k in R if 1 < k[1] <= cores}):
        keys = [k for k in R if k[1] == p and k in S]
        if [k[0] for k in sorted(keys, key=lambda k: R[k]["S"])] != \
           [k[0] for k in sorted(keys, key=lambda k: S[k]["S"])]:
            ranking_kept = False
            print(f"ranking by S differs at p = {p}: real "
                  + " < ".join(k[0] for k in sorted(keys, key=lambda k: R[k]["S"]))
                  + "; simulated " + " < ".join(k[0] for k in sorted(keys, key=lambda k: S[k]["S"])))
    verdict = "PASS" if not fails and ranking_kept else "FAIL"
    print(f"worst |S error| at p <= {cores}: {100 * worst:.1f}%; {verdict} "
          f"(S within {100 * limit:.0f} %, SO(2) within {so_limit}, ranking kept"
          + (f", SO above {cores} threads within {over_so_limit}" if sliced else "") + ")"
          + (f"; outside: {', '.join(fails)}" if fails else ""))


if __name__ == "__main__":
    main()
