#!/usr/bin/env bash
# Runs ctest with the given arguments on build directory $1 and, should any
# test fail, prints again at the end what each failed test reported (its
# assertion failures, or the end of its output when it crashed or timed out):
# CI keeps only the tail of a long log, where --output-on-failure's copy,
# printed when the test ended, is lost among a thousand passing lines.
# Usage: scripts/ctest.sh <build-dir> [ctest arguments...]
set -uo pipefail
dir="$1"
shift
# Under CI (.ci/run sets XQLAB_CI_START): when the tests start and end, so
# that the log tells each lane's build time from its test time.
ci_stamp() { [[ -n "${XQLAB_CI_START:-}" ]] && echo "== $1 at $(( $(date +%s) - XQLAB_CI_START )) s"; return 0; }
ci_stamp "ctest starts ($dir)"
ctest --test-dir "$dir" --output-on-failure "$@"
status=$?
ci_stamp "ctest ends ($dir)"
[[ $status -eq 0 ]] && exit 0
log="$dir/Testing/Temporary/LastTest.log"
failed="$dir/Testing/Temporary/LastTestsFailed.log"
if [[ -f "$log" && -f "$failed" ]]; then
  echo "== what the failed tests reported (from $log)"
  while IFS=: read -r _ name; do
    echo "-- $name"
    awk -v name="$name" '
      index($0, " Testing: ") && substr($0, index($0, " Testing: ") + 10) == name { inside = 1; n = 0; next }
      inside && /^<end of output>$/ { inside = 0 }
      inside { lines[n++] = $0 }
      END {
        first = -1
        for (i = 0; i < n; ++i) if (lines[i] ~ /Failure|FAILED|ERROR|Sanitizer|terminate|Assertion/) { first = i; break }
        from = first >= 0 ? first : (n > 40 ? n - 40 : 0)
        for (i = from; i < n && i < from + 60; ++i) print lines[i]
      }' "$log"
  done < "$failed"
fi
exit $status
