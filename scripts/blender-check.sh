#!/bin/sh
# Opens fresh exports of lab30 --gltf and lab30-fixes in Blender's own glTF importer
# (scripts/blender_check.py) and reports the objects, the bones' lengths and the largest
# between-key deviation over every vertex; then runs Blender's "With Automatic Weights" on
# the cylinder's two rigs, on RiggedSimple and on RiggedFigure (whose joints own several
# bones) against lab30-weights's Blender model of it
# (scripts/blender_weights.py). make blender-check runs it; make test does not (Blender is a
# 200 MB install). BIN is the folder with the built programs.
set -eu
bin=${1:-build/bin}
if ! command -v blender > /dev/null || ! python3 -c 'import numpy' 2> /dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends blender python3-numpy
    else
        echo "blender-check: Blender is missing: run  sudo apt-get install -y --no-install-recommends blender python3-numpy" >&2
        exit 1
    fi
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin/lab30" --gltf "$dir" > /dev/null
"$bin/lab30-fixes" "$dir" > /dev/null
blender --version | head -1
status=0
blender --background --factory-startup --python "$(dirname "$0")/blender_check.py" -- \
    "$dir/skinning30.gltf" "$dir/fixes30-corrective.gltf" > "$dir/log" 2>&1 || status=$?
grep -E '^(file|  |blender-check)|Error|Traceback' "$dir/log" | sed "s|$dir/||"
"$bin/lab30-weights" --assets "$(dirname "$0")/../assets" "$dir" > /dev/null
blender --background --factory-startup --python "$(dirname "$0")/blender_weights.py" -- \
    "$dir/skinning30.gltf" "$dir/weights30.json" "$dir/weights30.csv" "$dir/weights30-assets.csv" \
    "$(dirname "$0")/../assets/RiggedSimple.gltf" "$(dirname "$0")/../assets/RiggedFigure.gltf" > "$dir/log" 2>&1 || status=1
grep -E '^(file|  |blender-check)|Error|Traceback' "$dir/log" | sed "s|$dir/||"
exit "$status"
