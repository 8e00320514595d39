#!/usr/bin/env bash
# Extends the thesis profile's doubling match of the rank table (issue 28)
# from 32 to GAMES games: the serial search at 2+0.2 against itself at
# 1+0.1, both thesis profile, the same engines, clock, openings and
# adjudication as `xqlab transfer` plays it, continued in the transfer's own
# results file, so that a later `xqlab transfer --results ...` reads every
# game.  Usage: extend-thesis-doubling.sh XQLAB GAMES
set -euo pipefail
xqlab="$1"; games="$2"
root="$(cd "$(dirname "$0")/../../.." && pwd)"
"$xqlab" match \
  --engine "xqlab:backend=serial,hash=xor,threads=1,profile=thesis,name=serial-1t-2x,tc=2+0.2" \
  --engine "xqlab:backend=serial,hash=xor,threads=1,profile=thesis,name=serial-1t" \
  --tc 1+0.1 --timemargin 50 --games "$games" --openings "$root/data/openings.csv" \
  --resign "movecount=3 score=600" --draw "movenumber=40 movecount=8 score=10" \
  --results "$root/docs/results/2026-11-30-transfer/g-thesis-serial-doubling.csv" --resume --json
