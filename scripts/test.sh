#!/usr/bin/env bash
# Builds xqlab and runs the test suite: every `unit` test, then the `slow` and
# `stress` suites in their bounded default form.
# XQLAB_TEST_LABELS overrides the labels (a ctest -L regex), e.g. "unit".
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" "$root/build"
labels="${XQLAB_TEST_LABELS:-unit|slow|stress}"
ctest --test-dir "$root/build" -L "$labels" --output-on-failure -j1 --timeout 900
