#!/usr/bin/env bash
# Stop latency as a GUI sees it: for every registered backend (from `xqlab
# list --json`), `xqlab engine` at THREADS threads runs N cycles of
# "go infinite" / "stop" over pipes; each cycle waits for the first info
# line plus a random 0-DELAY ms (so the stop lands in iterations of varied
# depth), then times "stop" written -> "bestmove" read. Prints p50 / p99 /
# max in milliseconds per backend, and the load before and after (the lab
# machine is shared: say what the load was). XQLAB_BACKENDS=a,b limits the
# run to those backends (in the registry's order); XQLAB_LAUNCH="mpirun -np 2"
# starts each engine through a launcher (a distributed backend over MPI). Usage:
#   bench/stop_latency.sh [BUILD_DIR] [N] [THREADS] [DELAY_MS]
set -euo pipefail
build=${1:-build}
cycles=${2:-1000}
threads=${3:-2}
delay=${4:-20}
xqlab="$build/xqlab"
[ -x "$xqlab" ] || { echo "stop_latency.sh: $xqlab not found (build it first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "stop_latency.sh: needs python3" >&2; exit 2; }
echo "date: $(date -u +%F' '%T) nproc: $(nproc) load before: $(uptime | sed 's/.*load average: //')"
echo "cycles: $cycles threads: $threads stop after the first info line + U(0, $delay) ms"
"$xqlab" list --json | python3 -c '
import json, os, random, subprocess, sys, time
xqlab, cycles, threads, delay = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
backends = json.load(sys.stdin)["backends"]
only = [b for b in os.environ.get("XQLAB_BACKENDS", "").split(",") if b]
if only:
    unknown = [b for b in only if b not in backends]
    if unknown:
        sys.exit("stop_latency.sh: unknown backend(s) in XQLAB_BACKENDS: " + ",".join(unknown))
    backends = [b for b in backends if b in only]

def until(p, prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("engine exited early")
        if line.startswith(prefix):
            return line

def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]

random.seed(1)
print("%-13s %7s %8s %8s %8s" % ("backend", "cycles", "p50 ms", "p99 ms", "max ms"))
for b in backends:
    launch = os.environ.get("XQLAB_LAUNCH", "").split()
    p = subprocess.Popen(launch + [xqlab, "engine", "--backend", b, "--threads", threads],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    send = lambda s: (p.stdin.write(s + "\n"), p.stdin.flush())
    send("uci"); until(p, "uciok")
    send("isready"); until(p, "readyok")
    lat = []
    for i in range(cycles):
        send("go infinite")
        until(p, "info depth")
        time.sleep(random.uniform(0, delay) / 1000.0)
        t0 = time.perf_counter()
        send("stop")
        until(p, "bestmove")
        lat.append((time.perf_counter() - t0) * 1000.0)
    send("quit"); p.wait()
    print("%-13s %7d %8.2f %8.2f %8.2f" % (b, len(lat), quantile(lat, 0.5), quantile(lat, 0.99),
                                          max(lat)), flush=True)
' "$xqlab" "$cycles" "$threads" "$delay"
echo "load after: $(uptime | sed 's/.*load average: //')"
