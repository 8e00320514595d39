#!/usr/bin/env bash
# ThreadSanitizer pass over the race-prone suites (label `stress`: hash-table
# races and the parallel backends; tests/parallel/stress_reach_test.cpp
# asserts that they reach nested split points, helpful-master joins, aborts
# and table cutoffs for every backend/scheme pair), built with clang 14 and
# LLVM's OpenMP runtime. libgomp is not instrumented, so under gcc TSan cannot see OpenMP's
# fork/join and reports false races in pvsplit; libomp with the Archer tool
# tells TSan about them. ignore_noninstrumented_modules keeps reports from the
# uninstrumented runtime libraries themselves out; the project's code is all
# instrumented. As many suites at a time as there are cores, as in the test
# command (they were written for a loaded machine; the StressReach suites
# hold a resource lock and run one at a time).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/build-tsan}"
"$root/scripts/deps.sh" sanitize
source "$root/scripts/generator.sh"
cmake_generator "$dir"
CXX=clang++-14 cmake "${generator[@]}" -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DXQLAB_SANITIZE=thread -DXQLAB_NATIVE=OFF -DCMAKE_UNITY_BUILD=ON -DXQLAB_TEST_SCHEMES=ON >/dev/null
cmake --build "$dir" -j"$(nproc)" --target xqlab test_hashing test_parallel test_engine
export OMP_TOOL_LIBRARIES=/usr/lib/llvm-14/lib/libarcher.so
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1"
"$root/scripts/ctest.sh" "$dir" -L stress -j"$(nproc)" --timeout 1800
"$root/scripts/slowest.sh" "$dir" 10 || true
