#!/bin/bash
# usage: ab.sh depth npos hashmb
d=$1; n=$2; h=$3
tail -n +2 /work/main/data/middlegames.csv | head -$n | while IFS= read -r line; do
  fen=$(python3 -c "import csv,sys; r=next(csv.reader([sys.argv[1]])); print(r[-1])" "$line")
  for pass in 1 2; do
    if [ $pass = 1 ]; then order="old new"; else order="new old"; fi
    for b in $order; do
      nps=$(taskset -c 0 /tmp/xq-$b search --fen "$fen" --depth $d --hash-mb $h --json | python3 -c "import json,sys; j=json.load(sys.stdin); print(j['nps'], j['nodes'])")
      echo "$b $nps"
    done
  done
done
