#!/usr/bin/env bash
# Start-position perft throughput of xqlab against Fairy-Stockfish, measured
# side by side on this machine.
#
#   bench/perft_vs_fairy.sh [XQLAB_BINARY [RUNS [DEPTH]]]
#       XQLAB_BINARY  default build/xqlab (relative to the repository root)
#       RUNS          runs per engine, default 5 (at least 3)
#       DEPTH         perft depth, default 5 (133,312,995 leaf nodes)
#   FAIRY=/path/to/fairy-stockfish overrides the engine's location.
#
# Runs alternate A/B/B/A (xqlab first on odd runs, Fairy-Stockfish first on
# even ones) so slow drifts in machine load hit both engines alike; medians are
# reported. Both programs count leaves with legal move generation (no make at
# the last ply), single-threaded.
#
# What is timed. Fairy-Stockfish's `go perft N` prints per-move counts and
# "Nodes searched: N" but no time, so the script drives it over a pipe: it
# starts the engine, sends `uci`, `setoption name UCI_Variant value xiangqi`,
# `isready`, waits for `readyok`, then takes the time from sending
# `position startpos` + `go perft N` to reading the "Nodes searched" line.
# For xqlab the figure is the `seconds` of `xqlab perft --json` (a steady
# clock around the perft call). Both figures thus exclude process start-up and
# initialisation; they are the primary result ("in-process"). The wall time of
# each whole process (start-up, variant set-up and exit included) is reported
# too ("whole command").
#
# Exits 0 with a "skip:" message when fairy-stockfish is not installed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
xqlab=${1:-$root/build/xqlab}
runs=${2:-5}
depth=${3:-5}

if [[ ! -x $xqlab ]]; then
  echo "perft_vs_fairy: xqlab binary '$xqlab' not found or not executable (build it first)" >&2
  exit 2
fi
if ! [[ $runs =~ ^[0-9]+$ ]] || ((runs < 3)); then
  echo "perft_vs_fairy: RUNS must be a whole number >= 3, got '$runs'" >&2
  exit 2
fi
if ! [[ $depth =~ ^[0-9]+$ ]] || ((depth < 1 || depth > 8)); then
  echo "perft_vs_fairy: DEPTH must be between 1 and 8, got '$depth'" >&2
  exit 2
fi

fairy=${FAIRY:-}
if [[ -z $fairy ]]; then
  fairy=$(command -v fairy-stockfish || true)
  [[ -z $fairy && -x /usr/games/fairy-stockfish ]] && fairy=/usr/games/fairy-stockfish
fi
if [[ -z $fairy || ! -x $fairy ]]; then
  echo "skip: fairy-stockfish is not installed (apt-get install fairy-stockfish, or set FAIRY=path)"
  exit 0
fi

now() { echo "$EPOCHREALTIME"; }           # seconds with microseconds, no fork
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }

# Prints "nodes in_process_seconds whole_command_seconds".
run_xqlab() {
  local t0 t1 json nodes secs
  t0=$(now)
  json=$("$xqlab" perft --fen startpos --depth "$depth" --json)
  t1=$(now)
  nodes=$(sed -n 's/.*"nodes": *\([0-9]*\).*/\1/p' <<<"$json")
  secs=$(sed -n 's/.*"seconds": *\([0-9.eE+-]*\).*/\1/p' <<<"$json")
  echo "$nodes $secs $(sub "$t1" "$t0")"
}

run_fairy() {
  local t_start t0 t1 t_end line nodes=""
  t_start=$(now)
  coproc FS { exec "$fairy" 2>/dev/null; }
  printf 'uci\nsetoption name UCI_Variant value xiangqi\nisready\n' >&"${FS[1]}"
  while IFS= read -r -t 60 line <&"${FS[0]}"; do [[ $line == readyok* ]] && break; done
  t0=$(now)
  printf 'position startpos\ngo perft %d\n' "$depth" >&"${FS[1]}"
  while IFS= read -r -t 3600 line <&"${FS[0]}"; do
    if [[ $line == "Nodes searched: "* ]]; then
      nodes=${line#Nodes searched: }
      break
    fi
  done
  t1=$(now)
  printf 'quit\n' >&"${FS[1]}"
  wait "$FS_PID" || true
  t_end=$(now)
  echo "$nodes $(sub "$t1" "$t0") $(sub "$t_end" "$t_start")"
}

median() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.6f", m }'; }

echo "perft($depth) from the start position, $runs interleaved runs per engine"
echo "xqlab: $xqlab"
echo "fairy-stockfish: $fairy ($(dpkg-query -W -f='${Version}' fairy-stockfish 2>/dev/null || echo unknown version))"
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %-16s %12s %12s %14s %14s\n' run engine nodes in-process whole-command in-process-nps

xq_in=() xq_whole=() fs_in=() fs_whole=() xq_nodes="" fs_nodes=""
record() {  # engine result-line run
  local engine=$1 nodes inproc whole nps
  read -r nodes inproc whole <<<"$2"
  nps=$(awk -v n="$nodes" -v s="$inproc" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
  printf '%-4s %-16s %12s %12s %14s %14s\n' "$3" "$engine" "$nodes" "$inproc" "$whole" "$nps"
  if [[ $engine == xqlab ]]; then
    xq_nodes=$nodes; xq_in+=("$inproc"); xq_whole+=("$whole")
  else
    fs_nodes=$nodes; fs_in+=("$inproc"); fs_whole+=("$whole")
  fi
}
for ((i = 1; i <= runs; ++i)); do
  if ((i % 2)); then
    record xqlab "$(run_xqlab)" "$i"
    record fairy-stockfish "$(run_fairy)" "$i"
  else
    record fairy-stockfish "$(run_fairy)" "$i"
    record xqlab "$(run_xqlab)" "$i"
  fi
done

if [[ -z $xq_nodes || $xq_nodes != "$fs_nodes" ]]; then
  echo "perft_vs_fairy: node counts differ: xqlab $xq_nodes, fairy-stockfish $fs_nodes" >&2
  exit 1
fi

xq_t=$(printf '%s\n' "${xq_in[@]}" | median)
fs_t=$(printf '%s\n' "${fs_in[@]}" | median)
xq_w=$(printf '%s\n' "${xq_whole[@]}" | median)
fs_w=$(printf '%s\n' "${fs_whole[@]}" | median)
awk -v n="$xq_nodes" -v xt="$xq_t" -v ft="$fs_t" -v xw="$xq_w" -v fw="$fs_w" 'BEGIN {
  printf "median in-process:    xqlab %.3f s = %.2f Mnps, fairy-stockfish %.3f s = %.2f Mnps, ratio xqlab/fairy = %.2f\n",
         xt, n / xt / 1e6, ft, n / ft / 1e6, ft / xt
  printf "median whole command: xqlab %.3f s = %.2f Mnps, fairy-stockfish %.3f s = %.2f Mnps, ratio xqlab/fairy = %.2f\n",
         xw, n / xw / 1e6, fw, n / fw / 1e6, fw / xw
}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
