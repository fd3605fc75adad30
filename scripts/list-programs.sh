#!/bin/sh
# Writes the list of chapter programs the end-to-end suites run (build/gen/programs.h) from
# the Makefile's lists: each argument is NAME|CHAPTER|INPUT|GPU. The file is replaced only
# when its text changes, so the suites rebuild only when the list does.
set -eu
out=${1:?usage: list-programs.sh OUT.h NAME|CHAPTER|INPUT|GPU ...}
shift
tmp="$out.tmp.$$"
mkdir -p "$(dirname "$out")"
{
    echo '/* programs.h - written by the build (scripts/list-programs.sh) from lab/chapters.mk and'
    echo ' * the chapters'"'"' folders: every chapter program, its chapter, an argument before OUTDIR'
    echo ' * (or NULL) and whether it needs a GPU context. Do not edit. */'
    echo '#ifndef PROGRAMS_H'
    echo '#define PROGRAMS_H'
    echo '#define LAB_PROGRAM_LIST \'
    for entry in "$@"; do
        name=${entry%%|*}; rest=${entry#*|}
        chapter=${rest%%|*}; rest=${rest#*|}
        input=${rest%%|*}; gpu=${rest#*|}
        [ -n "$input" ] && input="\"$input\"" || input=NULL
        [ -n "$gpu" ] || gpu=0
        echo "    LAB_PROGRAM(\"$name\", \"$chapter\", $input, $gpu) \\"
    done
    echo ''
    echo '#endif'
} > "$tmp"
if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
