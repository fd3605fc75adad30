#!/bin/sh
# Makes sure the Debian packages the lab needs (scripts/packages.txt, the one list) are
# present, then writes the compiler and linker flags they provide into the make fragment
# named by $1.
# As root it installs what is missing; otherwise it prints the one apt-get line needed.
set -eu
out=${1:?usage: ensure-deps.sh OUT.mk}
. "$(dirname "$0")/packages.sh" # the one package list, scripts/packages.txt
missing=$(packages_missing build)

if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "ensure-deps: installing missing Debian packages:$missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        # shellcheck disable=SC2086
        apt-get install -y -qq --no-install-recommends $missing >&2
        still=$(packages_missing build)
        [ -z "$still" ] || { echo "ensure-deps: still missing after apt-get:$still" >&2; exit 1; }
    else
        echo "ensure-deps: missing Debian packages:$missing" >&2
        echo "ensure-deps: run:  sudo apt-get install -y$missing" >&2
        exit 1
    fi
fi

# The window's packages (make view30): installed as root like the others; without them
# (not root) everything else builds and make view30 says what to install.
view_missing=$(packages_missing view)
if [ -n "$view_missing" ] && [ "$(id -u)" = 0 ]; then
    echo "ensure-deps: installing the window's Debian packages:$view_missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    [ -n "$missing" ] || apt-get update -qq >&2
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $view_missing >&2 || true
    view_missing=$(packages_missing view)
fi
[ -z "$view_missing" ] || echo "ensure-deps: without$view_missing the window (make view30) is not built: sudo apt-get install -y$view_missing" >&2

# CHOLMOD is opened at run time (src/solve/sparse.h): the file to open is the SONAME of the
# libcholmod.so whose header the build compiles against.
cholmod_so=$(${CC:-cc} -print-file-name=libcholmod.so)
cholmod_soname=$(objdump -p "$cholmod_so" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
[ -n "$cholmod_soname" ] || { echo "ensure-deps: cannot read the SONAME of $cholmod_so (objdump -p)" >&2; exit 1; }

# libmeshoptimizer is opened at run time too (src/gltf/gltf_meshopt.c), by its SONAME.
meshopt_so=$(${CC:-cc} -print-file-name=libmeshoptimizer.so)
meshopt_soname=$(objdump -p "$meshopt_so" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
[ -n "$meshopt_soname" ] || { echo "ensure-deps: cannot read the SONAME of $meshopt_so (objdump -p)" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
# stb's headers are third-party: include them as system headers so our -Werror
# never trips on their unused static helpers (stb_easy_font is header-only).
stb_cflags=$(pkg-config --cflags stb | sed 's/-I/-isystem /g')
{
    echo "DEPS_CFLAGS := $stb_cflags $(pkg-config --cflags libcjson egl glesv2)"
    echo "DEPS_LIBS := $(pkg-config --libs stb libcjson) -lgif -lm -ldl"
    # libmeshoptimizer and libdraco (behind the lab's bridge, build/lib/libskinlab-draco.so)
    # are opened with dlopen by the assets that need them (src/gltf/gltf.h)
    echo "GLTF_CFLAGS := -DGLTF_MESHOPT_LIBRARY='\"$meshopt_soname\"'"
    echo "DRACO_LIBS := -ldraco"
    echo "GPU_LIBS := -ldl" # EGL and GLES are opened with dlopen (src/gpu/gl_load.h)
    echo "SOLVE_CFLAGS := -DSPARSE_CHOLMOD_LIBRARY='\"$cholmod_soname\"'" # opened with dlopen (src/solve/sparse.h)
    echo "SOLVE_LIBS := -ldl"
    echo "TEST_LIBS := $(pkg-config --libs cmocka) -lmeshoptimizer" # the suites encode with it
    if [ -z "$view_missing" ]; then # SDL2's headers as system headers too (-Werror stays ours)
        echo "SDL_CFLAGS := $(pkg-config --cflags sdl2 | sed 's/-I/-isystem /g')"
        echo "SDL_LIBS := $(pkg-config --libs sdl2)"
    fi
} > "$out.tmp"
mv "$out.tmp" "$out"
