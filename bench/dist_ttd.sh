#!/usr/bin/env bash
# The price of distribution at equal CPU (issue 26's targets): time to depth
# and search overhead of a distributed backend at 2 ranks x 1 thread, over
# MPI (mpirun -np 2) and over the loop wire, against its one-process
# counterpart at 2 threads (mpi-lazy: lazysmp; mpi-abdada: abdada; mpi-aphid:
# aphid), with the serial search as the reference of every speedup and the
# distributed backend with nothing shared between its ranks as the floor
# (mpi-lazy: share_depth=0; mpi-abdada: home_depth=64 and replica_depth=0,
# no node claimed at a home and no store shipped -- the root's best is still
# shared); mpi-aphid shares nothing but leaves by design, so its third run is
# Brockington's dedicated master instead (aphid_master=no: every leaf is
# searched on rank 1).
# Every position is searched by each configuration in turn, repetition by
# repetition (A/B interleaved), each search a fresh process (a fresh table).
# Prints per repetition the geometric mean over positions of
# S = t(serial) / t(config) and of the node ratio n(config) / n(serial)
# (search overhead SO = ratio - 1), the ratios against the counterpart,
# the MPI runs' messages and bytes per second and, for mpi-abdada, its
# round trips (p50 / p99, median over positions) and the share of the
# threads' time spent waiting for answers, for mpi-aphid the master's
# passes and uncertain leaves per APHID iteration (depths aphid_plies + 2
# and up; the default 2-ply top tree assumed), its leaf searches and the
# share of them re-searched for a new window; the JSON lines stay in OUT.
# On 2 cores, ranks x threads = 2 measures speed; more would measure overhead.
# XQLAB_DIST_BACKEND=mpi-abdada picks the backend (default mpi-lazy);
# XQLAB_DIST_PARAMS="share_depth=2 tick_us=250" sets its parameters.
# Usage: bench/dist_ttd.sh XQLAB OUT [reps=3] [depth=10] [suite=data/middlegames.csv]
set -euo pipefail
xqlab="$1"
dir="$2"
reps="${3:-3}"
depth="${4:-10}"
suite="${5:-$(dirname "$0")/../data/middlegames.csv}"
backend="${XQLAB_DIST_BACKEND:-mpi-lazy}"
case "$backend" in
  mpi-lazy) local_backend=lazysmp; off=(--param share_depth=0) ;;
  mpi-abdada) local_backend=abdada; off=(--param home_depth=64 --param replica_depth=0) ;;
  mpi-aphid) local_backend=aphid; off=(--param aphid_master=no) ;;
  *) echo "dist_ttd.sh: XQLAB_DIST_BACKEND must be mpi-lazy, mpi-abdada or mpi-aphid, got '$backend'" >&2; exit 2 ;;
esac
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
    run "r$rep-local" "$xqlab" search --backend "$local_backend" --threads 2
    run "r$rep-mpi" mpirun -np 2 "$xqlab" search --backend "$backend" --param ranks=2 "${extra[@]}"
    run "r$rep-loop" "$xqlab" search --backend "$backend" --param ranks=2 --param wire=loop \
      "${extra[@]}"
    run "r$rep-off" "$xqlab" search --backend "$backend" --param ranks=2 --param wire=loop "${off[@]}"
  done
done
python3 - "$dir" "$reps" "$local_backend" "$depth" <<'PY'
import json, math, statistics, sys
d, reps, local, depth = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def load(rep, name):
    return [json.loads(l) for l in open(f"{d}/r{rep}-{name}.jsonl")]
def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))
# A declared counter of one search: under "counters" since 2026-12-02
# (search/counters.h), at the top level before.
def ctr(r, name):
    return r.get("counters", {}).get(name, r.get(name, 0))
