#!/usr/bin/env bash
# Interleaved stress-tool throughput of every hash scheme at 2 threads, as
# ratios to the unprotected scheme measured in the same round.
# Usage: bench/hash_throughput.sh [XQLAB] [ROUNDS] [ENTRIES] [SECONDS]
# Each round runs every scheme once for SECONDS, in an order rotated every
# round; per round each scheme's ops/s is divided by unprotected's; the report
# gives the median Mops/s, the median per-round ratio and its min..max.
# SCHEMES="a b c" limits the schemes (default: every one `xqlab list` names);
# BASELINE=name divides by another scheme than unprotected (it must be among
# them). A ratio whose min..max lies wholly above or below 1 separates the
# scheme from the baseline; otherwise the rounds leave them undecided.
set -euo pipefail
xqlab=${1:-build/xqlab}
rounds=${2:-15}
entries=${3:-1024}
seconds=${4:-0.5}
baseline=${BASELINE:-unprotected}
if [[ -n "${SCHEMES:-}" ]]; then
  read -r -a schemes <<< "$SCHEMES"
else
  schemes=($("$xqlab" list --json | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["hash"]))'))
fi
[[ " ${schemes[*]} " == *" $baseline "* ]] || { echo "hash_throughput.sh: the baseline $baseline is not among the schemes" >&2; exit 2; }
n=${#schemes[@]}
echo "date: $(date -u +%F' '%T) nproc: $(nproc) load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "xqlab stress --threads 2 --seconds $seconds --entries $entries, $rounds rounds, schemes: ${schemes[*]}, ratios to $baseline"
raw=$(mktemp)
for round in $(seq 1 "$rounds"); do
  for k in $(seq 0 $((n - 1))); do
    s=${schemes[$(( (k + round) % n ))]}
    ops=$("$xqlab" stress --hash "$s" --threads 2 --seconds "$seconds" --entries "$entries" --json |
          python3 -c 'import json,sys; print(json.load(sys.stdin)["ops_per_sec"])')
    echo "$round $s $ops" >> "$raw"
  done
done
python3 - "$raw" "$baseline" <<'EOF'
import sys, statistics, collections
rows = [l.split() for l in open(sys.argv[1])]
by_round = collections.defaultdict(dict)
for r, s, ops in rows:
    by_round[r][s] = float(ops)
schemes = list(dict.fromkeys(s for _, s, _ in rows))
print(f"{'scheme':<12} {'median Mops/s':>14} {'median ratio':>13} {'min..max ratio':>16}  verdict")
for s in schemes:
    ops = [by_round[r][s] for r in by_round]
    ratios = [by_round[r][s] / by_round[r][sys.argv[2]] for r in by_round]
    side = "faster" if min(ratios) > 1 else "slower" if max(ratios) < 1 else "undecided"
    print(f"{s:<12} {statistics.median(ops) / 1e6:>14.1f} {statistics.median(ratios):>13.3f} "
          f"{min(ratios):>7.2f}..{max(ratios):.2f}  {side if s != sys.argv[2] else 'baseline'}")
EOF
rm -f "$raw"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
