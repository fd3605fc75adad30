#!/bin/sh
# Instructions per vertex of the CPU kernels as they ship, executed (make bench calls it):
# BIN is build/bin/bench-instructions, which runs one kernel's passes and prints how many
# vertices it skinned (10 passes of 20,000). Counted two ways, each the code's whatever the
# machine's load:
# - valgrind's callgrind, the instructions executed inside the kernel's entry function and
#   everything it calls (--toggle-collect), over all the passes;
# - STEPCOUNT (build/bin/bench-stepcount), for what valgrind cannot run (AVX-512): the
#   first call of the entry function single-stepped under ptrace, callees included, over
#   its 20,000 vertices. The avx2 LBS kernel is counted both ways, as a check of the
#   counter against callgrind.
# Writes DIR/instructions.csv. Without valgrind (Debian's package valgrind) the callgrind
# rows are missing and the results say so; a level this CPU lacks has no row.
set -eu
usage="usage: bench-instructions.sh BIN STEPCOUNT DIR"
bin=${1:?$usage}
stepcount=${2:?$usage}
dir=${3:?$usage}
out="$dir/.instructions.csv.$$"
trap 'rm -f "$out" "$dir/.callgrind.$$" "$dir/.callgrind.$$.log" "$dir/.steps.$$"' EXIT
echo "level,method,influences,normals,format,instructions_per_vertex,counted" > "$out"
# the kernel function a row runs in: METHOD_LEVEL, the frozen kernels' (bench/baselines.h,
# a level with a dash) baseline_LEVEL, the AVX-512 level's fastskin_METHOD_avx512
function_of() {
    case $1 in
        avx512) echo "fastskin_$2_avx512" ;;
        *-*) echo "baseline_$(echo "$1" | tr - _)" ;;
        *) echo "$2_$1" ;;
    esac
}
if ! command -v valgrind > /dev/null 2>&1; then
    echo "bench-instructions: valgrind is not installed (apt-get install valgrind): no callgrind counts" >&2
else
    for row in "scalar lbs 4 none 44-byte" "sse2 lbs 4 none 44-byte" "avx2 lbs 1 none 44-byte" \
               "avx2 lbs 2 none 44-byte" "avx2 lbs 4 none 44-byte" "avx2 lbs 8 none 44-byte" "avx2 lbs 4 raw 44-byte" \
               "avx2 lbs 4 unit 44-byte" "avx2 lbs 4 none u8-unorm8" "avx2 lbs 4 none u8-unorm8-q16" \
               "avx2-rows lbs 4 none 44-byte" "avx2-reloads lbs 4 none 44-byte" "avx2-loads-only lbs 4 none 44-byte" \
               "sse2 dqs 4 none 44-byte" "avx2 dqs 4 none 44-byte" "dqs-avx2-per-vertex dqs 4 none 44-byte"; do
        set -- $row
        "$bin" "$@" > /dev/null 2>&1 || continue # a level this CPU does not have
        vertices=$(valgrind --tool=callgrind --callgrind-out-file="$dir/.callgrind.$$" \
                   --toggle-collect="$(function_of "$1" "$2")" "$bin" "$@" 2> "$dir/.callgrind.$$.log")
        collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$dir/.callgrind.$$.log")
        awk -v c="$collected" -v n="$vertices" -v r="$1,$(echo "$2" | tr a-z A-Z),$3,$4,$5" \
            'BEGIN { printf "%s,%.1f,executed (callgrind)\n", r, c / n }' >> "$out"
    done
fi
# single-stepped: the first call, 20,000 vertices (one pass)
for row in "avx2 lbs 4 none 44-byte" "avx512 lbs 4 none 44-byte" "avx512 lbs 4 raw 44-byte" \
           "avx512 lbs 4 unit 44-byte" "avx512 lbs 4 none u8-unorm8" "avx512 dqs 4 none 44-byte"; do
    set -- $row
    "$bin" "$@" > /dev/null 2>&1 || continue # a level this CPU does not have
    offset=$(nm "$bin" | awk -v f="$(function_of "$1" "$2")" '$3 == f { print $1; exit }')
    [ -n "$offset" ] || { echo "bench-instructions: no symbol $(function_of "$1" "$2") in $bin" >&2; exit 1; }
    "$stepcount" "$offset" 1 "$bin" "$@" > /dev/null 2> "$dir/.steps.$$" || {
        echo "bench-instructions: the single-step counter failed on $row: $(cat "$dir/.steps.$$")" >&2; exit 1; }
    awk -v r="$1,$(echo "$2" | tr a-z A-Z),$3,$4,$5" \
        '{ printf "%s,%.3f,executed (single-step)\n", r, $1 / 20000 }' "$dir/.steps.$$" >> "$out"
done
mv "$out" "$dir/instructions.csv"
trap - EXIT
rm -f "$dir/.callgrind.$$"
