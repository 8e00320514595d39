#!/usr/bin/env bash
# Interleaved A/B of two xqlab binaries on one lab comparison: pass k runs
# binary A then binary B (then A, B, ...), each one `xqlab lab --runs 1`
# over the same suite, so that a drift of this shared machine falls on both
# alike. Writes A-k.csv, A-k.json, B-k.csv and B-k.json into OUTDIR and
# prints, per backend, the per-pass S (serial time / backend time, summed over
# positions, the serial rows of the same pass) of A and B, the medians of SO
# (nodes / serial nodes) and of the idle share (idle seconds / thread
# seconds, as each binary books it), and B's median S over A's. Usage:
#   bench/ab_binaries.sh OLD_XQLAB NEW_XQLAB OUTDIR PASSES [lab options...]
# e.g. bench/ab_binaries.sh /tmp/xqlab-old build/xqlab ab 3 \
#        --suite data/middlegames.csv --backends serial,ybwc,dts --hash xor --threads 2 --depth 9
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,12p "$0" >&2; exit 2; }
a="$1" b="$2" out="$3" passes="$4"
shift 4
mkdir -p "$out"
for k in $(seq 1 "$passes"); do
  for side in A B; do
    bin="$a"; [ "$side" = B ] && bin="$b"
    echo "pass $k/$passes: $side ($bin)" >&2
    "$bin" lab --runs 1 --quiet --csv "$out/$side-$k.csv" --json-file "$out/$side-$k.json" "$@" >/dev/null
  done
done
python3 - "$out" "$passes" <<'PY'
import collections, csv, statistics, sys
out, passes = sys.argv[1], int(sys.argv[2])
def summary(path):
    t = collections.defaultdict(float); n = collections.defaultdict(int)
    idle = collections.defaultdict(float)
    for r in csv.DictReader(open(path, newline="")):
        key = (r["backend"], int(r["threads"]))
        t[key] += float(r["seconds"]); n[key] += int(r["nodes"])
        idle[key] += float(r["idle_seconds"] or 0)
    return t, n, idle
rows = collections.defaultdict(lambda: {"A": [], "B": []})
for k in range(1, passes + 1):
    for side in "AB":
        t, n, idle = summary(f"{out}/{side}-{k}.csv")
        st, sn = t[("serial", 1)], n[("serial", 1)]
        for key in t:
            if key[0] == "serial": continue
            rows[key][side].append((st / t[key], n[key] / sn, idle[key] / (t[key] * key[1])))
print(f"{'backend':14} {'threads':>7}  {'S(A) per pass':24} {'S(B) per pass':24} {'SO(A)':>6} {'SO(B)':>6} {'idle(A)':>7} {'idle(B)':>7}  S B/A")
for key, v in sorted(rows.items()):
    sa = [x[0] for x in v["A"]]; sb = [x[0] for x in v["B"]]
    med = lambda side, i: statistics.median(x[i] for x in v[side])
    fmt = lambda xs: " ".join(f"{x:.3f}" for x in xs)
    print(f"{key[0]:14} {key[1]:>7}  {fmt(sa):24} {fmt(sb):24} {med('A', 1):6.3f} {med('B', 1):6.3f} "
          f"{100 * med('A', 2):6.1f}% {100 * med('B', 2):6.1f}%  "
          f"{statistics.median(sb)/statistics.median(sa):.3f}")
PY
