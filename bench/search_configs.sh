#!/bin/bash
# One `xqlab search` per (position, configuration), configurations one after
# another for each position, so that a drift of the machine falls on all of
# them alike. Prints "PASS ROW CONFIG SECONDS NODES CRITICAL_PATH" per search.
# usage: bench/search_configs.sh SUITE DEPTH PASSES "ROWS" "BACKEND THREADS [NAME=VALUE ...]" ...
#   ROWS: 1-based data rows of SUITE; XQ: the binary (default build/xqlab).
# The jamboree study of 2026-11-26 (docs/journal/2026-11-26-jamboree.md):
#   bench/search_configs.sh data/openings.csv 9 1 "2 5 9 13" "serial 1" \
#     "jamboree 2 continuation=ordered task_heuristics=slot task_depth=5" ...
#   bench/search_configs.sh data/openings.csv 9 5 "3 7 11" "serial 1" "jamboree 1"
set -euo pipefail
xq="${XQ:-build/xqlab}"
suite=$1; depth=$2; passes=$3; rows=$4; shift 4
for pass in $(seq "$passes"); do
  for i in $rows; do
    fen=$(sed -n "$((i + 1))p" "$suite" | awk -F, '{print $NF}')
    for cfg in "$@"; do
      read -r b t rest <<< "$cfg"
      params=()
      for p in $rest; do params+=(--param "$p"); done
      "$xq" search --backend "$b" --threads "$t" --depth "$depth" --fen "$fen" "${params[@]}" --json |
        python3 -c "
import json, sys
r = json.load(sys.stdin)
print('$pass $i ${cfg// /_}', r['seconds'], r['nodes'], r.get('critical_path', 0))"
    done
  done
done
