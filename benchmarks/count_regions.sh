#!/bin/bash
# Machine instructions per apply+undo pair spent inside named functions (callgrind), to see where a pair goes:
#   bash benchmarks/count_regions.sh SRC KIND N [--same] [module:Class.method ...]
# e.g. bash benchmarks/count_regions.sh src fight 30 herohammer.rulesets.w40k_close_combat:CloseCombatRules._strike
# (name the class that defines the method: the 40k rules are a chain of classes, one module each)
# With --same the one game first applies and undoes the action 100 times uncounted (count_instructions.sh reads
# pairs 101-300 the same way), so the per-pair figure is the steady state a search meets, not the memo filling;
# with --same --cold none are: the pairs of bench_speed.py's "same game again" round, first meetings included.
# With no function named: the whole pairs (as count_instructions.sh, without its two runs). Each entry of a
# named function adds about 5 k instructions of wrapping. Needs valgrind, gcc and valgrind's headers
# (/usr/include/valgrind/callgrind.h). Run from the project root.
set -euo pipefail
src=$1; shift
n=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n' > "$work/vgmark.c"
gcc -O2 -shared -fPIC -o "$work/libvgmark.so" "$work/vgmark.c"
VGMARK="$work/libvgmark.so" PYTHONHASHSEED=0 PYTHONPATH="$src" setarch -R valgrind --tool=callgrind \
    --collect-atstart=no --callgrind-out-file="$work/out" .venv/bin/python benchmarks/region_pairs.py "$@" \
    >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
total=$(grep -E '^(summary|totals):' "$work/out" | head -1 | awk '{print $2}')
echo "$* : $total instructions, $((total / n)) per pair"
