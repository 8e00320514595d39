# The many-cores sweep's defaults, sourced by bench/many_cores.sh (which runs
# it, SIMULATED) and bench/scaling.sh (which checks it on a real machine), so
# both speak of the same backends, depth, table and positions.
# shellcheck shell=bash
sweep_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The split families first (they decide the 30-at-64 target and cost least),
# then the shared-table ones, then the root baselines.
SWEEP_BACKENDS=ybwc,dts,jamboree,pvsplit,abdada-simple,abdada,lazysmp,aspiration,uidpabs
SWEEP_DEPTH=11
SWEEP_THREADS=1,2,4,8,16,32,64,128,256
SWEEP_HASH_MB=16
SWEEP_XQLAB="$sweep_root/build/xqlab"

# sweep_suite FILE: positions 1-8 of data/middlegames.csv, unless FILE exists.
sweep_suite() {
  [ -e "$1" ] || head -9 "$sweep_root/data/middlegames.csv" > "$1"
}

# sweep_need_xqlab SCRIPT BINARY: one line and exit 2 when there is none.
sweep_need_xqlab() {
  [ -x "$2" ] || { echo "$1: no xqlab binary at $2 (scripts/lab.sh builds one)" >&2; exit 2; }
}
