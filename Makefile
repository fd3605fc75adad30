# Skinning lab: chapter programs, their shared library and their tests.
#
#   make lab30    build build/bin/lab30 and regenerate chapter 30's figures into out/ch30/
#   make labs     build and run every chapter program into its chapter's out/CH/
#   make PROGRAM  build one program and run it into its chapter's out/CH/ (listed below)
#   make grade30  grade your sheets, lab/ch30/exercises.c and lab/ch30/sheets/ (SHEET=name grades one,
#                 EXERCISES=path grades another file as that sheet, or alone as its own)
#   make new-chapter N=31  make lab/ch31/ from lab/template/ and add ch31 to lab/chapters.mk
#   make test     build everything and run every test suite (cmocka), sampled where exhaustive
#                 takes minutes: a few allocation sites a program, a short sweep (about a minute)
#   make bench    measure CPU and GPU skinning and bone heat here (about a minute and a half):
#                 build/bench/skinning.csv, targets.csv, skinning.png, compression.csv, machine.csv,
#                 gpu.csv, weights.csv, RESULTS.md
#   make check    every suite at full length: every allocation site and rename of test_faults,
#                 a longer sweep (what CI runs, with gcc and under ASan and UBSan)
#   make sweep    every program over seeded option values, SWEEP_RUNS each (default 100;
#                 make test runs 4, make check 30)
#   make fuzz     libFuzzer on the glTF reader for FUZZ_SECONDS (default 60)
#   make blender-check  fresh glTF exports in Blender's importer, Blender's automatic weights
#                       against lab30-weights's Blender model (installs Blender)
#   make clean    remove build/
#
# A chapter is a folder lab/CH/ and a word in lab/chapters.mk (DESIGN.md, "Adding a chapter").
#
# The compiler is yours to choose (CC=clang); CFLAGS defaults to -O2 -g and comes after
# the project's warning set, so your flags win, but for one: EXACT comes after them, so that
# no compiler fuses a multiply and an add the code writes apart (clang does by default, and
# -march=native gives it FMA): the committed outputs are the same bytes whatever -O and
# -march (the fast kernels fuse where their intrinsics say so, and their tests compare
# within bounds). With a -march of yours, gcc 12's SLP vectorizer also fuses alternating
# add/sub patterns into vfmaddsub despite -ffp-contract=off (quat_mul did), so EXACT turns
# that vectorizer off there. SANITIZE=1 adds ASan and UBSan; use a
# separate BUILD directory for it, e.g. make test CC=clang SANITIZE=1 BUILD=build/asan.

# In parallel by default, one job a processor; a -j of yours wins (make -j1 for one at a time).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

BUILD   ?= build
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Werror
ifeq ($(SANITIZE),1)
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

