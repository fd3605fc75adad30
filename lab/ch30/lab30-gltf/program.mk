# lab30-gltf skins the chapter's own export: lab30 --gltf writes it first.
lab30-gltf.input  := out/ch30/skinning30.gltf
lab30-gltf.needs  := lab30
lab30-gltf.before  = $(BUILD)/bin/lab30 --gltf out/ch30 > /dev/null
