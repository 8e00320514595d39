#!/usr/bin/env bash
# The price of distribution at equal CPU (issue 26's first target): time to
# depth of mpi-lazy at 2 ranks x 1 thread, over MPI (mpirun -np 2) and over
# the loop wire, against lazysmp at 2 threads, with the serial search as the
# reference of every speedup and mpi-lazy with sharing off (share_depth=0)
# as the floor. Every position is searched by each configuration in turn,
# repetition by repetition (A/B interleaved), each search a fresh process
# (a fresh table). Prints per repetition the geometric mean over positions
# of S = t(serial) / t(config), the ratio S(mpi-lazy) / S(lazysmp), and the
# MPI runs' messages and bytes per second; the JSON lines stay in OUT.
# On 2 cores, ranks x threads = 2 measures speed; more would measure overhead.
# XQLAB_DIST_PARAMS="share_depth=2 tick_us=250" sets mpi-lazy's parameters.
# Usage: bench/dist_ttd.sh XQLAB OUT [reps=3] [depth=10] [suite=data/middlegames.csv]
set -euo pipefail
xqlab="$1"
dir="$2"
reps="${3:-3}"
depth="${4:-10}"
suite="${5:-$(dirname "$0")/../data/middlegames.csv}"
mkdir -p "$dir"
export OMPI_MCA_mpi_yield_when_idle=1
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
mapfile -t fens < <(tail -n +2 "$suite" | awk -F, '{print $NF}')
extra=()
for p in ${XQLAB_DIST_PARAMS:-}; do extra+=(--param "$p"); done
run() {  # name, then the command
  local name="$1"
  shift
  "$@" --fen "$fen" --depth "$depth" --json | head -1 >> "$dir/$name.jsonl"
}
for rep in $(seq 1 "$reps"); do
  for i in "${!fens[@]}"; do
    fen="${fens[$i]}"
    echo "rep $rep position $((i + 1))/${#fens[@]}" >&2
    run "r$rep-serial" "$xqlab" search --backend serial
    run "r$rep-lazysmp" "$xqlab" search --backend lazysmp --threads 2
    run "r$rep-mpi" mpirun -np 2 "$xqlab" search --backend mpi-lazy --param ranks=2 "${extra[@]}"
    run "r$rep-loop" "$xqlab" search --backend mpi-lazy --param ranks=2 --param wire=loop \
      "${extra[@]}"
    run "r$rep-off" "$xqlab" search --backend mpi-lazy --param ranks=2 --param wire=loop \
      --param share_depth=0
  done
done
python3 - "$dir" "$reps" <<'PY'
import json, math, statistics, sys
d, reps = sys.argv[1], int(sys.argv[2])
def load(rep, name):
    return [json.loads(l) for l in open(f"{d}/r{rep}-{name}.jsonl")]
def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))
names = ["lazysmp", "mpi", "loop", "off"]
S = {n: [] for n in names}
rate = {"msgs": [], "bytes": []}
for rep in range(1, reps + 1):
    serial = load(rep, "serial")
    for n in names:
        runs = load(rep, n)
        assert len(runs) == len(serial), f"rep {rep} {n}: {len(runs)} of {len(serial)} positions"
        S[n].append(gmean([s["seconds"] / r["seconds"] for s, r in zip(serial, runs)]))
    mpi = load(rep, "mpi")
    secs = sum(r["seconds"] for r in mpi)
    rate["msgs"].append(sum(r["msgs_sent"] for r in mpi) / secs)
    rate["bytes"].append(sum(r["bytes_sent"] for r in mpi) / secs)
    for r in mpi:
        assert r["msgs_sent"] == r["msgs_received"] and r["bytes_sent"] == r["bytes_received"], "not drained"
def show(label, xs, fmt="{:.3f}"):
    print(f"{label}: per rep {[float(fmt.format(x)) for x in xs]} median {fmt.format(statistics.median(xs))} "
          f"[{fmt.format(min(xs))}, {fmt.format(max(xs))}]")
for n in names:
    show(f"S {n} (geometric mean over positions)", S[n])
for n in ["mpi", "loop", "off"]:
    show(f"S {n} / S lazysmp", [a / b for a, b in zip(S[n], S["lazysmp"])])
show("MPI messages sent per second (both ranks)", rate["msgs"], "{:.0f}")
show("MPI bytes sent per second (both ranks)", rate["bytes"], "{:.0f}")
PY
