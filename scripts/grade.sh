#!/bin/sh
# make gradeN: links the chapter's grader (again only when its objects or the command
# change) and runs it on the student's sheets (lab/chN/grade/README.md).
#   grade.sh N SHEET EXERCISES DIR "COMPILE" "SANITIZE" "LINK" "OBJECTS AND LIBRARIES"
# The grader compiles each sheet on its own into a shared object (src/grade/build.h) with
# COMPILE, and with SANITIZE too (AddressSanitizer and UBSan) where the grader itself links
# with it here, so that a read past an array is that exercise's verdict. The sheets never
# pass through a shell: the grader hands each path to the compiler as an argument. A sheet
# that does not compile is that sheet's verdict, with the compiler's first error; every
# other sheet is still graded. The grader is linked with -rdynamic, so that a sheet
# resolves the src/math/ functions it calls, and grade_not_written, in it. SHEET (may
# be empty: every sheet) names the one to grade; EXERCISES (may be empty) a file graded in
# its place (alone, as the sheet the grader finds it is for, when SHEET is empty). Exit
# codes: the grader's (0 every exercise graded correct; 1 not; 2 usage: a sheet that is not
# one, a file that is not there; 3 its outputs), or 2 when the grader itself does not link.
set -u
n=$1 sheet=$2 exercises=$3 dir=$4 compile=$5 sanitize=$6 link=$7 objects=$8
mkdir -p "$dir" || exit 3
grader=$dir/grade$n
stamp=$dir/grade$n.command
flags_file=$dir/grade$n.flags
want="$link | $sanitize | $compile | $objects"
relink=no
{ [ -x "$grader" ] && [ -f "$stamp" ] && [ -f "$flags_file" ] && [ "$(cat "$stamp")" = "$want" ]; } || relink=yes
for o in $objects; do
    case $o in -*) ;; *) [ "$o" -nt "$grader" ] && relink=yes ;; esac
done
if [ "$relink" = yes ]; then
    rm -f "$grader" "$stamp" "$flags_file"
    # shellcheck disable=SC2086
    if $link $sanitize -rdynamic $objects -o "$grader.tmp" 2>"$dir/link.log"; then
        printf '%s\n' "$compile $sanitize" >"$flags_file"
    elif $link -rdynamic $objects -o "$grader.tmp"; then
        printf '%s\n' "$compile" >"$flags_file"
    else
        echo "grade$n: error: the grader does not link (the linker's message is above)" >&2
        exit 2
    fi
    mv "$grader.tmp" "$grader" && printf '%s\n' "$want" >"$stamp" || exit 3
fi
flags=$(cat "$flags_file")
case " $flags " in
*" -fsanitize="*) ;;
*) echo "grade$n: note: this compiler could not build the sheets with the sanitizers; reads past an array are not caught" ;;
esac
set -- --cc "$flags"
[ -n "$sheet" ] && set -- "$@" --only "$sheet"
[ -n "$exercises" ] && set -- "$@" --sheet "$exercises"
"$grader" "$@" "$dir"
status=$?
if [ "$status" = 1 ]; then
    echo "(not every exercise is correct yet: exit 1, which make reports below as its own \"Error 1\"; the build is fine)"
fi
exit "$status"
