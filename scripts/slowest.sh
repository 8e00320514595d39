#!/usr/bin/env bash
# Prints the N slowest tests of a build directory's last ctest run (from
# Testing/Temporary/LastTest.log), slowest first, then the run's test count
# and summed test seconds. Usage: scripts/slowest.sh BUILD_DIR [N] (default 10)
set -euo pipefail
dir="$1"
n="${2:-10}"
log="$dir/Testing/Temporary/LastTest.log"
[[ -f "$log" ]] || { echo "slowest.sh: no $log (run ctest first)" >&2; exit 1; }
awk -F'\t' -v n="$n" '
  / Testing: / { name = substr($0, index($0, " Testing: ") + 10) }
  /^Test time = / { split($0, w, " "); t[++k] = w[4] + 0; names[k] = name; sum += w[4] }
  END {
    for (i = 1; i <= n && i <= k; ++i) {  # selection of the n largest
      best = 0
      for (j = 1; j <= k; ++j) if (!(j in used) && (best == 0 || t[j] > t[best])) best = j
      used[best] = 1
      printf "%8.1f s  %s\n", t[best], names[best]
    }
    printf "%d tests, %.1f s summed\n", k, sum
  }' "$log"
