#!/usr/bin/env bash
# Games per second of `xqlab evolve` at 1 and 2 parallel games (issue 29's
# parallel-GA target: >= 1.8x at 2 against 1), interleaved run by run. The
# runs use the same seed, so they play the same games (fixed depth): the
# script checks that the histories agree and prints each run's figure; the
# runs' JSON documents stay in OUT.
# Usage: bench/tuning_speed.sh XQLAB OUT [runs] [extra evolve options...]
set -euo pipefail
xqlab="$1"
dir="$2"
runs="${3:-3}"
shift $(( $# >= 3 ? 3 : 2 ))
mkdir -p "$dir"
rm -f "$dir"/ck*.json
for run in $(seq 1 "$runs"); do
  for threads in 1 2; do
    out="$dir/run$run-t$threads.json"
    "$xqlab" evolve --population 8 --rounds 2 --generations 3 --depth 4 --seed 7 \
      --threads "$threads" --checkpoint "$dir/ck$run-$threads.json" --json "$@" \
      > "$out" 2> /dev/null
    rm -f "$dir/ck$run-$threads.json"
  done
done
python3 - "$dir" "$runs" <<'PY'
import json, statistics, sys, glob
d, runs = sys.argv[1], int(sys.argv[2])
rate = {1: [], 2: []}
ref = None
for run in range(1, runs + 1):
    for t in (1, 2):
        j = json.load(open(f"{d}/run{run}-t{t}.json"))["evolve"]
        games = sum(h["games"] for h in j["history"])
        secs = sum(h["seconds"] for h in j["history"])
        rate[t].append(games / secs)
        key = [(h["fitness"], h["population"]) for h in j["history"]]
        if ref is None: ref = key
        elif key != ref: sys.exit("the runs played different games: not comparable")
ratios = [b / a for a, b in zip(rate[1], rate[2])]
print(f"games/s at 1 thread: {[round(x, 2) for x in rate[1]]} median {statistics.median(rate[1]):.2f}")
print(f"games/s at 2 threads: {[round(x, 2) for x in rate[2]]} median {statistics.median(rate[2]):.2f}")
print(f"2 against 1, per run: {[round(x, 3) for x in ratios]} median {statistics.median(ratios):.3f} "
      f"range [{min(ratios):.3f}, {max(ratios):.3f}]")
PY
