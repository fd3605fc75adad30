#!/bin/sh
# make help's chapter lines: for each chapter (its name, its programs, then "/"), the
# chapter's page, and each program with the one-line summary its option table declares
# (the string after LAB in its cli_program) and its page when it has one.
set -eu
chapter=""
for word in "$@"; do
    if [ "$word" = / ]; then chapter=""; continue; fi
    if [ -z "$chapter" ]; then
        chapter=$word
        echo ""
        echo "Chapter $chapter: lab/$chapter/README.md; outputs in out/$chapter/"
        [ -d "lab/$chapter/grade" ] && printf '  make %-16s %s\n' "grade${chapter#ch}" \
            "grades lab/$chapter/exercises.c and lab/$chapter/sheets/ (SHEET=name for one; lab/$chapter/grade/README.md)"
        [ -d "lab/$chapter/view" ] && printf '  make %-16s %s\n' "view${chapter#ch}" \
            "the chapter in a window (SDL2): drag it, play ASSET=file, watch SHEET=file (lab/$chapter/view/README.md)"
        continue
    fi
    main="lab/$chapter/$word/$word.c"
    summary=$(sed -n 's/.*cli_program program = {LAB, "\([^"]*\)".*/\1/p' "$main" | head -n 1)
    printf '  make %-16s %s\n' "$word" "${summary:-(no summary)}"
    [ -e "lab/$chapter/$word/README.md" ] && printf '  %-21s %s\n' "" "page: lab/$chapter/$word/README.md"
done
