#!/bin/sh
# The sources a chapter program links, found from its includes: writes a make fragment
# (build/gen/closure.mk) with one line per program, CLOSURE.<program> := <sources>. A
# program starts from every .c file of its folder but its tests; each file's #include
# "x.h" is found in the file's own folder, then src/, then the chapter's folder (the
# build's -I order); a header brings the .c file of the same name beside it, and that
# file's includes in turn. Four headers are implemented by files of other names (below);
# gltf_draco_bridge.h by the lab's one C++ file, a shared library of its own opened at run
# time (the Makefile's DRACO_BRIDGE), so no program links it.
# So make lab30 compiles the 32 files lab30 needs, not the library's 60 and every program's.
# A chapter's grader, CH:grade, starts from lab/CH/grade/*.c and is written CLOSURE.grade-CH.
# The fragment is rewritten only when it changes.
#   closure.sh OUT.mk BUILD CHAPTER:PROGRAM ...
set -eu
out=$1 build=$2
shift 2
tmp="$out.tmp.$$"
mkdir -p "$(dirname "$out")"
chapters=$(for entry in "$@"; do echo "${entry%%:*}"; done | sort -u)
# every source file and the names it includes: "file name name ..."
files=$(for f in src/*/*.[ch] src/*/*.cc $(for c in $chapters; do echo "lab/$c/*.[ch] lab/$c/*/*.[ch]"; done); do
    [ -f "$f" ] && echo "$f"
done)
# shellcheck disable=SC2086
awk -v build="$build" -v programs="$*" '
    FNR == 1 { exists[FILENAME] = 1; inc[FILENAME] = "" }
    /^[ \t]*#[ \t]*include[ \t]*"/ { name = $0; sub(/^[^"]*"/, "", name); sub(/".*$/, "", name); inc[FILENAME] = inc[FILENAME] " " name }
    function dir(path) { sub(/\/[^\/]*$/, "", path); return path }
    function chapter(path, p) { split(path, p, "/"); return p[2] }
    # a header whose functions live in .c files of other names
    function implementers(h) {
        if (h == "src/gltf/gltf.h") return "src/gltf/gltf_parse.c src/gltf/gltf_validate.c src/gltf/gltf_sample.c src/gltf/gltf_meshopt.c src/gltf/gltf_draco.c"
        if (h == "src/skin/fastskin_kernels.h") return "src/skin/fastskin_avx512.c"
        if (h == "src/weights/heat.h") return "src/weights/heat.c src/weights/heat_solve.c"
        if (h == "src/gpu/gpu_shaders.h") return build "/gen/shaders.c"
        c = h; sub(/\.h$/, ".c", c)
        return (c in exists) ? c : ""
    }
    END {
        np = split(programs, list, " ")
        for (k = 1; k <= np; k++) {
            split(list[k], cp, ":"); ch = cp[1]; prog = cp[2]
            delete seen; queue = ""; sources = ""
            for (f in exists)
                if (index(f, "lab/" ch "/" prog "/") == 1 && f ~ /\.c$/ && f !~ /\/test_[^\/]*$/) queue = queue " " f
            while (queue != "") {
                m = split(queue, q, " "); f = q[1]; queue = ""
                for (i = 2; i <= m; i++) queue = queue " " q[i]
                if (f in seen) continue
                seen[f] = 1
                if (f ~ /\.c$/ || f ~ /\.cc$/) sources = sources " " f
                nn = split(inc[f], names, " ")
                for (i = 1; i <= nn; i++) {
                    split(dir(f) "/" names[i] " src/" names[i] " lab/" ch "/" names[i], cand, " ")
                    for (j = 1; j <= 3; j++)
                        if (cand[j] in exists) { queue = queue " " cand[j] " " implementers(cand[j]); break }
                }
            }
            # sorted, so that the fragment is the same whatever the order of the walk
            ns = split(sources, s, " "); out = ""
            for (i = 1; i <= ns; i++) for (j = i + 1; j <= ns; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
            for (i = 1; i <= ns; i++) out = out " " s[i]
            print "CLOSURE." (prog == "grade" ? "grade-" ch : prog) " :=" out
        }
    }' $files > "$tmp"
if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
