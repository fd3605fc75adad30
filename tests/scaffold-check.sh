#!/bin/sh
# The scaffold, end to end (run by tests/test_scaffold.c from the repository's root): in a
# copy of the tree that shares nothing with it, make a chapter from the template (which
# registers it with one word in lab/chapters.mk), and check that it builds, runs, appears in make help,
# grades the template's exercise (make gradeN), and passes its own tests and the program,
# fault, sweep and docs suites (LAB_ONLY narrows
# those to the new chapter). Prints the lines changed outside the new chapter's folders.
#   scaffold-check.sh N BUILD "MAKE_VARIABLE=VALUE ..."   (BUILD=... among them)
set -eu
n=$1 build=$2 vars=$3
unset MAKEFLAGS MFLAGS MAKELEVEL # a make of its own, not a job of the make that runs the tests
copy=$(mktemp -d /tmp/scaffold.XXXXXX)
trap 'rm -rf "$copy"' EXIT
# the tree as a user's clone has it (mtimes kept), and this build's products, so that only
# what the new chapter adds is built
tar --exclude=./build --exclude=./.git -cf - . | tar -C "$copy" -xf -
mkdir -p "$copy/before" "$copy/tree/$build"
(cd "$copy" && for f in * .[!.]*; do case $f in before|tree) ;; *) mv "$f" tree/ ;; esac; done)
tar -C "$copy/tree" -cf - . | tar -C "$copy/before" -xf -
for item in config.mk gen obj bin tests node libskinlab.a $(cd "$build" && ls lib*.a); do
    [ -e "$build/$item" ] && cp -a "$build/$item" "$copy/tree/$build/"
done
cd "$copy/tree"
make -s new-chapter N="$n" # registers it in lab/chapters.mk too
make -s $vars "lab$n" > /dev/null
make -s $vars help | grep -q "make lab$n " || { echo "scaffold: make help does not name lab$n"; exit 1; }
make -s $vars "$build/tests/test_lab$n" "$build/tests/test_grade$n" "$build/tests/test_programs" \
    "$build/tests/test_faults" "$build/tests/test_sweep" "$build/tests/test_docs" "$build/tests/libfaultshim.so"
# the template's exercise, graded: the shipped sheet not written yet, the reference correct
if make -s $vars "grade$n" > "$copy/grade.log" 2>&1 || ! grep -q "1. the turn p' = Rz(theta) p: not written yet" "$copy/grade.log"; then
    cat "$copy/grade.log"; echo "scaffold: make grade$n did not grade the shipped sheet as not written yet"; exit 1
fi
make -s $vars "grade$n" EXERCISES="lab/ch$n/grade/solutions/reference.c" > "$copy/grade.log" 2>&1 &&
    grep -q "1 of 1 exercises correct" "$copy/grade.log" ||
    { cat "$copy/grade.log"; echo "scaffold: make grade$n did not grade the reference correct"; exit 1; }
echo "scaffold: make grade$n graded the template's exercise: $(grep "exercises correct" "$copy/grade.log")"
for t in "test_lab$n" "test_grade$n" test_programs test_faults test_sweep test_docs; do
    LAB_ONLY="ch$n" "$build/tests/$t" > "$copy/$t.log" 2>&1 || { cat "$copy/$t.log"; echo "scaffold: $t failed"; exit 1; }
    grep -q "PASSED" "$copy/$t.log" || { cat "$copy/$t.log"; echo "scaffold: $t ran no test"; exit 1; }
done
# each suite ran the new program (their own lines say so)
expect() { grep -q "$2" "$copy/$1.log" || { cat "$copy/$1.log"; echo "scaffold: $1 did not run lab$n ($2)"; exit 1; }; }
expect test_programs "  1 programs"
expect test_faults "faults: lab$n, \|skipped: a sanitizer build" # the shim needs the plain build
expect test_sweep "sweep: lab$n, 1 runs"
expect test_docs "lab/ch$n/README.md: 3 commands"
grep -h "faults: lab$n\|sweep: lab$n\|lab/ch$n/README.md: " "$copy"/test_faults.log "$copy"/test_sweep.log "$copy"/test_docs.log |
    sed 's/^ */scaffold: /'
changed=$(diff -r -x "ch$n" -x build "$copy/before" "$copy/tree" | grep -c '^[<>]' || true)
echo "scaffold: lab$n built, listed, run and tested; lines changed outside lab/ch$n and out/ch$n: $changed"
diff -r -x "ch$n" -x build "$copy/before" "$copy/tree" || true
