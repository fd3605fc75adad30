# Skinning lab: chapter programs, their shared library and their tests.
#
#   make lab30    build build/bin/lab30 and regenerate chapter 30's figures into out/
#   make labs     build and run every chapter program into out/; each also on its own:
#     make lab30-dqs       dual quaternion skinning beside LBS
#     make lab30-fixes     twist joints, corrective shapes, centres of rotation
#     make lab30-normals   weights, spaces and normals
#     make lab30-palette   the engine's packed vertex, palettes and instancing
#     make lab30-gpu       the palette in GLSL shaders (EGL, headless)
#     make lab30-gltf      glTF 2.0: export the rig and skin it back
#     make lab30-weights   where weights come from: bone heat beside the hand weights
#   make test     build everything and run every test suite (cmocka)
#   make bench    measure CPU and GPU skinning and bone heat here (about a minute and a half):
#                 build/bench/skinning.csv, targets.csv, skinning.png, compression.csv, machine.csv,
#                 gpu.csv, weights.csv, RESULTS.md
#   make sweep    every program over seeded option values, SWEEP_RUNS each (default 100;
#                 make test runs 10)
#   make fuzz     libFuzzer on the glTF reader for FUZZ_SECONDS (default 60)
#   make blender-check  open fresh glTF exports in Blender's importer (installs Blender)
#   make clean    remove build/
#
# The compiler is yours to choose (CC=clang); CFLAGS defaults to -O2 -g and comes after
# the project's warning set, so your flags win. SANITIZE=1 adds ASan and UBSan; use a
# separate BUILD directory for it, e.g. make test CC=clang SANITIZE=1 BUILD=build/asan.

BUILD   ?= build
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Werror
ifeq ($(SANITIZE),1)
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