LIB_SRC   := $(wildcard src/*/*.c)
# The lab's one C++ file: KHR_draco_mesh_compression's decoder behind a C interface
# (src/gltf/gltf_draco_bridge.h), built as a shared library of its own with the C
# compiler's C++ sibling, without the sanitizers (it only calls libdraco), and opened at run
# time beside the program (build/bin/../lib) by the first Draco asset (src/gltf/gltf.h):
# a program or run that reads none never loads libdraco or its C++ start-up.
CXX := $(if $(findstring clang,$(CC)),clang++,g++)
DRACO_BRIDGE := $(BUILD)/lib/libskinlab-draco.so
SHADERS   := $(wildcard shaders/*.glsl shaders/*.frag)
LIB_OBJ   := $(LIB_SRC:src/%.c=$(BUILD)/obj/src/%.o) $(BUILD)/obj/gen/shaders.o
LIB       := $(BUILD)/libskinlab.a

# ---- the chapters, found by rule ------------------------------------------------------
# lab/chapters.mk names the chapters. In a chapter's folder lab/CH/:
#   - a program is a folder P holding P.c (its main): build/bin/P, `make P` runs it into out/CH;
#   - a program links the objects its includes reach (scripts/closure.sh, below);
#   - every other .c file of the folder and of its program folders (test_*.c, the student's
#     exercises.c, the sheets/, the grader's grade/ and the window's view/ aside) goes into
#     the chapter's library,
#     build/libCH.a, which the suites and the benchmarks link;
#   - test_*.c, in the folder or a program's, is a cmocka suite: build/tests/test_*;
#   - a program's optional P/program.mk sets what differs from the rule (P.libs: the
#     packages it links beyond the library; P.input: an argument before OUTDIR; P.before: a
#     command make P runs first; P.needs: programs built before it; P.gpu: 1 when it
#     needs a GPU context).
# Each chapter compiles with -Ilab/CH, so its programs include the chapter's headers by name.
include lab/chapters.mk
program_of = $(notdir $(patsubst %/,%,$(1)))
chapter_programs = $(sort $(foreach d,$(wildcard lab/$(1)/*/),$(if $(wildcard $(d)$(call program_of,$(d)).c),$(call program_of,$(d)))))
$(foreach c,$(CHAPTERS),$(eval PROGRAMS.$(c) := $(call chapter_programs,$(c))))
$(foreach c,$(CHAPTERS),$(foreach p,$(PROGRAMS.$(c)),$(eval CHAPTER.$(p) := $(c))))
LABS         := $(foreach c,$(CHAPTERS),$(PROGRAMS.$(c)))
LAB_MAINS    := $(foreach p,$(LABS),lab/$(CHAPTER.$(p))/$(p)/$(p).c)
not_tests     = $(foreach f,$(1),$(if $(filter test_%,$(notdir $(f))),,$(f)))
CHAPTER_SRC   = $(filter-out $(LAB_MAINS) lab/$(1)/exercises.c lab/$(1)/sheets/% lab/$(1)/grade/% lab/$(1)/view/%,$(call not_tests,$(wildcard lab/$(1)/*.c lab/$(1)/*/*.c)))
CHAPTER_LIBS := $(CHAPTERS:%=$(BUILD)/lib%.a)
CHAPTER_OBJ  := $(foreach c,$(CHAPTERS),$(patsubst %.c,$(BUILD)/obj/%.o,$(call CHAPTER_SRC,$(c))))
CHAPTER_TESTS := $(foreach c,$(CHAPTERS),$(wildcard lab/$(c)/test_*.c lab/$(c)/*/test_*.c))
-include $(foreach c,$(CHAPTERS),$(wildcard lab/$(c)/*/program.mk))
LAB_BINS  := $(LABS:%=$(BUILD)/bin/%)

TEST_SRC  := $(wildcard tests/test_*.c) $(CHAPTER_TESTS)
# test_fastskin's suite twice: with the library's kernels, and with the AVX-512 level's
# portable twin in place of the level (below), so that its code runs on every machine.
TWIN_OBJ  := $(BUILD)/obj/src/skin/fastskin_avx512_twin.o
TEST_BINS := $(foreach t,$(TEST_SRC),$(BUILD)/tests/$(basename $(notdir $(t)))) $(BUILD)/tests/test_fastskin_avx512_twin
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
TEST_UTIL := $(BUILD)/obj/tests/testutil.o
BENCH     := $(BUILD)/bin/bench-skinning
BENCH_GPU := $(BUILD)/bin/bench-gpu
BENCH_INSTRUCTIONS := $(BUILD)/bin/bench-instructions
BENCH_STEPCOUNT := $(BUILD)/bin/bench-stepcount
BENCH_WEIGHTS := $(BUILD)/bin/bench-weights
BENCH_BASELINES := $(BUILD)/obj/bench/baselines.o
# The programs the end-to-end suites run (tests/test_programs.c, test_faults.c, test_sweep.c,
# test_docs.c), written by the build from the lists above: build/gen/programs.h.
PROGRAMS_H := $(BUILD)/gen/programs.h

# What each program links, from its includes (scripts/closure.sh): CLOSURE.<program>, so
# that make lab30 compiles the files lab30 needs and no other program's, GPU or CHOLMOD code.
CLOSURE_MK := $(BUILD)/gen/closure.mk
objects_of = $(patsubst %.cc,$(BUILD)/obj/%.o,$(patsubst %.c,$(BUILD)/obj/%.o,$(patsubst $(BUILD)/gen/%.c,gen/%.c,$(1))))

# Package flags come from pkg-config, written once by scripts/ensure-deps.sh, which also
# installs the Debian packages when they are missing (as root) or prints the apt-get line.
CONFIG := $(BUILD)/config.mk
ifeq ($(filter clean help new-chapter,$(MAKECMDGOALS)),)
include $(CONFIG)
-include $(CLOSURE_MK)
endif

# The windows (make viewN, below), built where SDL2 is installed.
VIEW_CHAPTERS := $(foreach c,$(CHAPTERS),$(if $(wildcard lab/$(c)/view/),$(c)))
VIEW_BINS := $(if $(SDL_LIBS),$(foreach c,$(VIEW_CHAPTERS),$(BUILD)/bin/view$(c:ch%=%)))

