#!/usr/bin/env python3
"""Stop latency with a trace: `xqlab engine` runs CYCLES "go infinite" / "stop"
cycles (stop after the first info line plus U(0, 20) ms, as in
bench/stop_latency.sh); prints p50 / p99 / max of "stop" written -> "bestmove"
read, then the five slowest cycles with every line the engine wrote after
"stop" and its time in ms. Usage: stop_trace.py XQLAB BACKEND THREADS CYCLES
"""
import random, subprocess, sys, time
xqlab, backend, threads, cycles = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
p = subprocess.Popen([xqlab, "engine", "--backend", backend, "--threads", threads],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def until(prefix):
    out = []
    while True:
        l = p.stdout.readline(); out.append((time.perf_counter(), l.strip()))
        if l.startswith(prefix): return out
send("uci"); until("uciok")
random.seed(2)
rows = []
for i in range(cycles):
    send("go infinite"); until("info depth")
    time.sleep(random.uniform(0, 0.02))
    t0 = time.perf_counter(); send("stop")
    out = until("bestmove")
    lat = (out[-1][0] - t0) * 1000
    rows.append((lat, [( round((t - t0) * 1000, 2), l[:60]) for t, l in out]))
send("quit"); p.wait()
rows.sort(key=lambda r: -r[0])
lats = sorted(r[0] for r in rows)
print("p50 %.2f p99 %.2f max %.2f" % (lats[len(lats)//2], lats[int(0.99*len(lats))], lats[-1]))
for r in rows[:5]:
    print("%.2f" % r[0], r[1][-4:])
