#!/usr/bin/env bash
# Builds xqlab and runs the test suite: every `unit` test, then the `slow` and
# `stress` suites in their bounded default form.
# XQLAB_TEST_LABELS overrides the labels (a ctest -L regex), e.g. "unit".
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
XQLAB_DEPS_PROFILE=test "$root/scripts/build.sh" "$root/build"
labels="${XQLAB_TEST_LABELS:-unit|slow|stress}"
# As many at a time as there are cores: no test asserts a speed (benchmarks
# do), and the suites that run more threads than cores were written for a
# loaded machine.
ctest --test-dir "$root/build" -L "$labels" --output-on-failure -j"$(nproc)" --timeout 900
