#!/usr/bin/env bash
# Fails on any project include that points the wrong way between folders
# (docs/DESIGN.md, layout): one line per offending include, exit status 1.
#
#   board <- hashing <- search <- parallel <- engine <- lab <- cli
#
# A folder may include its own files and those of the folders to its left.
# Inside lab/, one sub-folder per product:
#   common  <- records, timing, games, report   (common: board/ and itself only)
#   records <- timing                           (JSON of the library's results)
#   report  reads JSON documents: lab/common/ and itself, nothing else
# Nothing in the library layers includes cli/; bench/, tests/ and fuzz/ may
# include anything. Usage: scripts/check_includes.sh [source root]
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

includes() {
  find board hashing search parallel engine lab cli -type f \( -name '*.h' -o -name '*.cpp' \) \
      -print0 | sort -z |
    xargs -0 grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' || true
}

includes | awk '
    BEGIN {
      n = split("board hashing search parallel engine lab cli", order, " ")
      for (i = 1; i <= n; ++i) rank[order[i]] = i
      # lab/ products: what each may include inside lab/ (itself always).
      lab_ok["common"] = ""
      lab_ok["records"] = " common "
      lab_ok["timing"] = " common records "
      lab_ok["games"] = " common "
      lab_ok["report"] = " common "
      bad = 0
    }
    function offend(msg) { print file ":" line ": " msg; bad = 1 }
    {
      # "path:line:#include \"target\""
      file = $0; sub(/:.*/, "", file)
      rest = substr($0, length(file) + 2)
      line = rest; sub(/:.*/, "", line)
      target = rest; sub(/^[^"]*"/, "", target); sub(/".*/, "", target)
      split(file, fp, "/"); split(target, tp, "/")
      from = fp[1]; to = tp[1]
      if (!(to in rank)) {
        offend("includes \"" target "\": not a library or cli folder")
        next
      }
      if (rank[to] > rank[from]) {
        offend("includes \"" target "\": " from "/ may not include " to "/ (board <- hashing <- search <- parallel <- engine <- lab <- cli)")
        next
      }
      if (from != "lab" && to != "lab") next
      # Inside lab/ and into it: every lab file lives in a product folder.
      if (from == "lab" && !(fp[2] in lab_ok)) {
        offend("lab file outside the product folders (common, records, timing, games, report)")
        next
      }
      if (to == "lab" && !(tp[2] in lab_ok) ) {
        offend("includes \"" target "\": not in a lab product folder")
        next
      }
      if (from != "lab") next
      src = fp[2]
      if (to == "lab") {
        dst = tp[2]
        if (dst != src && index(lab_ok[src], " " dst " ") == 0)
          offend("includes \"" target "\": lab/" src "/ may not include lab/" dst "/")
        next
      }
      # A lab product including a library layer.
      if (src == "report")
        offend("includes \"" target "\": the report reads JSON documents only (lab/common/ and lab/report/)")
      else if (src == "common" && to != "board")
        offend("includes \"" target "\": lab/common/ may include board/ only (the report links it)")
    }
    END { exit bad }
  '
