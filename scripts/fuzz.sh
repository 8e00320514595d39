#!/usr/bin/env bash
# Builds the libFuzzer target fuzz_position (board FEN parsing, ICCS move
# parsing, make/unmake) with clang++-14 in its own build directory and runs it
# for a bounded time. Prints executions, time and crashes; exits non-zero on a
# crash (the input that crashed is left as $XQLAB_FUZZ_BUILD/crash-*).
#   XQLAB_FUZZ_SECONDS   fuzzing time in core-seconds (default 90): with W
#                        workers the run takes SECONDS / W of wall time, so
#                        the same budget buys the same executions on more
#                        cores in less time
#   XQLAB_FUZZ_WORKERS   fuzzing processes (default: all cores); more than
#                        one runs libFuzzer's fork mode, which stops at the
#                        first crash, timeout or out-of-memory as the plain
#                        mode does (-ignore_*=0)
#   XQLAB_FUZZ_BUILD     build directory (default build-fuzz)
#   XQLAB_FUZZ_JOBS      parallel build jobs (default: all cores)
#   XQLAB_FUZZ_MAX_LEN   longest input in bytes (default 256: a FEN and some
#                        30 moves; longer inputs cost more per execution than
#                        they add in coverage)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${XQLAB_FUZZ_SECONDS:-90}
build=${XQLAB_FUZZ_BUILD:-build-fuzz}
jobs=${XQLAB_FUZZ_JOBS:-$(nproc)}
max_len=${XQLAB_FUZZ_MAX_LEN:-256}
workers=${XQLAB_FUZZ_WORKERS:-$(nproc)}
for value in "$seconds" "$max_len" "$workers"; do
  if ! [[ $value =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz.sh: XQLAB_FUZZ_SECONDS, XQLAB_FUZZ_MAX_LEN and XQLAB_FUZZ_WORKERS must be positive whole numbers, got '$value'" >&2
    exit 2
  fi
done
wall=$(( (seconds + workers - 1) / workers ))
fork=()
if (( workers > 1 )); then
  fork=(-fork="$workers" -ignore_crashes=0 -ignore_timeouts=0 -ignore_ooms=0)
fi
command -v clang++-14 >/dev/null || { echo "fuzz.sh: clang++-14 is missing (scripts/deps.sh)" >&2; exit 2; }

mkdir -p "$build"
# Assertions stay on (no NDEBUG): a broken invariant is a finding.
source scripts/generator.sh
cmake_generator "$build"
cmake "${generator[@]}" -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" -DXQLAB_FUZZ=ON -DXQLAB_LTO=OFF -DXQLAB_NATIVE=OFF -DCMAKE_UNITY_BUILD=ON \
  >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j "$jobs" --target fuzz_position

# New inputs go to a scratch corpus; the seed corpus in the repository is read only.
mkdir -p "$build/corpus"
rm -f "$build"/crash-* "$build"/leak-* "$build"/timeout-* "$build"/oom-*
log="$build/fuzz.log"
status=0
started=$SECONDS
"$build/fuzz/fuzz_position" "$build/corpus" fuzz/corpus -dict=fuzz/fen.dict "${fork[@]}" \
  -max_total_time="$wall" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$build/" >"$log" 2>&1 || status=$?

spent=$((SECONDS - started))
if (( workers > 1 )); then  # fork mode: its last status line "#N: cov: ..." counts every worker's
  execs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -1)
else
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
fi
crashes=$(find "$build" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
echo "fuzz_position: ${execs:-?} executions in $spent s on $workers worker(s), $crashes crashes (log: $log)"
if [[ $status -eq 72 && $crashes -eq 0 ]]; then  # libFuzzer's -interrupted_exitcode
  echo "fuzz.sh: the fuzzer was interrupted before its time was up" >&2
  exit 1
fi
if [[ $status -ne 0 || $crashes -ne 0 ]]; then
  grep -E '^(==|fuzz_position:|SUMMARY|.*runtime error)' "$log" | head -20 >&2 || true
  echo "fuzz.sh: the fuzzer found a failing input (exit status $status)" >&2
  exit 1
fi