EXACT   = -ffp-contract=off $(if $(findstring -march,$(CFLAGS)),-fno-tree-slp-vectorize)
ALL_CFLAGS = $(WARN) $(CFLAGS) $(EXACT) $(SAN) -pthread -MMD -MP -Isrc $(CHAPTER_INC) $(DEPS_CFLAGS)
ALL_LDFLAGS = $(SAN) -pthread $(LDFLAGS)
# A chapter's files see its own folder; the suites of tests/ and bench/ see every chapter's.
$(foreach c,$(CHAPTERS),$(eval $(BUILD)/obj/lab/$(c)/%.o: CHAPTER_INC := -Ilab/$(c)))
$(BUILD)/obj/tests/%.o $(BUILD)/obj/bench/%.o: CHAPTER_INC := $(CHAPTERS:%=-Ilab/%)

.PHONY: all labs test test-deps check sweep bench bench-view fuzz gltf-validator blender-check clean help new-chapter FORCE $(LABS)
.SECONDARY:
all: $(LAB_BINS) $(VIEW_BINS) $(TEST_BINS) $(BENCH) $(BENCH_GPU) $(BENCH_INSTRUCTIONS) $(BENCH_STEPCOUNT) $(BENCH_WEIGHTS)

# The banner above, then each chapter's page and its programs with the summary their
# option table declares (scripts/make-help.sh).
help:
	@sed -n '2,/^$$/p' Makefile | sed 's/^# \{0,1\}//'
	@sh scripts/make-help.sh $(foreach c,$(CHAPTERS),$(c) $(PROGRAMS.$(c)) /)

$(CONFIG): scripts/ensure-deps.sh
	sh scripts/ensure-deps.sh $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(DRACO_BRIDGE): src/gltf/gltf_draco_bridge.cc src/gltf/gltf_draco_bridge.h
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Wpedantic -Werror $(CXXFLAGS) -fPIC -shared -pthread -Isrc $< $(DRACO_LIBS) -o $@

# libmeshoptimizer is opened by its SONAME (scripts/ensure-deps.sh), by the first meshopt asset.
$(BUILD)/obj/src/gltf/gltf_meshopt.o: ALL_CFLAGS += $(GLTF_CFLAGS)

# Rebuilt from scratch: `ar r` would keep members of source files that no longer exist.
$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

define chapter_rules
$(BUILD)/lib$(1).a: $(patsubst %.c,$(BUILD)/obj/%.o,$(call CHAPTER_SRC,$(1)))
	@mkdir -p $$(@D)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach c,$(CHAPTERS),$(eval $(call chapter_rules,$(c))))

$(CLOSURE_MK): $(wildcard src/*/*.[ch] src/*/*.cc) $(foreach c,$(CHAPTERS),$(wildcard lab/$(c)/*.[ch] lab/$(c)/*/*.[ch])) \
                scripts/closure.sh lab/chapters.mk
	@sh scripts/closure.sh $@ $(BUILD) $(foreach p,$(LABS),$(CHAPTER.$(p)):$(p)) $(foreach c,$(GRADE_CHAPTERS),$(c):grade)

define program_rules
$(BUILD)/bin/$(1): $(call objects_of,$(CLOSURE.$(1))) $(if $(filter src/gltf/gltf_draco.c,$(CLOSURE.$(1))),| $(DRACO_BRIDGE))
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_LDFLAGS) $$^ $$(DEPS_LIBS) $$($(1).libs) -o $$@

$(1): $(BUILD)/bin/$(1) $(foreach n,$($(1).needs),$(BUILD)/bin/$(n))
	@mkdir -p out/$(CHAPTER.$(1))
	$(if $($(1).before),$($(1).before))
	$(BUILD)/bin/$(1) $(if $($(1).input),$($(1).input) )out/$(CHAPTER.$(1))
endef
$(foreach p,$(LABS),$(eval $(call program_rules,$(p))))

# The GLSL sources of shaders/, embedded into the library (scripts/embed-shaders.sh).
$(BUILD)/gen/shaders.c: $(SHADERS) scripts/embed-shaders.sh
	sh scripts/embed-shaders.sh $@ $(SHADERS)

$(BUILD)/obj/gen/shaders.o: $(BUILD)/gen/shaders.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Rewritten only when the list changes; what includes it (tests/testutil.c) is rebuilt then,
# through its dependency file. Order-only here: it exists before the first compile.
$(PROGRAMS_H): FORCE
	@sh scripts/list-programs.sh $@ $(foreach p,$(LABS),'$(p)|$(CHAPTER.$(p))|$($(p).input)|$($(p).gpu)')
