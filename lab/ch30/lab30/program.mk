# make lab30 writes the glTF export too (what lab30-gltf reads), so that out/ch30/ holds
# the outputs of one run of `lab30 --gltf`, as its manifest lab30-outputs.txt lists.
lab30.input := --gltf
