#!/usr/bin/env bash
# Issue 29's comparison: `xqlab evolve` and `xqlab spsa` tune the
# evaluation's weights with the same budget of games (fixed depth, openings
# data/tuning_openings.csv); then each tuned vector plays the defaults on the
# held-out openings data/tuning_holdout.csv (every opening twice, colours
# reversed), which no tuner saw. Prints Elo with its 95 % interval, the CPU
# hours of each tuning run and Elo per CPU hour; keeps every document in OUT.
# Usage: bench/tuning_compare.sh XQLAB OUT [games=2016] [depth=4] [seed=1] [r_end=0.02] [rounds=6]
set -euo pipefail
xqlab="$1"; out="$2"; games="${3:-2016}"; depth="${4:-4}"; seed="${5:-1}"; r_end="${6:-0.02}"
rounds="${7:-6}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
common=(--params eval --depth "$depth" --seed "$seed" --threads 2
        --openings "$root/data/tuning_openings.csv" --json)
# evolve: 12 individuals x ROUNDS rounds = 12 x ROUNDS games a generation.
"$xqlab" evolve "${common[@]}" --population 12 --rounds "$rounds" \
  --generations $(( games / (12 * rounds) )) \
  --checkpoint "$out/evolve-checkpoint.json" --save "$out/evolve.txt" > "$out/evolve.json"
# spsa: 2 pairs = 4 games an iteration.
"$xqlab" spsa "${common[@]}" --pairs 2 --iterations $(( games / 4 )) --r-end "$r_end" \
  --checkpoint "$out/spsa-checkpoint.json" --save "$out/spsa.txt" > "$out/spsa.json"
holdout="$root/data/tuning_holdout.csv"
n=$(( $(wc -l < "$holdout") - 1 ))
for method in evolve spsa; do
  "$xqlab" match --engine "xqlab:tunables=$out/$method.txt,name=$method" \
    --engine xqlab:name=defaults --depth "$depth" --games $(( 2 * n )) --openings "$holdout" \
    --json > "$out/verify-$method.json" 2> /dev/null
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for method in ("evolve", "spsa"):
    run = json.load(open(f"{out}/{method}.json"))[method]
    if method == "evolve":
        games = sum(h["games"] for h in run["history"])
        cpu = sum(h["cpu_seconds"] for h in run["history"])
        secs = sum(h["seconds"] for h in run["history"])
    else:
        games = run["iteration"] * run["config"]["pairs"] * 2
        cpu, secs = run["cpu_seconds"], run["seconds"]
    p = json.load(open(f"{out}/verify-{method}.json"))["match"]["pairings"][0]
    elo, lo, hi = p["elo"], p["elo_ci"][0], p["elo_ci"][1]
    print(f"{method}: {games} tuning games, {secs:.0f} s, {cpu / 3600:.3f} CPU h; against the "
          f"defaults on held-out openings: +{p['wins']} ={p['draws']} -{p['losses']}, "
          f"Elo {elo:.1f} [{lo:.1f}, {hi:.1f}], {elo / (cpu / 3600):.0f} Elo per CPU hour")
PY
