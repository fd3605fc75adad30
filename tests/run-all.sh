#!/bin/sh
# Runs every cmocka suite given as an argument, keeps going after a failure, adds up the
# tests the suites report, and fails if any suite exited non-zero.
passed=0 failed=0 bad_suites=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "$@"; do
    "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    [ "$rc" -eq 0 ] || bad_suites="$bad_suites $(basename "$t")"
done
echo
echo "tests: $passed passed, $failed failed"
if [ -n "$bad_suites" ]; then
    echo "failing suites:$bad_suites"
    exit 1
fi
