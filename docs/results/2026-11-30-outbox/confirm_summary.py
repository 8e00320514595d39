import json, math, statistics, sys, os
d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/sweep/confirm"
def load(f): return [json.loads(l) for l in open(f)] if os.path.exists(f) else []
def g(xs): return math.exp(sum(map(math.log, xs)) / len(xs))
for suite in ["middlegames", "fresh_middlegames"]:
    for v in ["def", "t250"]:
        R, N, M, B = [], [], [], []
        for r in range(1, 10):
            loc = load(f"{d}/{suite}-r{r}-local.jsonl"); x = load(f"{d}/{suite}-r{r}-{v}.jsonl")
            if len(loc) < 16 or len(x) < 16: continue
            R.append(g([loc[i]["seconds"] / x[i]["seconds"] for i in range(16)]))
            N.append(g([x[i]["nodes"] / loc[i]["nodes"] for i in range(16)]))
            M.append(statistics.median([x[i]["msgs_sent"] / x[i]["seconds"] for i in range(16)]))
            B.append(statistics.median([x[i]["bytes_sent"] / x[i]["seconds"] for i in range(16)]))
        if R:
            print(f"{suite:18s} {v:5s} reps {len(R)} S ratio {statistics.median(R):.3f} [{min(R):.3f}, {max(R):.3f}] per rep {' '.join(f'{x:.3f}' for x in R)}; nodes/lazysmp {statistics.median(N):.3f}; msgs/s {statistics.median(M):.0f} bytes/s {statistics.median(B):.0f}")
