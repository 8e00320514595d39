#!/usr/bin/env bash
# Builds xqlab and runs the main job: the default lab comparison of every
# backend on the built-in opening suite (about ten minutes on two cores), a
# short stress of every hash scheme, and the report of both:
# results/lab.json, results/stress.json, results/report.html. Ends with the
# page's path and a short summary. Extra arguments go to `xqlab lab`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${XQLAB_RESULTS:-$root/results}"
"$root/scripts/build.sh" "$root/build" >/dev/null
xq="$root/build/xqlab"
mkdir -p "$out"
"$xq" lab --json-file "$out/lab.json" "$@" >/dev/null
# Two seconds per scheme at two threads: enough for the races to show in the
# error rates, short beside the lab. The names come from `xqlab list`.
schemes=$("$xq" list | awk '/^hash schemes/{on=1; next} /^$/{on=0} on{print $1}')
: >"$out/stress.json.tmp"
for s in $schemes; do
  "$xq" stress --hash "$s" --threads 2 --seconds 2 --json >>"$out/stress.json.tmp"
done
mv "$out/stress.json.tmp" "$out/stress.json"
exec "$xq" report --summary --out "$out" "$out/lab.json" "$out/stress.json"
