#!/usr/bin/env bash
# Builds xqlab and runs the main job: the default lab comparison (the serial
# reference and one representative backend per way of sharing work;
# `--backends all` for every backend) on the built-in opening suite, a
# short stress of every hash scheme (interleaved rounds), and the report of both:
# results/lab.json, results/stress.json, results/report.html. Ends with the
# page's path and a short summary. Extra arguments go to `xqlab lab`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${XQLAB_RESULTS:-$root/results}"
# The main job needs the xqlab binary only (and none of the optional programs
# the tests use).
# The build prints a progress line every tenth of its steps (and whatever
# the compiler reports of an error), not its every step.
# Without link-time optimisation: an A/B on 2026-12-02 (bench/nps_ab.sh, 9
# position-interleaved passes, depth 9) gave LTO 1.043 [1.021, 1.075] x the
# serial nodes per second for about a third more build CPU -- some two
# minutes of this job's build to save some ten seconds of its searches,
# which are at a fixed depth and compare backends built alike. A measured
# figure that wants LTO builds with scripts/build.sh (LTO by default).
echo "xqlab: building build/xqlab (Release, -O3, no link-time optimisation)" >&2
XQLAB_DEPS_PROFILE=main XQLAB_BUILD_TARGETS=xqlab "$root/scripts/build.sh" "$root/build" -DXQLAB_LTO=OFF 2>&1 |
  awk '/^\[[0-9]+\/[0-9]+\]/ {
         split(substr($1, 2), a, "/"); p = int(100 * a[1] / a[2])
         if (p >= next_p) { printf "build: %3d %% (%d of %d steps)\n", p, a[1], a[2]; fflush(); next_p = p - p % 10 + 10 }
         next
       }
       / error: |^FAILED: |^CMake Error/ { print; fflush() }' >&2
xq="$root/build/xqlab"
mkdir -p "$out"
"$xq" lab --json-file "$out/lab.json" "$@" >/dev/null
# Every scheme at two threads, five rounds of one second, interleaved (round
# 1 of every scheme, then round 2, ...) so that a drift of this shared
# machine falls on all schemes alike: enough for the races to show in the
# error rates, short beside the lab. The report takes each scheme's median
# and says "undecided" where the rounds' spread covers the difference.
"$xq" stress --hash all --rounds 5 --threads 2 --seconds 1 --json >"$out/stress.json.tmp"
mv "$out/stress.json.tmp" "$out/stress.json"
exec "$xq" report --summary --out "$out" "$out/lab.json" "$out/stress.json"
