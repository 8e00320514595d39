#!/usr/bin/env bash
# The new defaults (share_depth 2, share_batch 256, tick 1000 us) against s2b256t250 and lazysmp 2t,
# interleaved per position, both suites, no serial (the S ratio is t(lazysmp) / t(mpi-lazy)).
set -uo pipefail
x=/tmp/xqlab-new; out=/tmp/sweep/confirm; reps=${1:-3}; depth=10
mkdir -p $out
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for rep in $(seq 1 $reps); do
  for suite in middlegames fresh_middlegames; do
    mapfile -t fens < <(tail -n +2 /work/main/data/$suite.csv | awk -F, '{print $NF}')
    for i in "${!fens[@]}"; do
      fen="${fens[$i]}"; echo "rep $rep $suite pos $i $(date +%T)" >&2
      $x search --backend lazysmp --threads 2 --fen "$fen" --depth $depth --json | head -1 >> $out/$suite-r$rep-local.jsonl
      mpirun -np 2 $x search --backend mpi-lazy --param ranks=2 --fen "$fen" --depth $depth --json | head -1 >> $out/$suite-r$rep-def.jsonl
      mpirun -np 2 $x search --backend mpi-lazy --param ranks=2 --param tick_us=250 --fen "$fen" --depth $depth --json | head -1 >> $out/$suite-r$rep-t250.jsonl
    done
  done
done
echo done >&2
