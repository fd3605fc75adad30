#!/bin/sh
# make gradeN: compiles a student's exercises file, links it into the chapter's grader and
# runs it (lab/chN/grade/README.md). Exit codes: the grader's (0 every exercise correct, 1
# not), or 2 when the file is missing, does not compile or does not link, with the
# compiler's or the linker's own message above the grader's line.
#   grade.sh N EXERCISES DIR "COMPILE" "LINK" "OBJECTS AND LIBRARIES"
set -u
n=$1 exercises=$2 dir=$3 compile=$4 link=$5 objects=$6
mkdir -p "$dir"
if [ ! -f "$exercises" ]; then
    echo "grade$n: error: no exercises file \"$exercises\" (EXERCISES=path names another)" >&2
    exit 2
fi
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
exec "$dir/grade$n" "$dir"
