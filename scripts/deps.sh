#!/usr/bin/env bash
# Installs the Debian packages xqlab needs when they are missing (Debian 12,
# run as root or with sudo). Quiet and quick when everything is present.
# Usage: scripts/deps.sh [main|test|sanitize] (default: $XQLAB_DEPS_PROFILE, else main)
#   main      what building xqlab and running the main job need
#   test      also Open MPI (the distributed backends' MPI wire: the test build
#             requires it, so that the mpi tests cannot vanish) and the optional
#             programs the tests use (Fairy-Stockfish, Chromium, XBoard under
#             Xvfb); each XQLAB_WITH_*=0 leaves one out
#   sanitize  test's, and clang 14 with LLVM's OpenMP runtime and sanitizer
#             runtimes (scripts/tsan.sh, scripts/asan.sh, scripts/fuzz.sh)
set -euo pipefail
profile="${1:-${XQLAB_DEPS_PROFILE:-main}}"
case "$profile" in
  main|test|sanitize) ;;
  *) echo "deps.sh: profile must be main, test or sanitize, got '$profile'" >&2; exit 2 ;;
esac
optional=0
[ "$profile" != main ] && optional=1
need=()
packages=(g++ cmake make ninja-build libgtest-dev libbenchmark-dev libtbb-dev nlohmann-json3-dev libcli11-dev
          zlib1g-dev libboost-context-dev)
[ "$profile" != main ] && packages+=(openmpi-bin libopenmpi-dev)
[ "$profile" = sanitize ] && packages+=(clang-14 libomp-14-dev libclang-rt-14-dev)
for pkg in "${packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# Optional: an independent Xiangqi engine used as a perft oracle and speed peer.
if [ "${XQLAB_WITH_FAIRY:-$optional}" = 1 ] && ! dpkg -s fairy-stockfish >/dev/null 2>&1; then
  need+=(fairy-stockfish)
fi
# Optional: headless Chromium for the report's browser test (skipped without it);
# XQLAB_WITH_CHROMIUM=0 leaves it out.
if [ "${XQLAB_WITH_CHROMIUM:-$optional}" = 1 ] && ! dpkg -s chromium >/dev/null 2>&1; then
  need+=(chromium)
fi
# Optional: a real GUI, headless, for the engine-protocol match test
# (tests/engine/xboard_match_slow_test.cpp; it skips without them).
if [ "${XQLAB_WITH_XBOARD:-$optional}" = 1 ]; then
  for pkg in xboard xvfb xauth; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
  done
fi
if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  echo "xqlab: installing ${need[*]}" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >/dev/null
fi
