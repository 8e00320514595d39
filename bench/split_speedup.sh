#!/usr/bin/env bash
# Time-to-depth speedup, search overhead and 1-thread NPS of the split-point
# backends against serial, through `xqlab lab` (interleaved runs, median of
# RUNS, ratio of summed times). Usage:
#   bench/split_speedup.sh [BUILD_DIR] [DEPTH] [RUNS] [HASH]
# Writes the lab report to stdout and every raw run to
# $BUILD_DIR/split_speedup_d$DEPTH_$HASH.csv; prints uptime before and after
# (the lab machine is shared: say what the load was).
set -euo pipefail
build=${1:-build-par-rel}
depth=${2:-9}
runs=${3:-3}
hash=${4:-xor}
root=$(cd "$(dirname "$0")/.." && pwd)
csv="$build/split_speedup_d${depth}_${hash}.csv"
echo "date: $(date -u +%F' '%T) nproc: $(nproc) load before: $(uptime | sed 's/.*load average: //')"
"$build/xqlab" lab --suite "$root/data/openings.csv" --backends serial,ybwc,pvsplit \
  --hash "$hash" --threads 1,2 --depth "$depth" --runs "$runs" --csv "$csv"
echo "load after: $(uptime | sed 's/.*load average: //')"
echo "raw runs: $csv"
