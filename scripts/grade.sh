#!/bin/sh
# make gradeN: compiles a student's exercises file, links it into the chapter's grader and
# runs it (lab/chN/grade/README.md).
#   grade.sh N EXERCISES DIR "COMPILE" "SANITIZE" "LINK" "OBJECTS AND LIBRARIES"
# The file is compiled with the lab's warnings, shown but not fatal, and linked into
# DIR/gradeN; then compiled again with SANITIZE (AddressSanitizer and UBSan) and linked into
# DIR/gradeN-san, which grades where the compiler could build it (a read past an array or
# undefined behaviour is then the exercise's verdict, with its file and line). Exit codes:
# the grader's (0 every exercise correct, 1 not), or 2 when the file is missing, does not
# compile or does not link, with the compiler's or the linker's own message above the
# grader's line.
set -u
n=$1 exercises=$2 dir=$3 compile=$4 sanitize=$5 link=$6 objects=$7
mkdir -p "$dir"
if [ ! -f "$exercises" ]; then
    echo "grade$n: error: no exercises file \"$exercises\" (EXERCISES=path names another)" >&2
    exit 2
fi
rm -f "$dir/grade$n" "$dir/grade$n-san"
# shellcheck disable=SC2086
if ! $compile -c "$exercises" -o "$dir/exercises.o"; then
    echo "grade$n: error: $exercises does not compile (the compiler's message is above); nothing graded" >&2
    exit 2
fi
# shellcheck disable=SC2086
if ! $link "$dir/exercises.o" $objects -o "$dir/grade$n"; then
    echo "grade$n: error: $exercises does not link (the linker's message is above: a function missing or named otherwise?)" >&2
    exit 2
fi
grader="$dir/grade$n"
# shellcheck disable=SC2086
if $compile $sanitize -w -c "$exercises" -o "$dir/exercises-san.o" 2>/dev/null &&
    $link $sanitize "$dir/exercises-san.o" $objects -o "$dir/grade$n-san" 2>/dev/null; then
    grader="$dir/grade$n-san"
else
    echo "grade$n: note: this compiler could not build $exercises with the sanitizers; reads past an array are not caught"
fi
"$grader" --sheet "$exercises" "$dir"
status=$?
if [ "$status" = 1 ]; then
    echo "(not every exercise is correct yet: exit 1, which make reports below as its own \"Error 1\"; the build is fine)"
fi
exit "$status"
