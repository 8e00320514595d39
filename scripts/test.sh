#!/usr/bin/env bash
# Builds xqlab and the test binaries (target xqlab_tests; CI builds the
# benchmarks after it) and runs what a contributor runs before a commit:
# the `unit` label -- every module, every backend with its default scheme and
# every scheme with two reference backends (DESIGN.md "Grow by addition") --
# then prints the ten slowest tests. CI (.ci/run) adds the rest on the same
# build: the `slow` suites (long integration runs: perft to depth 6, games
# against Fairy-Stockfish, the distributed and simulated backends end to
# end), the `stress` suites in their bounded form, the `mpi` tests (mpiexec
# at 2-4 ranks; the build requires Open MPI, which deps.sh installs), then
# the sanitizer lanes; `.ci/run --full` adds the cross products (`full`).
#   XQLAB_TEST_LABELS  the labels (a ctest -L regex; default "unit"), e.g.
#                      "unit|slow|stress|mpi" for all that CI runs here
# XQLAB_TEST_LABELS overrides the labels (a ctest -L regex), e.g. "unit".
# The tests build in their own directory, build-test, without link-time
# optimisation, at -O2 (a Release build otherwise: -march=native); the main
# job's binary is build/xqlab, with LTO at -O3 (scripts/lab.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/build-test"
XQLAB_DEPS_PROFILE=test XQLAB_BUILD_TARGETS="${XQLAB_BUILD_TARGETS:-xqlab_tests}" "$root/scripts/build.sh" "$dir" -DXQLAB_LTO=OFF -DCMAKE_UNITY_BUILD=ON -DXQLAB_MPI=ON -DXQLAB_TEST_SCHEMES=ON -DXQLAB_OPT=-O2
labels="${XQLAB_TEST_LABELS:-unit}"
# As many at a time as there are cores: no test asserts a speed (benchmarks
# do), and the suites that run more threads than cores were written for a
# loaded machine.
status=0
"$root/scripts/ctest.sh" "$dir" -L "$labels" -j"$(nproc)" --timeout 900 || status=$?
echo "== the ten slowest tests (scripts/slowest.sh $dir)"
"$root/scripts/slowest.sh" "$dir" 10 || true
exit $status