$(TEST_OBJ) $(TEST_UTIL): | $(PROGRAMS_H)

# Only what talks to the GPU opens EGL and GLES, with dlopen (src/gpu/gl_load.h).
$(BUILD)/tests/test_gpu: EXTRA_LIBS = $(GPU_LIBS)
# What solves sparse systems opens CHOLMOD with dlopen (src/solve/sparse.h), by the SONAME
# ensure-deps read: the chapter suites link their chapter's library, and lab30-weights' bone heat is in
# chapter 30's.
$(BUILD)/obj/src/solve/sparse.o: ALL_CFLAGS += $(SOLVE_CFLAGS)
$(BUILD)/tests/%: EXTRA_LIBS += $(SOLVE_LIBS)

$(BENCH): $(BUILD)/obj/bench/bench-skinning.o $(BENCH_BASELINES) $(CHAPTER_LIBS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) -o $@

$(BENCH_GPU): $(BUILD)/obj/bench/bench-gpu.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(GPU_LIBS) -o $@

$(BENCH_INSTRUCTIONS): $(BUILD)/obj/bench/bench-instructions.o $(BENCH_BASELINES) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) -o $@

$(BENCH_STEPCOUNT): $(BUILD)/obj/bench/bench-stepcount.o
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ -o $@

$(BENCH_WEIGHTS): $(BUILD)/obj/bench/bench-weights.o $(CHAPTER_LIBS) $(LIB) | $(DRACO_BRIDGE)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(SOLVE_LIBS) -o $@

# The end-to-end suites find the programs and the committed out/ through these.
TEST_FLAGS := -Itests -I$(BUILD)/gen -DLAB_BIN_DIR='"$(BUILD)/bin"' -DCOMMITTED_OUT_DIR='"out"' \
    -DFAULTSHIM='"$(BUILD)/tests/libfaultshim.so"' -DGLTF_VALIDATOR_DIR='"$(BUILD)/node/node_modules/gltf-validator"'