SIMPLE_LABS := lab30 lab30-dqs lab30-normals lab30-palette lab30-gpu lab30-fixes lab30-weights
LABS      := $(SIMPLE_LABS) lab30-gltf
LIB_SRC   := $(wildcard src/*/*.c)
SHADERS   := $(wildcard shaders/*.glsl shaders/*.frag)
LIB_OBJ   := $(LIB_SRC:src/%.c=$(BUILD)/obj/src/%.o) $(BUILD)/obj/gen/shaders.o
LIB       := $(BUILD)/libskinlab.a
# Chapter 30's folder: its programs (lab30*.c) and what only they use, as a library of its own.
CH30_SRC  := $(filter-out $(LABS:%=lab/ch30/%.c),$(wildcard lab/ch30/*.c))
CH30_OBJ  := $(CH30_SRC:%.c=$(BUILD)/obj/%.o)
CH30_LIB  := $(BUILD)/libch30.a
LAB_BINS  := $(LABS:%=$(BUILD)/bin/%)
TEST_SRC  := $(wildcard tests/test_*.c)
# test_fastskin's suite twice: with the library's kernels, and with the AVX-512 level's
# portable twin in place of the level (below), so that its code runs on every machine.
TWIN_OBJ  := $(BUILD)/obj/src/skin/fastskin_avx512_twin.o
TEST_BINS := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%) $(BUILD)/tests/test_fastskin_avx512_twin
TEST_UTIL := $(BUILD)/obj/tests/testutil.o
BENCH     := $(BUILD)/bin/bench-skinning
BENCH_GPU := $(BUILD)/bin/bench-gpu
BENCH_INSTRUCTIONS := $(BUILD)/bin/bench-instructions
BENCH_WEIGHTS := $(BUILD)/bin/bench-weights
BENCH_BASELINES := $(BUILD)/obj/bench/baselines.o

# Package flags come from pkg-config, written once by scripts/ensure-deps.sh, which also
# installs the Debian packages when they are missing (as root) or prints the apt-get line.
CONFIG := $(BUILD)/config.mk
ifeq ($(filter clean help,$(MAKECMDGOALS)),)
include $(CONFIG)
endif

ALL_CFLAGS = $(WARN) $(CFLAGS) $(SAN) -pthread -MMD -MP -Isrc -Ilab/ch30 $(DEPS_CFLAGS)
ALL_LDFLAGS = $(SAN) -pthread $(LDFLAGS)

.PHONY: all labs test sweep bench fuzz gltf-validator blender-check clean help $(LABS)
.SECONDARY:
all: $(LAB_BINS) $(TEST_BINS) $(BENCH) $(BENCH_GPU) $(BENCH_INSTRUCTIONS) $(BENCH_WEIGHTS)

help:
	@sed -n '2,25p' Makefile | sed 's/^# \{0,1\}//'

$(CONFIG): scripts/ensure-deps.sh
	sh scripts/ensure-deps.sh $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Rebuilt from scratch: `ar r` would keep members of source files that no longer exist.
$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

$(CH30_LIB): $(CH30_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

# The GLSL sources of shaders/, embedded into the library (scripts/embed-shaders.sh).
$(BUILD)/gen/shaders.c: $(SHADERS) scripts/embed-shaders.sh
	sh scripts/embed-shaders.sh $@ $(SHADERS)

$(BUILD)/obj/gen/shaders.o: $(BUILD)/gen/shaders.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Only what talks to the GPU opens EGL and GLES, with dlopen (src/gpu/gl_load.h).
$(BUILD)/bin/lab30-gpu $(BUILD)/bin/bench-gpu $(BUILD)/tests/test_gpu: EXTRA_LIBS = $(GPU_LIBS)
# Only what solves sparse systems links CHOLMOD (src/solve/sparse.h).
$(BUILD)/bin/lab30-weights $(BUILD)/tests/test_heat30: EXTRA_LIBS = $(SOLVE_LIBS)

$(BUILD)/bin/%: $(BUILD)/obj/lab/ch30/%.o $(CH30_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(EXTRA_LIBS) -o $@

$(BENCH): $(BUILD)/obj/bench/bench-skinning.o $(BENCH_BASELINES) $(CH30_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) -o $@

$(BENCH_GPU): $(BUILD)/obj/bench/bench-gpu.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(GPU_LIBS) -o $@

$(BENCH_INSTRUCTIONS): $(BUILD)/obj/bench/bench-instructions.o $(BENCH_BASELINES) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) -o $@

$(BENCH_WEIGHTS): $(BUILD)/obj/bench/bench-weights.o $(CH30_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(SOLVE_LIBS) -o $@

# The end-to-end suites find the chapter programs and the committed out/ through these.
$(BUILD)/obj/tests/%.o: ALL_CFLAGS += -DLAB_BIN_DIR='"$(BUILD)/bin"' -DCOMMITTED_OUT_DIR='"out"' \
    -DFAULTSHIM='"$(BUILD)/tests/libfaultshim.so"' -DGLTF_VALIDATOR_DIR='"$(BUILD)/node/node_modules/gltf-validator"'

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_UTIL) $(CH30_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(EXTRA_LIBS) $(TEST_LIBS) -o $@

# The AVX-512 level built for any CPU (FASTSKIN_AVX512_TWIN, see src/skin/fastskin_avx512.c);
# linked before the library, its objects replace the level's. -Wno-psabi: its 64-byte
# vectors pass only between the file's own static functions, all built without AVX-512.
$(TWIN_OBJ): src/skin/fastskin_avx512.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-psabi -DFASTSKIN_AVX512_TWIN -c $< -o $@

$(BUILD)/tests/test_fastskin_avx512_twin: $(BUILD)/obj/tests/test_fastskin.o $(TWIN_OBJ) $(TEST_UTIL) $(CH30_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(TEST_LIBS) -o $@

$(SIMPLE_LABS): %: $(BUILD)/bin/%
	$(BUILD)/bin/$@ out

# The glTF lab skins the chapter's own export (out/skinning30.gltf, open it in any viewer).
lab30-gltf: $(BUILD)/bin/lab30-gltf $(BUILD)/bin/lab30
	$(BUILD)/bin/lab30 --gltf out > /dev/null
	$(BUILD)/bin/lab30-gltf out/skinning30.gltf out

# The Khronos glTF-Validator from the npm registry, for the tests of the exported file.
VALIDATOR := $(BUILD)/node/node_modules/gltf-validator/package.json
gltf-validator: $(VALIDATOR)
$(VALIDATOR):
	@command -v npm > /dev/null || if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; \
	else echo "npm is missing: run  sudo apt-get install -y nodejs npm"; exit 1; fi
	npm install --silent --no-audit --no-fund --prefix $(BUILD)/node gltf-validator@2.0.0-dev.3.10

labs: $(LABS)

# Not part of make test: Blender's own importer on fresh exports (scripts/blender-check.sh).
blender-check: $(BUILD)/bin/lab30 $(BUILD)/bin/lab30-fixes
	sh scripts/blender-check.sh $(BUILD)/bin

# A shim test_faults preloads: it fails the Nth allocation or rename of a program, or kills
# it at its Nth rename.
FAULTSHIM := $(BUILD)/tests/libfaultshim.so
$(FAULTSHIM): tests/faultshim.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -shared -fPIC $< -o $@

test: $(TEST_BINS) $(LAB_BINS) $(BENCH) $(BENCH_GPU) $(BENCH_INSTRUCTIONS) $(BENCH_WEIGHTS) $(VALIDATOR) $(FAULTSHIM)
	sh tests/run-all.sh $(TEST_BINS)

# The seeded sweep of every program's options, longer than make test's (tests/test_sweep.c).
SWEEP_RUNS ?= 100
sweep: $(BUILD)/tests/test_sweep $(LAB_BINS)
	SWEEP_RUNS=$(SWEEP_RUNS) $(BUILD)/tests/test_sweep

# Timings of this machine (about a minute and a half; never part of make test).
# A run on this machine goes to build/bench, where no test reads it: out/bench is the
# committed run the pages cite, and the tests check that its tables are generated from its
# CSVs. `make bench BENCH_DIR=out/bench` replaces the committed run.
BENCH_DIR ?= $(BUILD)/bench
bench: $(BENCH) $(BENCH_GPU) $(BENCH_INSTRUCTIONS) $(BENCH_WEIGHTS)
	@mkdir -p $(BENCH_DIR)
	$(BENCH) $(BENCH_DIR)
	$(BENCH_GPU) $(BENCH_DIR)
	$(BENCH_WEIGHTS) $(BENCH_DIR)
	sh scripts/bench-instructions.sh $(BENCH_INSTRUCTIONS) $(BENCH_DIR) $(CC) $(WARN) $(CFLAGS)
	sh scripts/bench-results.sh $(BENCH_DIR)
	@echo 'bench: the tables are in $(BENCH_DIR)/RESULTS.md'

# libFuzzer on lab30-gltf's whole pipeline in memory and on the glTF writer (clang):
# FUZZ_SECONDS of mutations of the seed corpus: the tutorial's SimpleSkin, the chapter's
# own export (inline and with an external buffer), the corrective export (a morph target
# and its weights channel), the assets test_gltf builds (GLB, sparse accessors, external
# buffers, normalised weights, two JOINTS sets, STEP and CUBICSPLINE, morph weights
# channels) and every case of test_gltf_malformed, each behind an options byte (see
# tests/fuzz_gltf.c), a rig for the writer, and a dictionary of glTF's keys
# (tests/fuzz_gltf.dict).
FUZZ_SECONDS ?= 60
# A rig the writer accepts (tests/fuzz_gltf.c, bit 7), as the harness takes its bytes: options: the writer; 1 joint, no name, a root; at the origin, rotation (0,0,0,1); 2 keys; key 0: t 0, rotation (0,0,0,1), weight 0; key 1: t 1, rotation (0,0,0,1), weight 1; morph deltas: vertex 2 by (0.1,0.1,0.1); an end node, a target and its name; seven empty names; animated joint 0; rig rotation (0,0,0,1); end node under joint 0, at (0,0,1).
WRITER_SEED := \200\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000\000\000\000\000\077\200\000\000\000\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000\077\200\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\075\314\314\315\075\314\314\315\075\314\314\315\007\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000
FUZZ := build/fuzz/fuzz-gltf
# Built from what the reader's and the writer's paths use: not the GPU code, not CHOLMOD's
# callers, not the SIMD kernels (fastskin.c alone takes minutes under these sanitizers).
FUZZ_SRC := $(filter-out src/gpu/% src/solve/% src/skin/fastskin%.c lab/ch30/heat30.c lab/ch30/record30_weights.c \
                lab/ch30/weights30_%.c lab/ch30/record30_gpu.c lab/ch30/gpu30_figures.c lab/ch30/record30_palette.c,\
                $(LIB_SRC) $(CH30_SRC))
fuzz: $(CONFIG) $(BUILD)/bin/lab30 $(BUILD)/bin/lab30-gltf $(BUILD)/tests/make-simple-skin \
      $(BUILD)/tests/test_gltf_malformed $(BUILD)/tests/test_gltf
	@mkdir -p build/fuzz/corpus build/fuzz/assets
	clang $(WARN) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc -Ilab/ch30 \
	    $(DEPS_CFLAGS) $(FUZZ_SRC) tests/fuzz_gltf.c $(DEPS_LIBS) -pthread -o $(FUZZ)
	$(BUILD)/bin/lab30 --gltf build/fuzz > /dev/null
	$(BUILD)/tests/make-simple-skin build/fuzz/SimpleSkin.gltf
	{ printf '\000'; cat build/fuzz/skinning30.gltf; } > build/fuzz/corpus/skinning30-lbs.gltf
	{ printf '\035'; cat build/fuzz/skinning30.gltf; } > build/fuzz/corpus/skinning30-dqs.gltf
	{ printf '\036'; cat build/fuzz/SimpleSkin.gltf; } > build/fuzz/corpus/SimpleSkin.gltf
	sed -n 's/.*"uri":[[:space:]]*"data:application\/octet-stream;base64,\([^"]*\)".*/\1/p' build/fuzz/skinning30.gltf \
	    | base64 -d > build/fuzz/assets/skinning30.bin
	{ printf '\000'; sed 's/"uri":[[:space:]]*"data:[^"]*"/"uri": "skinning30.bin"/' build/fuzz/skinning30.gltf; } \
	    > build/fuzz/corpus/skinning30-external.gltf
	FUZZ_SEEDS_DIR=build/fuzz $(BUILD)/tests/test_gltf_malformed > /dev/null 2>&1
	FUZZ_SEEDS_DIR=build/fuzz $(BUILD)/tests/test_gltf > /dev/null 2>&1
	{ printf '\034'; cat out/fixes30-corrective.gltf; } > build/fuzz/corpus/fixes30-corrective.gltf
	printf '$(WRITER_SEED)' > build/fuzz/corpus/writer-one-joint.bin
	FUZZ_ASSET_DIR=build/fuzz/assets $(FUZZ) -max_total_time=$(FUZZ_SECONDS) -max_len=262144 \
	    -dict=tests/fuzz_gltf.dict -print_final_stats=1 build/fuzz/corpus

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CH30_OBJ:.o=.d) $(LAB_BINS:$(BUILD)/bin/%=$(BUILD)/obj/lab/ch30/%.d) $(BUILD)/obj/bench/bench-skinning.d \
         $(BUILD)/obj/bench/bench-gpu.d $(BUILD)/obj/bench/bench-instructions.d $(BUILD)/obj/bench/bench-weights.d $(BENCH_BASELINES:.o=.d) \
         $(TEST_BINS:$(BUILD)/tests/%=$(BUILD)/obj/tests/%.d) $(TEST_UTIL:.o=.d) $(TWIN_OBJ:.o=.d)