names = ["local", "mpi", "loop", "off"]
S = {n: [] for n in names}
N = {n: [] for n in names}
rate = {"msgs": [], "bytes": []}
trips = {"p50": [], "p99": [], "wait": [], "probes": []}
aphid = {}  # name -> figure -> per rep
for rep in range(1, reps + 1):
    serial = load(rep, "serial")
    for n in names:
        runs = load(rep, n)
        assert len(runs) == len(serial), f"rep {rep} {n}: {len(runs)} of {len(serial)} positions"
        S[n].append(gmean([s["seconds"] / r["seconds"] for s, r in zip(serial, runs)]))
        N[n].append(gmean([r["nodes"] / s["nodes"] for s, r in zip(serial, runs)]))
        if local == "aphid":
            iters = len(runs) * max(depth - 3, 1)  # APHID iterations: depths 4..depth
            passes = sum(ctr(r, "master_passes") for r in runs)
            leaves = sum(ctr(r, "leaf_searches") for r in runs)
            busy = sum(r["search_seconds"] + r["idle_seconds"] + r["lock_seconds"] + r["copy_seconds"] for r in runs)
            f = aphid.setdefault(n, {k: [] for k in ("passes", "uncertain", "leaves", "again", "idle")})
            f["passes"].append(passes / iters)
            f["uncertain"].append(sum(ctr(r, "uncertain_leaves") for r in runs) / max(passes, 1))
            f["leaves"].append(leaves / len(runs))
            f["again"].append(sum(r["researches"] for r in runs) / max(leaves, 1))
            f["idle"].append(sum(r["idle_seconds"] for r in runs) / busy if busy else 0.0)
    mpi = load(rep, "mpi")
    secs = sum(r["seconds"] for r in mpi)
    rate["msgs"].append(sum(ctr(r, "msgs_sent") for r in mpi) / secs)
    rate["bytes"].append(sum(ctr(r, "bytes_sent") for r in mpi) / secs)
    for r in mpi:
        assert ctr(r, "msgs_sent") == ctr(r, "msgs_received") and ctr(r, "bytes_sent") == ctr(r, "bytes_received"), "not drained"
    if any("round_trip_us" in r for r in mpi):
        rt = [r["round_trip_us"] for r in mpi if "round_trip_us" in r]
        trips["p50"].append(statistics.median(x["p50"] for x in rt))
        trips["p99"].append(statistics.median(x["p99"] for x in rt))
        # Two threads (one per rank) over the search's wall time.
        trips["wait"].append(sum(ctr(r, "remote_wait_seconds") for r in mpi) / (2 * secs))
        trips["probes"].append(sum(ctr(r, "remote_probes") for r in mpi) / secs)
def show(label, xs, fmt="{:.3f}"):
    print(f"{label}: per rep {[float(fmt.format(x)) for x in xs]} median {fmt.format(statistics.median(xs))} "
          f"[{fmt.format(min(xs))}, {fmt.format(max(xs))}]")
for n in names:
    label = local if n == "local" else n
    show(f"S {label} (geometric mean over positions)", S[n])
    show(f"SO {label} (geometric mean of nodes / serial nodes, minus 1)", [x - 1 for x in N[n]])
for n, f in aphid.items():
    label = local if n == "local" else n
    show(f"{label}: master passes per APHID iteration", f["passes"], "{:.1f}")
    show(f"{label}: uncertain leaves per pass", f["uncertain"], "{:.1f}")
    show(f"{label}: leaf searches per search", f["leaves"], "{:.0f}")
    show(f"{label}: share of leaf searches re-searched for a new window", f["again"])
    show(f"{label}: idle share of the threads' booked time", f["idle"])
for n in ["mpi", "loop", "off"]:
    show(f"S {n} / S {local}", [a / b for a, b in zip(S[n], S["local"])])
    show(f"SO {n} - SO {local}", [a - b for a, b in zip(N[n], N["local"])])
show("MPI messages sent per second (both ranks)", rate["msgs"], "{:.0f}")
show("MPI bytes sent per second (both ranks)", rate["bytes"], "{:.0f}")
if trips["p50"]:
    show("MPI round trips per second", trips["probes"], "{:.0f}")
    show("MPI round trip p50 us (median over positions)", trips["p50"], "{:.0f}")
    show("MPI round trip p99 us (median over positions)", trips["p99"], "{:.0f}")
    show("MPI remote-wait share of the threads' time", trips["wait"])
PY