$(TEST_OBJ) $(TEST_UTIL) $(BUILD)/obj/tests/make-simple-skin.o: ALL_CFLAGS += $(TEST_FLAGS)
# An engine's C++ translation unit over the library (tests/cxx_engine.cc): test_docs runs it,
# and compiles every public header alone as C++17 with the same compiler.
CXX_ENGINE := $(BUILD)/tests/cxx-engine
$(CXX_ENGINE): tests/cxx_engine.cc $(LIB) $(wildcard src/*/*.h)
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -Wall -Wextra -Wpedantic -Werror $(CXXFLAGS) $(SAN) -pthread -Isrc $(DEPS_CFLAGS) $< $(LIB) \
	    $(DEPS_LIBS) $(ALL_LDFLAGS) -o $@
$(BUILD)/tests/test_docs: | $(CXX_ENGINE)
$(BUILD)/obj/tests/test_docs.o: ALL_CFLAGS += -DLAB_CXX='"$(CXX)"' -DLAB_DEPS_CFLAGS='"$(DEPS_CFLAGS)"'

# What a suite that runs make (test_docs, test_scaffold) passes it, so that it builds with
# this build's compiler into this build's directory.
$(TEST_OBJ) $(TEST_UTIL): ALL_CFLAGS += -DLAB_MAKE_VARIABLES='"CC=$(CC) SANITIZE=$(SANITIZE) BUILD=$(BUILD)"'


# ---- the student's workbench: make gradeN ------------------------------------------------
# A chapter with exercises (lab/CH/exercises.c, the student's file) has a grader in
# lab/CH/grade/: gradeN.c (its main) and the files its includes reach (scripts/closure.sh,
# CLOSURE.grade-CH: the table, the machinery, the mistakes, the pictures and the parts of
# src/ and the chapter they use; no glTF, Draco, GPU or CHOLMOD code). The solutions the
# tests use sit in lab/CH/grade/solutions/ (reference.c; example.c, the page's example).
# SHEET, EXERCISES and GRADE_DIR reach the script through the environment (make exports a
# variable set on its command line), never through the recipe's text: a file name with
# quotes, backquotes or a dollar sign is a name, not a command.
# make gradeN compiles EXERCISES (default lab/CH/exercises.c) with the lab's warnings, not
# fatal, and again under -fsanitize=address,undefined where the compiler can, links each
# into GRADE_DIR (default build/gradeN) and runs the sanitized one there
# (scripts/grade.sh, lab/CH/grade/README.md). The grader's suites, lab/CH/grade/test_*.c,
# link the reference instead.
GRADE_CHAPTERS := $(foreach c,$(CHAPTERS),$(if $(wildcard lab/$(c)/grade/),$(c)))
# every src/math/ object: a sheet, a shared object of its own, may call any of them (the
# grader and the window are linked with -rdynamic)
MATH_OBJ := $(filter $(BUILD)/obj/src/math/%,$(LIB_OBJ))
GRADE_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
define grade_rules
GRADE_OBJ.$(1) = $$(call objects_of,$$(CLOSURE.grade-$(1)))
GRADE_TEST_OBJ.$(1) = $$(filter-out $(BUILD)/obj/lab/$(1)/grade/grade$(1:ch%=%).o,$$(GRADE_OBJ.$(1))) \
    $$(patsubst %.c,$(BUILD)/obj/%.o,$$(wildcard lab/$(1)/grade/solutions/reference*.c))
.PHONY: grade$(1:ch%=%)
grade$(1:ch%=%): $$(GRADE_OBJ.$(1)) $(MATH_OBJ)
	@sh scripts/grade.sh $(1:ch%=%) "$$$${SHEET-}" "$$$${EXERCISES-}" "$$$${GRADE_DIR:-$(BUILD)/grade$(1:ch%=%)}" \
	    "$$(CC) $$(filter-out -Werror,$$(WARN)) $$(CFLAGS) $$(EXACT) $$(SAN) -Isrc -Ilab/$(1) $$(DEPS_CFLAGS)" \
	    "$$(GRADE_SANITIZE)" "$$(CC) $$(ALL_LDFLAGS)" "$$(sort $$(GRADE_OBJ.$(1)) $(MATH_OBJ)) $$(DEPS_LIBS) $$(GPU_LIBS)"
endef
$(foreach c,$(GRADE_CHAPTERS),$(eval $(call grade_rules,$(c))))
# ---- the window: make viewN (lab/CH/view/, SDL2) -----------------------------------------
# A chapter with lab/CH/view/ has a window, build/bin/viewN: viewN.c (its main), the files
# that include SDL beside it and the frames' files, linked with the chapter's library and the
# lab's. SDL2 (libsdl2-dev) is the build's to install like every package (scripts/
# ensure-deps.sh); where it is missing and cannot be installed, everything else builds and
# tests as before and make viewN says what to install. -rdynamic and every src/math/ object:
# a student's sheet, loaded as a shared object, resolves the functions it calls in the
# window (lab/CH/view/README.md). make viewN [SHEET=FILE] [ASSET=FILE] [VIEW_ARGS=...].
define view_rules
VIEW_OBJ.$(1) := $(patsubst %.c,$(BUILD)/obj/%.o,$(call not_tests,$(wildcard lab/$(1)/view/*.c)))
# the window's side, the files that include SDL (view30.c, view30_window.c, ...): SDL's
# flags, and kept out of the suite, which checks the frames without SDL
VIEW_SDL.$(1) := $(patsubst %.c,$(BUILD)/obj/%.o,$(shell grep -l '^#include <SDL.h>' lab/$(1)/view/*.c))
$$(VIEW_SDL.$(1)): ALL_CFLAGS += $$(SDL_CFLAGS)
$(BUILD)/obj/lab/$(1)/view/view$(1:ch%=%)_sheet.o: ALL_CFLAGS += -DVIEW30_CC='"$$(CC)"' -DVIEW30_BUILD='"$(BUILD)"' \
    -DVIEW30_MAKE_VARIABLES='"CC=$$(CC) SANITIZE=$$(SANITIZE) BUILD=$(BUILD)"'
$(BUILD)/bin/view$(1:ch%=%): $$(VIEW_OBJ.$(1)) $(MATH_OBJ) $(BUILD)/lib$(1).a $(LIB) | $(DRACO_BRIDGE)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_LDFLAGS) -rdynamic $$(VIEW_OBJ.$(1)) $(MATH_OBJ) $(BUILD)/lib$(1).a $(LIB) $$(DEPS_LIBS) $$(SOLVE_LIBS) $$(SDL_LIBS) -o $$@
.PHONY: view$(1:ch%=%)
ifeq ($$(SDL_LIBS),)
view$(1:ch%=%):
	@echo "view$(1:ch%=%) needs SDL2, which is not installed: sudo apt-get install -y libsdl2-dev (or make as root)" >&2; exit 1
else
view$(1:ch%=%): $(BUILD)/bin/view$(1:ch%=%) $$(if $$(SHEET),$$(GRADE_OBJ.$(1)))
	@mkdir -p out/$(1)/view$(1:ch%=%)
	$(BUILD)/bin/view$(1:ch%=%) $$(if $$(SHEET),--sheet $$(SHEET)) $$(VIEW_ARGS) $$(ASSET)
endif
endef
$(foreach c,$(VIEW_CHAPTERS),$(eval $(call view_rules,$(c))))
# every suite of a window's folder links the frames' files, not the window's (SDL's) side
$(foreach c,$(VIEW_CHAPTERS),$(foreach t,$(basename $(notdir $(wildcard lab/$(c)/view/test_*.c))),\
    $(eval TEST_OBJS.$(t) = $$(filter-out $$(VIEW_SDL.$(c)),$$(VIEW_OBJ.$(c))))))

# built before the suites run, so that the ones that run make gradeN (test_grade30_make,
# the window's) never compile the same object at once
GRADE_BINS_OBJ = $(foreach c,$(GRADE_CHAPTERS),$(GRADE_OBJ.$(c)))
# every suite of a grader's folder links the grader (but its main) and the reference
$(foreach c,$(GRADE_CHAPTERS),$(foreach t,$(basename $(notdir $(wildcard lab/$(c)/grade/test_*.c))),\
    $(eval TEST_OBJS.$(t) = $$(GRADE_TEST_OBJ.$(c)))))

# The library's suites (tests/) link the library alone, so that an edit in a chapter relinks
# only its own suites; the one that reads the chapter's glTF export back links the chapter.
TESTS_WITH_CHAPTERS := tests/test_gltf.c
test_libs = $(if $(filter tests/%,$(1)),$(if $(filter $(TESTS_WITH_CHAPTERS),$(1)),$(CHAPTER_LIBS)),$(CHAPTER_LIBS))
define test_rule
$(BUILD)/tests/$(basename $(notdir $(1))): $(BUILD)/obj/$(1:.c=.o) $(TEST_OBJS.$(basename $(notdir $(1)))) $(TEST_UTIL) $(call test_libs,$(1)) $(LIB) | $(DRACO_BRIDGE)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_LDFLAGS) $$^ $$(DEPS_LIBS) $$(EXTRA_LIBS) $$(TEST_LIBS) -o $$@
endef
$(foreach t,$(TEST_SRC),$(eval $(call test_rule,$(t))))
# make fuzz's seed writer (tests/make-simple-skin.c): the tutorial's SimpleSkin, from testutil
$(eval $(call test_rule,tests/make-simple-skin.c))

# The AVX-512 level built for any CPU (FASTSKIN_AVX512_TWIN, see src/skin/fastskin_avx512.c);
# linked before the library, its objects replace the level's. -Wno-psabi: its 64-byte
# vectors pass only between the file's own static functions, all built without AVX-512.
$(TWIN_OBJ): src/skin/fastskin_avx512.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-psabi -DFASTSKIN_AVX512_TWIN -c $< -o $@

$(BUILD)/tests/test_fastskin_avx512_twin: $(BUILD)/obj/tests/test_fastskin.o $(TWIN_OBJ) $(TEST_UTIL) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(EXTRA_LIBS) $(TEST_LIBS) -o $@

# The packages only the suites need ("tests:" in scripts/packages.txt), checked on every make
# test (a list that grew since the last build is installed too): as root installed, else named.
test-deps:
	@missing=$$(. scripts/packages.sh; packages_missing tests); [ -z "$$missing" ] || if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "missing:$$missing: run  sudo apt-get install -y$$missing"; exit 1; fi

# The Khronos glTF-Validator from the npm registry, for the tests of the exported file.
VALIDATOR := $(BUILD)/node/node_modules/gltf-validator/package.json
gltf-validator: $(VALIDATOR)
$(VALIDATOR): | test-deps
	npm install --silent --no-audit --no-fund --prefix $(BUILD)/node gltf-validator@2.0.0-dev.3.10

labs: $(LABS)

# A new chapter from the template: lab/chN/ with a program labN (a mesh, one formula and
# its independent check, a figure and its evidence), its page and its test.
new-chapter:
	@sh scripts/new-chapter.sh $(N)

# Not part of make test: Blender's own importer on fresh exports (scripts/blender-check.sh).
blender-check: $(BUILD)/bin/lab30 $(BUILD)/bin/lab30-fixes $(BUILD)/bin/lab30-weights
	sh scripts/blender-check.sh $(BUILD)/bin

# A shim test_faults preloads: it fails the Nth allocation or rename of a program, or kills
# it at its Nth rename.
FAULTSHIM := $(BUILD)/tests/libfaultshim.so
$(FAULTSHIM): tests/faultshim.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -shared -fPIC $< -o $@

test: test-deps $(TEST_BINS) $(LAB_BINS) $(VIEW_BINS) $(GRADE_BINS_OBJ) $(BENCH) $(BENCH_GPU) $(BENCH_INSTRUCTIONS) $(BENCH_WEIGHTS) $(VALIDATOR) $(FAULTSHIM)
	FAULTS_SAMPLE=$(TEST_FAULTS_SAMPLE) SWEEP_RUNS=$(TEST_SWEEP_RUNS) sh tests/run-all.sh $(TEST_BINS)

# make test's sampled settings, and make check's: up to 400 allocation sites of each program
# (every one of a program with fewer; the first, the last and evenly between beyond: CI's
# 20 minutes hold no more) failed both ways, every rename refused and killed (test_faults),
# and a longer sweep. CHECK_FAULTS_SAMPLE=0 fails every site of every program.
TEST_FAULTS_SAMPLE ?= 6
TEST_SWEEP_RUNS ?= 4
CHECK_FAULTS_SAMPLE ?= 400
CHECK_SWEEP_RUNS ?= 30
check: test-deps $(TEST_BINS) $(LAB_BINS) $(VIEW_BINS) $(GRADE_BINS_OBJ) $(BENCH) $(BENCH_GPU) $(BENCH_INSTRUCTIONS) $(BENCH_WEIGHTS) $(VALIDATOR) $(FAULTSHIM)
	FAULTS_SAMPLE=$(CHECK_FAULTS_SAMPLE) SWEEP_RUNS=$(CHECK_SWEEP_RUNS) sh tests/run-all.sh $(TEST_BINS)

# The seeded sweep of every program's options, longer than make test's (tests/test_sweep.c).
SWEEP_RUNS ?= 100
sweep: $(BUILD)/tests/test_sweep $(LAB_BINS)
	SWEEP_RUNS=$(SWEEP_RUNS) $(BUILD)/tests/test_sweep

# Timings of this machine (about a minute and a half; never part of make test).
# A run on this machine goes to build/bench, where no test reads it: out/bench is the
# committed run the pages cite, and the tests check that its tables are generated from its
# CSVs. `make bench BENCH_DIR=out/bench` replaces the committed run.
BENCH_DIR ?= $(BUILD)/bench
bench: $(BENCH) $(BENCH_GPU) $(BENCH_INSTRUCTIONS) $(BENCH_STEPCOUNT) $(BENCH_WEIGHTS)
	@mkdir -p $(BENCH_DIR)
	$(BENCH) $(BENCH_DIR)
	$(BENCH_GPU) $(BENCH_DIR)
	$(BENCH_WEIGHTS) $(BENCH_DIR)
	sh scripts/bench-instructions.sh $(BENCH_INSTRUCTIONS) $(BENCH_STEPCOUNT) $(BENCH_DIR)
	sh scripts/bench-results.sh $(BENCH_DIR)
	$(if $(VIEW_BINS),$(MAKE) --no-print-directory bench-view BENCH_DIR=$(BENCH_DIR))
	@echo "bench: the tables are in $(BENCH_DIR)/RESULTS.md$(if $(VIEW_BINS), and the window's in $(BENCH_DIR)/view30.md)"

# The window's frame times (lab/ch30/view/README.md): every method on the cylinder, an asset
# playing (BENCH_ASSET, by default the largest the lab has), a saved sheet to its new
# picture; SDL's offscreen driver, thread CPU time.
BENCH_ASSET ?= assets/RiggedFigure.gltf
bench-view: $(BUILD)/bin/view30 $(GRADE_BINS_OBJ)
	@mkdir -p $(BENCH_DIR) $(BUILD)/view30
	cp lab/ch30/grade/solutions/reference.c $(BUILD)/view30/bench-sheet.c
	SDL_VIDEODRIVER=offscreen $(BUILD)/bin/view30 --bench $(BENCH_DIR)/view30-cylinder.md --sheet $(BUILD)/view30/bench-sheet.c
	SDL_VIDEODRIVER=offscreen $(BUILD)/bin/view30 --bench $(BENCH_DIR)/view30-asset.md $(BENCH_ASSET)
	{ cat $(BENCH_DIR)/view30-cylinder.md; tail -n +5 $(BENCH_DIR)/view30-asset.md; } > $(BENCH_DIR)/view30.md
	rm -f $(BENCH_DIR)/view30-cylinder.md $(BENCH_DIR)/view30-asset.md $(BUILD)/view30/bench-sheet.c
	@cat $(BENCH_DIR)/view30.md

# libFuzzer on lab30-gltf's whole pipeline in memory and on the glTF writer (clang):
# FUZZ_SECONDS of mutations of the seed corpus: the tutorial's SimpleSkin, the chapter's
# own export (inline and with an external buffer), the corrective export (a morph target
# and its weights channel), the assets test_gltf builds (GLB, sparse accessors, external
# buffers, normalised weights, two JOINTS sets, STEP and CUBICSPLINE, morph weights
# channels), gltfpack's quantized and meshopt-compressed export and draco_transcoder's
# Draco export (which reach the decoders)
# and every case of test_gltf_malformed, each behind an options byte (see
# tests/fuzz_gltf.c), a rig for the writer, and a dictionary of glTF's keys
# (tests/fuzz_gltf.dict).
FUZZ_SECONDS ?= 60
# A rig the writer accepts (tests/fuzz_gltf.c, bit 7), as the harness takes its bytes: options: the writer; 1 joint, no name, a root; at the origin, rotation (0,0,0,1); 2 keys; key 0: t 0, rotation (0,0,0,1), weight 0; key 1: t 1, rotation (0,0,0,1), weight 1; morph deltas: vertex 2 by (0.1,0.1,0.1); an end node, a target and its name; seven empty names; animated joint 0; rig rotation (0,0,0,1); end node under joint 0, at (0,0,1).
WRITER_SEED := \200\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000\000\000\000\000\077\200\000\000\000\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000\077\200\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\075\314\314\315\075\314\314\315\075\314\314\315\007\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000\000\000\000\000\000\000\000\000\000\077\200\000\000
FUZZ := build/fuzz/fuzz-gltf
# Built from what the reader's and the writer's paths use: not the GPU code, not CHOLMOD's
# wrapper nor its callers (the weights' solvers), not the SIMD kernels (fastskin.c alone
# takes minutes under these sanitizers).
FUZZ_SRC := $(filter-out src/gpu/% src/solve/% src/weights/% src/skin/fastskin%.c,$(LIB_SRC))
fuzz: $(CONFIG) $(BUILD)/bin/lab30 $(BUILD)/bin/lab30-gltf $(BUILD)/tests/make-simple-skin \
      $(BUILD)/tests/test_gltf_malformed $(BUILD)/tests/test_gltf
	@mkdir -p build/fuzz/corpus build/fuzz/assets
	$(MAKE) --no-print-directory build/lib/libskinlab-draco.so BUILD=build
	clang $(WARN) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc \
	    $(DEPS_CFLAGS) $(GLTF_CFLAGS) $(FUZZ_SRC) tests/fuzz_gltf.c $(DEPS_LIBS) -pthread -o $(FUZZ)
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
	{ printf '\034'; cat out/ch30/fixes30-corrective.gltf; } > build/fuzz/corpus/fixes30-corrective.gltf
	gltfpack -i build/fuzz/skinning30.gltf -o build/fuzz/quantized.glb -ar 16 -af 0 > /dev/null
	gltfpack -i build/fuzz/skinning30.gltf -o build/fuzz/meshopt.glb -cc -ar 16 -af 0 > /dev/null
	{ printf '\000'; cat build/fuzz/quantized.glb; } > build/fuzz/corpus/quantized.glb
	{ printf '\000'; cat build/fuzz/meshopt.glb; } > build/fuzz/corpus/meshopt.glb
	draco_transcoder -i build/fuzz/skinning30.gltf -o build/fuzz/draco.glb > /dev/null
	{ printf '\002'; cat build/fuzz/draco.glb; } > build/fuzz/corpus/draco.glb
	printf '$(WRITER_SEED)' > build/fuzz/corpus/writer-one-joint.bin
	FUZZ_ASSET_DIR=build/fuzz/assets $(FUZZ) -max_total_time=$(FUZZ_SECONDS) -max_len=262144 \
	    -dict=tests/fuzz_gltf.dict -print_final_stats=1 build/fuzz/corpus

clean:
	rm -rf build

# every object's dependencies, whatever built it (the window's objects and the sheets'
# solutions too): none listed by hand, so no object outlives a header it was built from
-include $(wildcard $(BUILD)/obj/*/*.d $(BUILD)/obj/*/*/*.d $(BUILD)/obj/*/*/*/*.d $(BUILD)/obj/*/*/*/*/*.d)
