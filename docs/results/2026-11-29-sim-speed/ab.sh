#!/bin/bash
# usage: ab.sh BACKEND THREADS DEPTH REPS ; prints bin wall nodes rate
cd /work/main
for r in $(seq 1 $4); do for bin in old new; do
  /usr/bin/time -o /tmp/simspeed/t -f "%e %U %S" /tmp/xq-$bin lab --simulate --suite data/middlegames.csv --backends $1 --threads $2 --depth $3 --runs 1 --json-file /tmp/simspeed/$bin.json >/dev/null 2>/tmp/simspeed/err || { cat /tmp/simspeed/err; exit 1; }
  python3 - $bin $1 $2 <<'P'
import json,sys
bin,b,p=sys.argv[1:]
d=json.load(open('/tmp/simspeed/%s.json'%bin)); w,u,s=map(float,open('/tmp/simspeed/t').read().split())
n=sum(r['nodes'] for r in d['results'])
print(f"{bin} {b} p={p} wall {w:.2f} cpu {u+s:.2f} nodes {n:.0f} Mnodes/wall-s {n/w/1e6:.3f} per-cpu-s {n/(u+s)/1e6:.3f}")
P
done; done
