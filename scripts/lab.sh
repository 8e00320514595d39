#!/usr/bin/env bash
# Builds xqlab and runs the main job: the default lab comparison of every
# backend on the built-in opening suite. Extra arguments go to `xqlab lab`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" "$root/build"
exec "$root/build/xqlab" lab "$@"
