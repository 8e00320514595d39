#!/usr/bin/env bash
# Serial nodes per second of two xqlab binaries, interleaved position by
# position: in pass k every position of the suite is searched by binary A
# and by binary B back to back (`xqlab search --json`, one thread), A first
# at odd positions of odd passes and B first otherwise, so that a drift of
# this shared machine -- seconds long, not minutes -- falls on both alike.
# Prints each pass's NPS of A and B (summed nodes / summed seconds over the
# suite) and their ratio B/A, the median ratio with its range, and whether
# every position's node count is the same in every search of both (a change
# that should not change the search must leave them equal; exit 1 if not).
# Writes every search's JSON line to OUTDIR/searches.jsonl. Usage:
#   bench/nps_ab.sh OLD_XQLAB NEW_XQLAB OUTDIR PASSES SUITE [search options...]
# e.g. bench/nps_ab.sh /tmp/old/build/xqlab build/xqlab /tmp/nps 9 \
#        data/middlegames.csv --depth 9 --hash xor
# Pinned to the last core when taskset is there (XQLAB_NPS_CPU picks another).
set -euo pipefail
[ $# -ge 5 ] || { sed -n 2,14p "$0" >&2; exit 2; }
a="$1" b="$2" out="$3" passes="$4" suite="$5"
shift 5
mkdir -p "$out"
: >"$out/searches.jsonl"
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c "${XQLAB_NPS_CPU:-$(( $(nproc) - 1 ))}"); fi
mapfile -t fens < <(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")): print(r["fen"])' "$suite")
[ "${#fens[@]}" -gt 0 ] || { echo "nps_ab.sh: no position in $suite" >&2; exit 2; }
for k in $(seq 1 "$passes"); do
  echo "pass $k/$passes (${#fens[@]} positions)" >&2
  for i in "${!fens[@]}"; do
    order="A B"; (( (k + i) % 2 )) && order="B A"
    for side in $order; do
      bin="$a"; [ "$side" = B ] && bin="$b"
      "${pin[@]}" "$bin" search --fen "${fens[$i]}" --json "$@" |
        python3 -c 'import json, sys
j = json.load(sys.stdin)
print(json.dumps({"pass": int(sys.argv[1]), "position": int(sys.argv[2]), "side": sys.argv[3],
                  "nodes": j["nodes"], "seconds": j["seconds"]}))' "$k" "$i" "$side" >>"$out/searches.jsonl"
    done
  done
done
python3 - "$out/searches.jsonl" "$passes" <<'PY'
import collections, json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
passes = int(sys.argv[2])
nodes = collections.defaultdict(set)
t = collections.defaultdict(float); n = collections.defaultdict(int)
for r in rows:
    nodes[r["position"]].add(r["nodes"])
    t[(r["pass"], r["side"])] += r["seconds"]; n[(r["pass"], r["side"])] += r["nodes"]
ratios = []
print(f"{'pass':>4} {'NPS A':>12} {'NPS B':>12} {'B/A':>7}")
for k in range(1, passes + 1):
    na, nb = n[(k, "A")] / t[(k, "A")], n[(k, "B")] / t[(k, "B")]
    ratios.append(nb / na)
    print(f"{k:>4} {na:12.0f} {nb:12.0f} {nb / na:7.4f}")
same = all(len(v) == 1 for v in nodes.values())
print(f"median B/A {statistics.median(ratios):.4f} [{min(ratios):.4f}, {max(ratios):.4f}] over "
      f"{passes} passes of {len(nodes)} positions; node counts {'identical' if same else 'DIFFER'}")
sys.exit(0 if same else 1)
PY
