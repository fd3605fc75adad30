#!/bin/sh
# Makes sure the Debian packages the lab builds against are present, then writes the
# compiler and linker flags they provide into the make fragment named by $1.
# As root it installs what is missing; otherwise it prints the one apt-get line needed.
set -eu
out=${1:?usage: ensure-deps.sh OUT.mk}
# pkg-config module name -> the Debian package that ships it
modules="stb:libstb-dev libcjson:libcjson-dev cmocka:libcmocka-dev egl:libegl-dev glesv2:libgles-dev"

missing=""
have_pkg_config=yes
command -v pkg-config >/dev/null 2>&1 || { have_pkg_config=no; missing=" pkg-config"; }
for m in $modules; do
    # without pkg-config nothing can be checked: ask for every package
    if [ $have_pkg_config = no ] || ! pkg-config --exists "${m%%:*}"; then
        missing="$missing ${m#*:}"
    fi
done

# The GPU lab's runtime: Mesa's EGL vendor library and its DRI drivers (llvmpipe runs the
# shaders on the CPU where there is no GPU). They ship no pkg-config module.
[ -e /usr/share/glvnd/egl_vendor.d/50_mesa.json ] || missing="$missing libegl-mesa0"
ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 || missing="$missing libgl1-mesa-dri"
# SuiteSparse's CHOLMOD, for the weights lab's sparse solves: Debian 12 ships no
# pkg-config module for it, so its header stands for the package.
[ -e /usr/include/suitesparse/cholmod.h ] || missing="$missing libsuitesparse-dev"
# giflib, for the animations: no pkg-config module either.
[ -e /usr/include/gif_lib.h ] || missing="$missing libgif-dev"
# meshoptimizer, whose decoders read EXT_meshopt_compression: no pkg-config module.
[ -e /usr/include/meshoptimizer.h ] || missing="$missing libmeshoptimizer-dev"
# Draco, whose decoder reads KHR_draco_mesh_compression (C++, behind one bridge file), and
# its tools, which the tests use to make Draco files: no pkg-config module.
[ -e /usr/include/draco/compression/decode.h ] || missing="$missing libdraco-dev"
command -v draco_transcoder >/dev/null 2>&1 || missing="$missing draco"
# gltfpack, which the glTF tests run to make quantized and compressed assets.
command -v gltfpack >/dev/null 2>&1 || missing="$missing gltfpack"

if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "ensure-deps: installing missing Debian packages:$missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        # shellcheck disable=SC2086
        apt-get install -y -qq --no-install-recommends $missing >&2
        for m in $modules; do
            pkg-config --exists "${m%%:*}" || { echo "ensure-deps: ${m%%:*} still missing" >&2; exit 1; }
        done
        [ -e /usr/include/suitesparse/cholmod.h ] || { echo "ensure-deps: cholmod.h still missing" >&2; exit 1; }
        [ -e /usr/include/gif_lib.h ] || { echo "ensure-deps: gif_lib.h still missing" >&2; exit 1; }
        command -v gltfpack >/dev/null 2>&1 || { echo "ensure-deps: gltfpack still missing" >&2; exit 1; }
        [ -e /usr/include/meshoptimizer.h ] || { echo "ensure-deps: meshoptimizer.h still missing" >&2; exit 1; }
        [ -e /usr/include/draco/compression/decode.h ] || { echo "ensure-deps: draco's headers still missing" >&2; exit 1; }
    else
        echo "ensure-deps: missing Debian packages:$missing" >&2
        echo "ensure-deps: run:  sudo apt-get install -y$missing" >&2
        exit 1
    fi
fi

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
} > "$out.tmp"
mv "$out.tmp" "$out"
