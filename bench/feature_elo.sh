#!/usr/bin/env bash
# What each modern switch is worth in games (issue 28, item 3): the modern
# profile against the modern profile less one switch (`Features=modern-X`),
# at a fixed node count per move, one match per switch, each opening twice
# with colours reversed. A fixed node count makes the games the same on a
# loaded machine as on a quiet one (so this may run beside a build), and
# counts what a switch does per node searched -- not what it costs or saves
# in time per node, which games with a clock would add.
#
# Usage: bench/feature_elo.sh XQLAB OUTDIR [NODES [GAMES [FEATURE...]]]
#   NODES    per move (default 25000; the modern profile searches about
#            100,000 per move at 1+0.1 on this machine kind)
#   GAMES    per switch (default 300, even)
#   FEATURE  the switches, in order (default: every modern switch that
#            changes the search at a fixed node count, largest node
#            savings first)
# Each switch writes OUTDIR/modern-X.jsonl (every game, resumable: run the
# same command again to finish a match that was cut off) and
# OUTDIR/modern-X.json (the match's summary), then prints one line. A switch
# whose summary exists is skipped (its games may be kept gzipped).
set -euo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '2,20p' "$0" >&2
  exit 2
fi
xqlab=$1
out=$2
nodes=${3:-25000}
games=${4:-300}
shift $(( $# < 4 ? $# : 4 ))
features=("$@")
if [[ ${#features[@]} -eq 0 ]]; then
  features=(lmr lmp rfp see futility nullplus knowledge iir razor probcut histgravity aspdelta singular)
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
for f in "${features[@]}"; do
  if [[ -s $out/modern-$f.json ]]; then
    echo "$f: $out/modern-$f.json exists, skipped"
    continue
  fi
  results="$out/modern-$f.jsonl"
  resume=()
  [[ -s $results ]] && resume=(--resume)
  "$xqlab" match --engine "xqlab:profile=modern,name=modern" \
    --engine "xqlab:features=modern-$f,name=modern-$f" --nodes "$nodes" --games "$games" \
    --openings "$root/data/tuning_holdout.csv" --results "$results" "${resume[@]}" --json \
    > "$out/modern-$f.json.part" 2> "$out/modern-$f.log"
  mv "$out/modern-$f.json.part" "$out/modern-$f.json"
  python3 - "$out/modern-$f.json" "$f" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))["match"]["pairings"][0]
lo, hi = p["elo_ci"]
print(f"{sys.argv[2]:12s} modern against modern-{sys.argv[2]}: +{p['wins']} ={p['draws']} -{p['losses']}"
      f"  Elo {p['elo']:+.1f} [{lo:+.1f}, {hi:+.1f}]  (the switch's worth)")
EOF
done
