import json, math, statistics, sys, glob, os
d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/sweep/out"
def load(f): return [json.loads(l) for l in open(f)]
def g(xs): return math.exp(sum(map(math.log, xs)) / len(xs))
reps = sorted({os.path.basename(f).split("-")[0] for f in glob.glob(d + "/r*-serial.jsonl")})
names = sorted({os.path.basename(f).split("-", 1)[1][:-6] for f in glob.glob(d + "/r*.jsonl")} - {"serial"})
out = {n: {"S": [], "ratio": [], "so": [], "nps": [], "mps": [], "bps": []} for n in names}
for r in reps:
    ser = load(f"{d}/{r}-serial.jsonl"); loc = load(f"{d}/{r}-local.jsonl")
    for n in names:
        f = f"{d}/{r}-{n}.jsonl"
        if not os.path.exists(f): continue
        x = load(f); k = min(len(x), len(ser), len(loc))
        if k < 16: continue  # incomplete rep
        S = g([ser[i]["seconds"] / x[i]["seconds"] for i in range(k)])
        Sl = g([ser[i]["seconds"] / loc[i]["seconds"] for i in range(k)])
        so = g([x[i]["nodes"] / ser[i]["nodes"] for i in range(k)])
        nps = g([(x[i]["nodes"] / x[i]["seconds"]) / (ser[i]["nodes"] / ser[i]["seconds"]) for i in range(k)])
        out[n]["S"].append(S); out[n]["ratio"].append(S / Sl); out[n]["so"].append(so); out[n]["nps"].append(nps); out[n]["mps"].append(statistics.median([x[i].get("msgs_sent",0)/x[i]["seconds"] for i in range(k)])); out[n]["bps"].append(statistics.median([x[i].get("bytes_sent",0)/x[i]["seconds"] for i in range(k)]))
for n in names:
    o = out[n]
    if not o["S"]: continue
    f = lambda xs: f"{statistics.median(xs):.3f} [{min(xs):.3f}-{max(xs):.3f}]"
    print(f"{n:12s} reps {len(o['S'])}  S {f(o['S'])}  S/lazysmp {f(o['ratio'])}  nodes/serial {f(o['so'])}  nps/serial {f(o['nps'])}  msgs/s {statistics.median(o['mps']):.0f} bytes/s {statistics.median(o['bps']):.0f}")
