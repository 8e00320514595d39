#!/usr/bin/env python3
# merge.py OUT A B: one lab document from two lab runs of the same suite and seed (B's serial row dropped)
import json, sys
a, b = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
a["results"] += [r for r in b["results"] if r["backend"] != "serial"]
json.dump(a, open(sys.argv[1], "w"), indent=1)
