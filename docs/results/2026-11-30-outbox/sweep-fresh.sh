#!/usr/bin/env bash
# Interleaved: per rep, per position, serial, lazysmp 2t, then mpi-lazy 2x1 variants over mpirun.
set -uo pipefail
x=/tmp/xqlab-heap; dir=/tmp/sweep/fresh; reps=${1:-3}; depth=10
mkdir -p $dir
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mapfile -t fens < <(tail -n +2 /work/main/data/fresh_middlegames.csv | awk -F, '{print $NF}')
declare -A V=( [old]="share_depth=4 share_batch=16 tick_us=1000" [s2b256t250]="share_depth=2 share_batch=256 tick_us=250" [s2b1024t1000]="share_depth=2 share_batch=1024 tick_us=1000" [s1b256t250]="share_depth=1 share_batch=256 tick_us=250" )
for rep in $(seq 1 $reps); do
  for i in "${!fens[@]}"; do
    fen="${fens[$i]}"; echo "rep $rep pos $i $(date +%T)" >&2
    $x search --backend serial --fen "$fen" --depth $depth --json | head -1 >> $dir/r$rep-serial.jsonl
    $x search --backend lazysmp --threads 2 --fen "$fen" --depth $depth --json | head -1 >> $dir/r$rep-local.jsonl
    for v in old s2b256t250 s1b256t250 s2b1024t1000; do
      extra=(); for p in ${V[$v]}; do extra+=(--param "$p"); done
      mpirun -np 2 $x search --backend mpi-lazy --param ranks=2 "${extra[@]}" --fen "$fen" --depth $depth --json | head -1 >> $dir/r$rep-$v.jsonl
    done
  done
done
echo done >&2
