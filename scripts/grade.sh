#!/bin/sh
# make gradeN: compiles a student's sheets, links them into the chapter's grader and runs it
# (lab/chN/grade/README.md).
#   grade.sh N SHEET EXERCISES DIR "COMPILE" "SANITIZE" "LINK" "OBJECTS AND LIBRARIES"
# The sheets are lab/chN/exercises.c (the sheet named labN) and lab/chN/sheets/NAME.c (and
# NAME.glsl, a shader the grader reads itself). SHEET (may be empty: every sheet) names the
# one to grade; EXERCISES (may be empty) is a file graded in its place (labN's when SHEET
# is empty). Each C sheet is compiled with SANITIZE (AddressSanitizer and UBSan) and the
# lab's warnings, shown but not fatal, into DIR/obj/, again only when it or the header
# changed (or the compile command did), and linked into DIR/gradeN-san, which grades (a
# read past an array or undefined behaviour is then the exercise's verdict, with its file
# and line). Where that build fails, the sheets are compiled without the sanitizers into
# DIR/gradeN, so that a sheet's own error is the compiler's plain message, and a compiler
# without the sanitizers still grades. Exit codes: the grader's (0 every exercise graded correct, 1 not), or 2 when a
# file is missing, does not compile or does not link, with the compiler's or the linker's
# own message above the grader's line.
set -u
n=$1 sheet=$2 exercises=$3 dir=$4 compile=$5 sanitize=$6 link=$7 objects=$8
ch=lab/ch$n
mkdir -p "$dir/obj"
# the file of each sheet, NAME=PATH
files="lab$n=$ch/exercises.c"
for f in "$ch"/sheets/*.c "$ch"/sheets/*.glsl; do
    [ -f "$f" ] || continue
    base=${f##*/}
    files="$files ${base%.*}=$f"
done
if [ -n "$sheet" ]; then
    case " $files " in
    *" $sheet="*) ;;
    *)
        echo "grade$n: error: no sheet \"$sheet\" (the sheets: $(for e in $files; do printf '%s ' "${e%%=*}"; done))" >&2
        exit 2
        ;;
    esac
fi
target=${sheet:-lab$n}
graded=
for e in $files; do
    if [ "${e%%=*}" = "$target" ]; then
        graded=${e#*=}
        [ -n "$exercises" ] && graded=$exercises
    fi
done
if [ ! -f "$graded" ]; then
    echo "grade$n: error: no sheet file \"$graded\" (EXERCISES=path names another)" >&2
    exit 2
fi
# each C sheet (the graded one from its own path) compiled with the sanitizers, warnings
# shown; only when it changed since its object was made
stamp="$dir/obj/command"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$compile $sanitize" ]; then
    rm -f "$dir"/obj/*.o
    printf '%s\n' "$compile $sanitize" > "$stamp"
fi
sources=
for e in $files; do
    name=${e%%=*} src=${e#*=}
    [ "$name" = "$target" ] && src=$graded
    case "$src" in *.c) sources="$sources $src" ;; esac
done
object() { printf '%s/obj/%s' "$dir" "$(printf '%s' "$1" | tr '/.' '__')"; }
changed() { [ ! -f "$2" ] || [ "$1" -nt "$2" ] || [ "$ch/exercises$n.h" -nt "$2" ]; }
fail_compile() {
    echo "grade$n: error: $1 does not compile (the compiler's message is above); nothing graded" >&2
    exit 2
}
rm -f "$dir/grade$n" "$dir/grade$n-san"
grader= objects_san=
for src in $sources; do
    o=$(object "$src")
    if changed "$src" "$o-san.o"; then
        rm -f "$o-san.o"
        # shellcheck disable=SC2086
        if $compile $sanitize -c "$src" -o "$o-san.o" 2>"$o.messages"; then
            cat "$o.messages" >&2 # the warnings: shown, not fatal
        else
            rm -f "$o-san.o"
            break # the plain build below shows why
        fi
    fi
    objects_san="$objects_san $o-san.o"
done
# shellcheck disable=SC2086
if [ "$(echo $objects_san | wc -w)" = "$(echo $sources | wc -w)" ] &&
    $link $sanitize $objects_san $objects -o "$dir/grade$n-san" 2>/dev/null; then
    grader="$dir/grade$n-san"
else
    # the sanitizers' build failed: the sheet's own error, or a compiler without them
    plain=
    for src in $sources; do
        o=$(object "$src")
        if changed "$src" "$o.o"; then
            rm -f "$o.o"
            # shellcheck disable=SC2086
            $compile -c "$src" -o "$o.o" || fail_compile "$src"
        fi
        plain="$plain $o.o"
    done
    # shellcheck disable=SC2086
    if ! $link $plain $objects -o "$dir/grade$n"; then
        echo "grade$n: error: $graded does not link (the linker's message is above: a function missing or named otherwise?)" >&2
        exit 2
    fi
    grader="$dir/grade$n"
    echo "grade$n: note: this compiler could not build the sheets with the sanitizers; reads past an array are not caught"
fi
if [ -n "$sheet" ]; then
    "$grader" --only "$sheet" --sheet "$graded" "$dir"
else
    "$grader" --sheet "$graded" "$dir"
fi
status=$?
if [ "$status" = 1 ]; then
    echo "(not every exercise is correct yet: exit 1, which make reports below as its own \"Error 1\"; the build is fine)"
fi
exit "$status"
