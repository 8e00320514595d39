#!/usr/bin/env python3
# median.py REAL SIM1 SIM2 ...: S and SO of each backend at 2 threads, real against the median over seeds
import json, statistics, sys
real = {r["backend"]: r for r in json.load(open(sys.argv[1]))["results"] if r["threads"] == 2}
sims = [{r["backend"]: r for r in json.load(open(f))["results"] if r["threads"] == 2} for f in sys.argv[2:]]
seeds = [json.load(open(f))["simulation"]["seeds"] for f in sys.argv[2:]]
print(f"{'backend':15} {'S real':>7}  S sim med [min, max] over seeds {seeds}   err    SO real SO sim med   dSO")
for b, r in real.items():
    s = [d[b]["speedup"] for d in sims if b in d]
    so = [d[b]["search_overhead"] for d in sims if b in d]
    if not s: continue
    m, mso = statistics.median(s), statistics.median(so)
    print(f"{b:15} {r['speedup']:7.3f}  {m:6.3f} [{min(s):6.3f}, {max(s):6.3f}]{'':20} {100*(m-r['speedup'])/r['speedup']:+6.1f}%   "
          f"{r['search_overhead']:6.3f}  {mso:6.3f}  {mso-r['search_overhead']:+6.3f}")
