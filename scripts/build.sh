#!/usr/bin/env bash
# Configures and builds xqlab. Usage: scripts/build.sh [BUILD_DIR] [cmake args...]
#   XQLAB_DEPS_PROFILE   main (default) or test: which packages deps.sh installs
#   XQLAB_BUILD_TARGETS  targets to build (default: all)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/build}"
shift || true
"$root/scripts/deps.sh" "${XQLAB_DEPS_PROFILE:-main}"
source "$root/scripts/generator.sh"
cmake_generator "$dir"
cmake "${generator[@]}" -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
targets=()
for t in ${XQLAB_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
