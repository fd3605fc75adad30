#!/bin/sh
# Instructions per vertex of the CPU kernels, counted by valgrind's callgrind (make bench
# calls it): BIN is build/bin/bench-instructions, which runs one kernel's passes and
# prints how many vertices it skinned; callgrind counts the instructions executed inside
# the kernel's entry function and everything it calls (--toggle-collect), so the count is
# the code's, whatever the machine's load. Writes DIR/instructions.csv.
# Without valgrind (Debian's package valgrind) the file has its header only and the
# results say so.
set -eu
bin=${1:?usage: bench-instructions.sh BIN DIR}
dir=${2:?usage: bench-instructions.sh BIN DIR}
out="$dir/.instructions.csv.$$"
trap 'rm -f "$out" "$dir/.callgrind.$$"' EXIT
echo "level,method,influences,normals,format,instructions_per_vertex" > "$out"
if ! command -v valgrind > /dev/null 2>&1; then
    echo "bench-instructions: valgrind is not installed (apt-get install valgrind): no instruction counts" >&2
else
    # level method K normals format: the kernel function callgrind collects in is METHOD_LEVEL
    for row in "scalar lbs 4 none 44-byte" "sse2 lbs 4 none 44-byte" "avx2 lbs 1 none 44-byte" \
               "avx2 lbs 2 none 44-byte" "avx2 lbs 4 none 44-byte" "avx2 lbs 8 none 44-byte" "avx2 lbs 4 raw 44-byte" \
               "avx2 lbs 4 unit 44-byte" "avx2 lbs 4 none u8-unorm8" "avx2 lbs 4 none u8-unorm8-q16" \
               "sse2 dqs 4 none 44-byte" "avx2 dqs 4 none 44-byte"; do
        set -- $row
        "$bin" "$@" > /dev/null 2>&1 || continue # a level this CPU does not have
        vertices=$(valgrind --tool=callgrind --callgrind-out-file="$dir/.callgrind.$$" \
                   --toggle-collect="$2_$1" "$bin" "$@" 2> "$dir/.callgrind.$$.log")
        collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$dir/.callgrind.$$.log")
        rm -f "$dir/.callgrind.$$.log"
        awk -v c="$collected" -v n="$vertices" -v r="$1,$(echo "$2" | tr a-z A-Z),$3,$4,$5" \
            'BEGIN { printf "%s,%.1f\n", r, c / n }' >> "$out"
    done
fi
mv "$out" "$dir/instructions.csv"
trap - EXIT
rm -f "$dir/.callgrind.$$"
