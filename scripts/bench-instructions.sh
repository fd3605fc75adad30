#!/bin/sh
# Instructions per vertex of the CPU kernels, counted by valgrind's callgrind (make bench
# calls it): BIN is build/bin/bench-instructions, which runs one kernel's passes and
# prints how many vertices it skinned; callgrind counts the instructions executed inside
# the kernel's entry function and everything it calls (--toggle-collect), so the count is
# the code's, whatever the machine's load. Writes DIR/instructions.csv.
# Without valgrind (Debian's package valgrind) the file has its header only and the
# results say so.
# The AVX-512 level is counted from its disassembly instead (valgrind cannot run it):
# bench/avx512-loops.c compiled by CC with the project's flags, the instructions of the
# LBS vertex loop (from the loop's branch target to its branch back) and of the DQS block
# over its sixteen vertices; objdump is binutils', which gcc and clang need anyway.
set -eu
usage="usage: bench-instructions.sh BIN DIR CC [CFLAGS...]"
bin=${1:?$usage}
dir=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
out="$dir/.instructions.csv.$$"
obj="$dir/.avx512-loops.$$.o"
trap 'rm -f "$out" "$obj" "$dir/.callgrind.$$"' EXIT
echo "level,method,influences,normals,format,instructions_per_vertex,counted" > "$out"
"$@" -Isrc -c bench/avx512-loops.c -o "$obj" # before the loop below reuses "$@"
if ! command -v valgrind > /dev/null 2>&1; then
    echo "bench-instructions: valgrind is not installed (apt-get install valgrind): no instruction counts" >&2
else
    # level method K normals format: the kernel function callgrind collects in is METHOD_LEVEL,
    # for the frozen kernels (bench/baselines.h, a level with a dash) baseline_LEVEL
    for row in "scalar lbs 4 none 44-byte" "sse2 lbs 4 none 44-byte" "avx2 lbs 1 none 44-byte" \
               "avx2 lbs 2 none 44-byte" "avx2 lbs 4 none 44-byte" "avx2 lbs 8 none 44-byte" "avx2 lbs 4 raw 44-byte" \
               "avx2 lbs 4 unit 44-byte" "avx2 lbs 4 none u8-unorm8" "avx2 lbs 4 none u8-unorm8-q16" \
               "avx2-rows lbs 4 none 44-byte" "avx2-reloads lbs 4 none 44-byte" "avx2-loads-only lbs 4 none 44-byte" \
               "sse2 dqs 4 none 44-byte" "avx2 dqs 4 none 44-byte" "dqs-avx2-per-vertex dqs 4 none 44-byte"; do
        set -- $row
        "$bin" "$@" > /dev/null 2>&1 || continue # a level this CPU does not have
        case $1 in
            *-*) function=baseline_$(echo "$1" | tr - _) ;;
            *) function=$2_$1 ;;
        esac
        vertices=$(valgrind --tool=callgrind --callgrind-out-file="$dir/.callgrind.$$" \
                   --toggle-collect="$function" "$bin" "$@" 2> "$dir/.callgrind.$$.log")
        collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$dir/.callgrind.$$.log")
        rm -f "$dir/.callgrind.$$.log"
        awk -v c="$collected" -v n="$vertices" -v r="$1,$(echo "$2" | tr a-z A-Z),$3,$4,$5" \
            'BEGIN { printf "%s,%.1f,executed (callgrind)\n", r, c / n }' >> "$out"
    done
fi
objdump -d --no-show-raw-insn "$obj" | awk '
function hex(s,    i, v) {
    v = 0
    for (i = 1; i <= length(s); i++)
        v = 16 * v + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
}
# a function ends where the next begins: its instructions are at[0 .. n - 1], is[0 .. n - 1]
function flush(    i, j, f, g, count, inner) {
    if (name ~ /^loop_lbs_/) { # the body: from the target of the last branch back to that branch
        for (i = n - 1; i >= 0; i--) {
            split(is[i], f, /[ \t]+/)
            if (f[1] ~ /^j/ && f[2] ~ /^[0-9a-f]+$/ && hex(f[2]) < at[i]) {
                count = 0
                inner = 0 # a loop inside the body: its static count is not what runs
                for (j = 0; j <= i; j++) {
                    count += at[j] >= hex(f[2])
                    split(is[j], g, /[ \t]+/)
                    inner += j < i && at[j] >= hex(f[2]) && g[1] ~ /^j/ && g[2] ~ /^[0-9a-f]+$/ && hex(g[2]) <= at[j]
                }
                if (inner)
                    printf "bench-instructions: %s has a loop inside its vertex loop with this compiler: not counted\n",
                           name > "/dev/stderr"
                else
                    printf "avx512,LBS,4,none,%s,%.1f,static (disassembly)\n",
                           name == "loop_lbs_44_byte" ? "44-byte" : "u8-unorm8", count
                break
            }
        }
    } else if (name == "block_dqs_44_byte") { # straight through, sixteen vertices
        inner = 0
        for (j = 0; j < n; j++) {
            split(is[j], g, /[ \t]+/)
            inner += g[1] ~ /^j/ && g[2] ~ /^[0-9a-f]+$/ && hex(g[2]) <= at[j]
        }
        if (inner)
            printf "bench-instructions: %s has a loop with this compiler: not counted\n", name > "/dev/stderr"
        else
            printf "avx512,DQS,4,none,44-byte,%.1f,static (disassembly)\n", n / 16
    }
    n = 0
}
/^[0-9a-f]+ <.*>:$/ { flush(); name = $2; gsub(/[<>:]/, "", name); next }
/^ +[0-9a-f]+:/ { split($0, f, "\t"); a = f[1]; gsub(/[ :]/, "", a); at[n] = hex(a); is[n] = f[2]; n++ }
END { flush() }' >> "$out"
mv "$out" "$dir/instructions.csv"
trap - EXIT
rm -f "$obj" "$dir/.callgrind.$$"
