#!/bin/sh
# Runs the cmocka suites given as arguments, TEST_JOBS at a time (default: the number of
# processors), the slowest first; prints each suite's name, its counts and its time as it
# ends, keeps going after a failure, prints the whole output of every failing suite at the
# end, adds up the tests the suites report, and fails if any suite exited non-zero.
# Each suite's output is kept in $TEST_LOG_DIR (default: a temporary directory, removed).
set -u
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
logs=${TEST_LOG_DIR:-}
if [ -z "$logs" ]; then
    logs=$(mktemp -d)
    trap 'rm -rf "$logs"' EXIT
fi
mkdir -p "$logs"
start=$(date +%s)
# the suites that take longest start first, so that the others fill the gaps
slow="test_faults test_sweep test_docs test_lab30 test_programs test_scaffold test_lab30_figures test_lab30_gltf test_lab30_fixes test_lab30_dqs test_gltf_malformed"
ordered=""
for name in $slow; do
    for t in "$@"; do [ "$(basename "$t")" = "$name" ] && ordered="$ordered $t"; done
done
for t in "$@"; do
    case " $slow " in *" $(basename "$t") "*) ;; *) ordered="$ordered $t" ;; esac
done
# one suite: its output into its log, then one line: name, passed, failed, skipped, time
# shellcheck disable=SC2016
printf '%s\n' $ordered | xargs -P "$jobs" -I{} sh -c '
    t=$1 logs=$2 name=$(basename "$1")
    s=$(date +%s.%N)
    "$t" > "$logs/$name.log" 2>&1
    rc=$?
    e=$(date +%s.%N)
    p=$(grep -o "\[  PASSED  \] [0-9]* test" "$logs/$name.log" | tail -n 1 | tr -dc "0-9")
    f=$(grep -o "\[  FAILED  \] [0-9]* test" "$logs/$name.log" | tail -n 1 | tr -dc "0-9")
    k=$(grep -o "\[  SKIPPED \] [0-9]* test" "$logs/$name.log" | tail -n 1 | tr -dc "0-9")
    echo "${p:-0} ${f:-0} ${k:-0} $rc" > "$logs/$name.result"
    secs=$(awk "BEGIN { print $e - $s }")
    status=ok; [ "$rc" -eq 0 ] || status="FAILED (exit $rc)"
    printf "%-40s %3d passed %2d failed %2d skipped %7.1f s  %s\n" "$name" "${p:-0}" "${f:-0}" "${k:-0}" "$secs" "$status"
' sh {} "$logs"
passed=0 failed=0 skipped=0 bad_suites=""
for t in $ordered; do
    name=$(basename "$t")
    if [ ! -f "$logs/$name.result" ]; then
        bad_suites="$bad_suites $name"
        continue
    fi
    read -r p f k rc < "$logs/$name.result"
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + k))
    if [ "$rc" -ne 0 ]; then
        bad_suites="$bad_suites $name"
        echo
        echo "---- $name (exit $rc) ----"
        cat "$logs/$name.log"
    fi
done
echo
echo "the suites took $(( $(date +%s) - start )) s of wall time, $jobs at a time"
if [ "$skipped" -gt 0 ]; then
    echo "tests: $passed passed, $failed failed, $skipped skipped"
else
    echo "tests: $passed passed, $failed failed"
fi
if [ -n "$bad_suites" ]; then
    echo "failing suites:$bad_suites"
    exit 1
fi
