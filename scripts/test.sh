#!/usr/bin/env bash
# Builds xqlab and the test binaries (target xqlab_tests; CI builds the
# benchmarks after it) and runs the test suite: every `unit` test, then the `slow` and
# `stress` suites in their bounded default form, and the `mpi` tests (mpiexec at
# 2-4 ranks; the build requires Open MPI, which deps.sh installs).
# XQLAB_TEST_LABELS overrides the labels (a ctest -L regex), e.g. "unit".
# The tests build in their own directory, build-test, without link-time
# optimisation (a Release build otherwise: -O3, -march=native); the main job's
# binary is build/xqlab, with LTO (scripts/lab.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/build-test"
XQLAB_DEPS_PROFILE=test XQLAB_BUILD_TARGETS="${XQLAB_BUILD_TARGETS:-xqlab_tests}" "$root/scripts/build.sh" "$dir" -DXQLAB_LTO=OFF -DCMAKE_UNITY_BUILD=ON -DXQLAB_MPI=ON
labels="${XQLAB_TEST_LABELS:-unit|slow|stress|mpi}"
# As many at a time as there are cores: no test asserts a speed (benchmarks
# do), and the suites that run more threads than cores were written for a
# loaded machine.
"$root/scripts/ctest.sh" "$dir" -L "$labels" -j"$(nproc)" --timeout 900
