#!/bin/sh
# Runs every cmocka suite given as an argument, keeps going after a failure, adds up the
# tests the suites report, and fails if any suite exited non-zero.
passed=0 failed=0 skipped=0 bad_suites=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "$@"; do
    "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    # cmocka's summary goes to stderr and may share a line with stdout: match anywhere
    p=$(grep -o '\[  PASSED  \] [0-9]* test' "$log" | tail -n 1 | tr -dc '0-9')
    f=$(grep -o '\[  FAILED  \] [0-9]* test' "$log" | tail -n 1 | tr -dc '0-9')
    s=$(grep -o '\[  SKIPPED \] [0-9]* test' "$log" | tail -n 1 | tr -dc '0-9')
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    skipped=$((skipped + ${s:-0}))
    [ "$rc" -eq 0 ] || bad_suites="$bad_suites $(basename "$t")"
done
echo
if [ "$skipped" -gt 0 ]; then
    echo "tests: $passed passed, $failed failed, $skipped skipped"
else
    echo "tests: $passed passed, $failed failed"
fi
if [ -n "$bad_suites" ]; then
    echo "failing suites:$bad_suites"
    exit 1
fi
