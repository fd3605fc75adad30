#!/bin/sh
# make new-chapter N=31: lab/ch31/ from lab/template/, every "NN" in a file or folder name
# and every "@NN@" in a file's text replaced by the chapter's number, and the word ch31 added
# to lab/chapters.mk's line. Refuses an N that is not a number or whose folder exists;
# writes nothing then.
set -eu
n=${1:-}
case "$n" in
    '' ) echo "new-chapter: usage: make new-chapter N=NUMBER (e.g. N=31)" >&2; exit 2 ;;
    *[!0-9]* ) echo "new-chapter: error: N must be a chapter number (digits only), not '$n'" >&2; exit 2 ;;
esac
dest="lab/ch$n"
if [ -e "$dest" ]; then
    echo "new-chapter: error: $dest exists already; nothing written" >&2
    exit 1
fi
tmp="lab/.ch$n.new.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
(cd lab/template && find . -type d) | while read -r d; do
    mkdir -p "$tmp/$(echo "$d" | sed "s/NN/$n/g")"
done
(cd lab/template && find . -type f) | while read -r f; do
    sed "s/@NN@/$n/g" "lab/template/$f" > "$tmp/$(echo "$f" | sed "s/NN/$n/g")"
done
mv "$tmp" "$dest"
trap - EXIT
# registered with its one word on lab/chapters.mk's line, unless it is there already
if ! grep -q "^CHAPTERS := .*\bch$n\b" lab/chapters.mk; then
    sed -i "s/^CHAPTERS := .*/& ch$n/" lab/chapters.mk
fi
echo "new-chapter: made $dest/ from lab/template/, registered in lab/chapters.mk: $(grep '^CHAPTERS :=' lab/chapters.mk)"
echo "new-chapter: then  make lab$n  (build, run into out/ch$n/),  make grade$n  (its exercise) and  make test"
