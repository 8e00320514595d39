#!/usr/bin/env bash
# Real against simulated scaling on the machine it runs on: the real lab at
# 1, 2, 4, 8, 16 ... 256 threads up to the machine's cores, then `xqlab lab
# --simulate` of the same positions, backends and thread counts with the
# profile given (calibrate one first on the same machine: xqlab
# sim-calibrate --out PROFILE), and the error table: per backend and thread
# count, simulated against real speedup S, search overhead SO and idle share.
# Its defaults are the many-cores sweep's (bench/many_cores.sh: positions
# 1-8 of data/middlegames.csv, depth 11, its backends, 16 MiB), so that a
# user with a many-core machine checks the SIMULATED curves where this
# 2-core machine cannot: nothing here has checked them past 2 real threads.
#
# Acceptance (issues 25 and 66; what a user's many-core machine checks):
#   |S_sim - S_real| / S_real <= 10 % at every p <= 16 the machine has cores
#   for (issue 66 asks 5 % at 2 threads: pass 0.05 as LIMIT), SO within
#   0.03 at 2 threads, and the ranking of the backends by S the same at each p.
# Thread counts above the cores (OVERSUB=1 adds 2x and 4x the cores) are
# time-sliced by the OS: their real S is not a speed, only their SO compares,
# against a simulation that time-slices them on as many virtual cores
# (--sim-cores, given the machine's cores: at p <= cores it changes
# nothing); acceptance there: |SO_sim - SO_real| <= 0.05.
#
# Usage: bench/scaling.sh OUTDIR [PROFILE] [BACKENDS] [DEPTH]
#   OUTDIR    where real.json, sim.json and the table go
#   PROFILE   the simulated machine's costs (default data/sim/epyc-2c.json)
#   BACKENDS  comma list (default ybwc,dts,jamboree,pvsplit,abdada-simple,
#             abdada,lazysmp,aspiration,uidpabs: the sweep's)
#   DEPTH     search depth (default 11, the sweep's; 8 for a quick look)
#   XQLAB     the binary (default build/xqlab); OVERSUB=1 as above; RUNS real
#             runs (default 3), SEEDS simulated seeds (default 3), LIMIT the
#             S error accepted (default 0.10), SO_LIMIT the SO(2) error
#             accepted (default 0.03), HASH_MB (default 16)
set -euo pipefail
source "$(dirname "$0")/sweep_defaults.sh"
root="$sweep_root"
out="${1:?usage: bench/scaling.sh OUTDIR [PROFILE] [BACKENDS] [DEPTH]}"
profile="${2:-$root/data/sim/epyc-2c.json}"
backends="${3:-$SWEEP_BACKENDS}"
depth="${4:-$SWEEP_DEPTH}"
runs="${RUNS:-3}"
seeds="${SEEDS:-3}"
limit="${LIMIT:-0.10}"
hash_mb="${HASH_MB:-$SWEEP_HASH_MB}"
so_limit="${SO_LIMIT:-0.03}"
xqlab="${XQLAB:-$SWEEP_XQLAB}"
sweep_need_xqlab scaling.sh "$xqlab"
[ -r "$profile" ] || { echo "scaling.sh: cannot read profile $profile" >&2; exit 2; }
mkdir -p "$out"
cores=$(nproc)
threads=""
IFS=, read -r -a sweep_counts <<< "$SWEEP_THREADS"
for p in "${sweep_counts[@]}"; do
  [ "$p" -le "$cores" ] && threads="$threads${threads:+,}$p"
done
if [ "${OVERSUB:-0}" = 1 ]; then
  threads="$threads,$((2 * cores)),$((4 * cores))"
fi
rm -f "$out/suite.csv"
sweep_suite "$out/suite.csv"
echo "scaling.sh: $cores cores; threads $threads; backends $backends; depth $depth; $runs real runs, $seeds seeds" >&2
"$xqlab" lab --suite "$out/suite.csv" --backends "$backends" --threads "$threads" --depth "$depth" \
  --runs "$runs" --hash-mb "$hash_mb" --quiet --json-file "$out/real.json" > "$out/real.txt"
"$xqlab" lab --simulate --sim-profile "$profile" --suite "$out/suite.csv" --backends "$backends" \
  --threads "$threads" --depth "$depth" --runs "$seeds" --hash-mb "$hash_mb" --sim-cores "$cores" --quiet \
  --json-file "$out/sim.json" > "$out/sim.txt"
python3 "$root/bench/sim_vs_real.py" "$out/real.json" "$out/sim.json" "$cores" "$limit" "$so_limit" | tee "$out/errors.txt"
