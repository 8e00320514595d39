#!/usr/bin/env bash
# Real against simulated scaling on the machine it runs on: the real lab at
# 1, 2, 4, 8, 16 ... threads up to the machine's cores, then `xqlab lab
# --simulate` of the same positions, backends and thread counts with the
# profile given (calibrate one first on the same machine: xqlab
# sim-calibrate --out PROFILE), and the error table: per backend and thread
# count, simulated against real speedup S, search overhead SO and idle share.
#
# Acceptance (issue 25; what a user's many-core machine checks):
#   |S_sim - S_real| / S_real <= 10 % at every p <= 16 the machine has cores
#   for, and the ranking of the backends by S the same at each p.
# Thread counts above the cores (OVERSUB=1 adds 2x and 4x the cores) are
# time-sliced by the OS: their real S is not a speed, only their SO compares,
# against a simulation that time-slices them on as many virtual cores
# (--sim-cores, given the machine's cores: at p <= cores it changes
# nothing); acceptance there: |SO_sim - SO_real| <= 0.05.
#
# Usage: bench/scaling.sh OUTDIR [PROFILE] [BACKENDS] [DEPTH]
#   OUTDIR    where real.json, sim.json and the table go
#   PROFILE   the simulated machine's costs (default data/sim/epyc-2c.json)
#   BACKENDS  comma list (default ybwc,dts,abdada,abdada-simple,lazysmp,pvsplit)
#   DEPTH     search depth (default 8); 8 middlegames, 2 real runs, 3 seeds
#   XQLAB     the binary (default build/xqlab); OVERSUB=1 as above
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: bench/scaling.sh OUTDIR [PROFILE] [BACKENDS] [DEPTH]}"
profile="${2:-$root/data/sim/epyc-2c.json}"
backends="${3:-ybwc,dts,abdada,abdada-simple,lazysmp,pvsplit}"
depth="${4:-8}"
xqlab="${XQLAB:-$root/build/xqlab}"
[ -x "$xqlab" ] || { echo "scaling.sh: no xqlab binary at $xqlab (scripts/lab.sh builds one)" >&2; exit 2; }
[ -r "$profile" ] || { echo "scaling.sh: cannot read profile $profile" >&2; exit 2; }
mkdir -p "$out"
cores=$(nproc)
threads=""
for p in 1 2 4 8 16 32 64 128 256; do
  [ "$p" -le "$cores" ] && threads="$threads${threads:+,}$p"
done
if [ "${OVERSUB:-0}" = 1 ]; then
  threads="$threads,$((2 * cores)),$((4 * cores))"
fi
head -9 "$root/data/middlegames.csv" > "$out/suite.csv"
echo "scaling.sh: $cores cores; threads $threads; backends $backends; depth $depth" >&2
"$xqlab" lab --suite "$out/suite.csv" --backends "$backends" --threads "$threads" --depth "$depth" \
  --runs 2 --quiet --json-file "$out/real.json" > "$out/real.txt"
"$xqlab" lab --simulate --sim-profile "$profile" --suite "$out/suite.csv" --backends "$backends" \
  --threads "$threads" --depth "$depth" --runs 3 --sim-cores "$cores" --quiet \
  --json-file "$out/sim.json" > "$out/sim.txt"
python3 "$root/bench/sim_vs_real.py" "$out/real.json" "$out/sim.json" "$cores" 0.10 1 | tee "$out/errors.txt"
