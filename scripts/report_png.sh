#!/usr/bin/env bash
# docs/report.png, the README's picture of the report: `xqlab report` on a
# committed, measured lab document (seven backends at 2 threads, depth 10,
# 3 runs), photographed by headless Chromium at 1000 x 1000 pixels.
#   scripts/report_png.sh [XQLAB [OUT.png]]   (defaults: build-test/xqlab, docs/report.png)
# Fails when Chromium is absent (scripts/deps.sh installs it with
# XQLAB_WITH_CHROMIUM=1) or when the picture exceeds 150 KB.
set -euo pipefail
cd "$(dirname "$0")/.."
xqlab=${1:-build-test/xqlab}
out=${2:-docs/report.png}
doc=docs/results/2026-11-28-sim-idle/real-d10-2t.json
chromium=/usr/bin/chromium
[ -x "$xqlab" ] || { echo "report_png.sh: no xqlab binary at $xqlab (build it first)" >&2; exit 2; }
[ -x "$chromium" ] || { echo "report_png.sh: $chromium is absent (XQLAB_WITH_CHROMIUM=1 scripts/deps.sh)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$xqlab" report --out "$tmp" "$doc" >/dev/null
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
  --user-data-dir="$tmp/profile" --window-size=1000,1000 --screenshot="$tmp/shot.png" \
  "file://$tmp/report.html" >/dev/null 2>&1
bytes=$(stat -c %s "$tmp/shot.png")
if [ "$bytes" -gt 153600 ]; then
  echo "report_png.sh: the picture has $bytes bytes, over 150 KB" >&2
  exit 1
fi
cp "$tmp/shot.png" "$out"
echo "$out: $bytes bytes from $doc"
