#!/bin/bash
# Machine instructions for N apply+undo pairs (benchmarks/apply_pairs.py), which the load of other
# processes does not change. Run from the project root:
#   bash benchmarks/count_instructions.sh SRC KIND N [--same]
# SRC: the source tree to import (src for this tree; an exported baseline's src to compare).
# Per pair = (the count at N=300 - the count at N=100) / 200; it varies by about 0.05 M from one
# sitting to the next, so count both trees in one sitting. Needs valgrind (apt-get install valgrind).
set -euo pipefail
PYTHONHASHSEED=0 PYTHONPATH="$1" setarch -R valgrind --tool=cachegrind --cache-sim=no \
    --cachegrind-out-file=/dev/null .venv/bin/python benchmarks/apply_pairs.py "$2" "$3" "${4:-}" 2>&1 \
    | grep "I *refs" | tr -d ',' | awk '{print $NF}'
