#!/usr/bin/env bash
# The many-cores sweep, SIMULATED: each backend at 1..256 logical threads on
# the simulated machine, one `xqlab lab --simulate` document per backend and
# seed, so that a sweep that dies keeps every finished document and every
# finished search (the lab's journal): run the same command again and it
# skips what is done and resumes what was cut.
#
# Usage: bench/many_cores.sh OUTDIR [BACKENDS] [DEPTH] [SEEDS] [PROFILE]
#   OUTDIR    where SUITE.csv, <backend>-d<depth>-s<seed>-SIMULATED.json
#             (+ .journal, .txt) and plan.txt go
#   BACKENDS  comma list, run in this order (default: the split families
#             first, then the shared-table ones, then the root baselines:
#             ybwc,dts,jamboree,pvsplit,abdada-simple,abdada,lazysmp,
#             aspiration,uidpabs)
#   DEPTH     search depth (default 11)
#   SEEDS     comma list of --sim-seed values (default 1)
#   PROFILE   search profile, thesis or modern (default thesis)
# Environment: XQLAB (default build/xqlab), THREADS (default
# 1,2,4,8,16,32,64,128,256), SUITE (default: positions 1-8 of
# data/middlegames.csv), HASH_MB (default 16, the lab's), NICE (default 19:
# a simulation's figures do not depend on the load, so it yields to builds).
# Every document and summary is labelled SIMULATED by the lab itself.
set -euo pipefail
source "$(dirname "$0")/sweep_defaults.sh"
out="${1:?usage: bench/many_cores.sh OUTDIR [BACKENDS] [DEPTH] [SEEDS] [PROFILE]}"
backends="${2:-$SWEEP_BACKENDS}"
depth="${3:-$SWEEP_DEPTH}"
seeds="${4:-1}"
profile="${5:-thesis}"
threads="${THREADS:-$SWEEP_THREADS}"
hash_mb="${HASH_MB:-$SWEEP_HASH_MB}"
xqlab="${XQLAB:-$SWEEP_XQLAB}"
root="$sweep_root"
sweep_need_xqlab many_cores.sh "$xqlab"
case "$profile" in thesis|modern) ;; *) echo "many_cores.sh: profile must be thesis or modern, not '$profile'" >&2; exit 2;; esac
mkdir -p "$out"
suite="$out/SUITE.csv"
if [ -n "${SUITE:-}" ]; then
  cp "$SUITE" "$suite"
else
  sweep_suite "$suite"
fi
{
  echo "many_cores.sh plan, $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores"
  echo "SIMULATED: backends $backends; threads $threads; depth $depth; seeds $seeds; profile $profile; ${hash_mb} MiB"
} >> "$out/plan.txt"
IFS=, read -r -a blist <<< "$backends"
IFS=, read -r -a slist <<< "$seeds"
for seed in "${slist[@]}"; do
  for b in "${blist[@]}"; do
    base="$out/$b-$profile-d$depth-s$seed-SIMULATED"
    if [ -e "$base.json" ]; then
      echo "many_cores.sh: $b seed $seed done ($base.json)" >&2
      continue
    fi
    args=(lab --simulate --suite "$suite" --backends "serial,$b" --threads "$threads"
          --depth "$depth" --runs 1 --sim-seed "$seed" --profile "$profile" --hash-mb "$hash_mb"
          --quiet --json-file "$base.json" --journal "$base.json.journal")
    how=start
    if [ -s "$base.json.journal" ]; then args+=(--resume); how=resume; fi
    echo "many_cores.sh: $b seed $seed: $how, $(date -u +%T)" >&2
    start=$(date +%s)
    nice -n "${NICE:-19}" "$xqlab" "${args[@]}" > "$base.txt"
    echo "$b seed $seed: $(( $(date +%s) - start )) s of one core, $(date -u +%FT%TZ)" >> "$out/plan.txt"
  done
done
