#!/usr/bin/env bash
# The README's two set-up commands timed from fresh clones, as issue 62's
# targets ask: each run waits for a quiet machine (1-minute load below
# LOAD_MAX, default 0.3; it gives up after WAIT_MAX seconds, default 900,
# and records the load it started at), clones the repository, and times the
# command with its build. One JSON line per run goes to OUT: which command,
# its seconds and exit status, the commit, the load at the start, the CPU
# model, and for the main job the serial reference's nodes per second in
# its own lab (the fixed search that lets hosts compare).
#
# Usage: bench/readme_times.sh OUT [main|test|both] [RUNS] [REPO]
#   OUT    JSON Lines file, appended to
#   RUNS   runs of each command (default 3); both: main and test alternate
#   REPO   what to clone (default: this repository)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: bench/readme_times.sh OUT [main|test|both] [RUNS] [REPO]}"
which="${2:-both}"
runs="${3:-3}"
repo="${4:-$root}"
case "$which" in main) cmds=(main);; test) cmds=(test);; both) cmds=(main test);;
  *) echo "readme_times.sh: which must be main, test or both, not '$which'" >&2; exit 2;; esac
load_max="${LOAD_MAX:-0.3}"
wait_max="${WAIT_MAX:-900}"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
load1() { cut -d' ' -f1 /proc/loadavg; }
for ((k = 1; k <= runs; ++k)); do
  for c in "${cmds[@]}"; do
    waited=0
    while awk -v l="$(load1)" -v m="$load_max" 'BEGIN { exit !(l >= m) }' && [ "$waited" -lt "$wait_max" ]; do
      sleep 10
      waited=$((waited + 10))
    done
    load="$(load1)"
    dir="$(mktemp -d /tmp/readme-times.XXXXXX)"
    git clone -q "$repo" "$dir/clone"
    commit="$(git -C "$dir/clone" rev-parse --short HEAD)"
    start="$(date -u +%FT%TZ)"
    t0=$(date +%s.%N)
    set +e
    if [ "$c" = main ]; then
      (cd "$dir/clone" && ./scripts/lab.sh) > "$dir/log" 2>&1
    else
      (cd "$dir/clone" && ./scripts/test.sh) > "$dir/log" 2>&1
    fi
    status=$?
    set -e
    t1=$(date +%s.%N)
    nps=null
    if [ "$c" = main ] && [ -r "$dir/clone/results/lab.json" ]; then
      nps="$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(next((r["nps"] for r in d["results"] if r["backend"] == "serial"), "null"))' "$dir/clone/results/lab.json")"
    fi
    printf '{"command":"%s","seconds":%.1f,"status":%d,"commit":"%s","start":"%s","load_at_start":%s,"waited_s":%d,"cpu":"%s","nproc":%d,"serial_nps":%s}\n' \
      "$c" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$status" "$commit" "$start" "$load" "$waited" "$cpu" "$(nproc)" "$nps" >> "$out"
    tail -1 "$out"
    [ "$status" = 0 ] || { echo "readme_times.sh: $c failed; its log: $dir/log" >&2; continue; }
    rm -rf "$dir"
  done
done
