# Skinning lab: chapter programs, their shared library and their tests.
#
#   make lab30    build build/bin/lab30 and regenerate chapter 30's figures into out/
#   make labs     build and run every chapter program into out/
#   make test     build everything and run every test suite (cmocka)
#   make bench    measure CPU skinning here: out/bench/skinning.csv and skinning.png
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

LABS      := lab30 lab30-dqs lab30-normals lab30-palette lab30-gltf
LIB_SRC   := $(wildcard src/*.c)
LIB_OBJ   := $(LIB_SRC:src/%.c=$(BUILD)/obj/src/%.o)
LIB       := $(BUILD)/libskinlab.a
LAB_BINS  := $(LABS:%=$(BUILD)/bin/%)
TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BINS := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_UTIL := $(BUILD)/obj/tests/testutil.o
BENCH     := $(BUILD)/bin/bench-skinning

# Package flags come from pkg-config, written once by scripts/ensure-deps.sh, which also
# installs the Debian packages when they are missing (as root) or prints the apt-get line.
CONFIG := $(BUILD)/config.mk
ifeq ($(filter clean help,$(MAKECMDGOALS)),)
include $(CONFIG)
endif

ALL_CFLAGS = $(WARN) $(CFLAGS) $(SAN) -pthread -MMD -MP -Isrc $(DEPS_CFLAGS)
ALL_LDFLAGS = $(SAN) -pthread $(LDFLAGS)

.PHONY: all labs test bench clean help $(LABS)
.SECONDARY:
all: $(LAB_BINS) $(TEST_BINS) $(BENCH)

help:
	@sed -n '2,12p' Makefile | sed 's/^# \{0,1\}//'

$(CONFIG): scripts/ensure-deps.sh
	sh scripts/ensure-deps.sh $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(BUILD)/bin/%: $(BUILD)/obj/lab/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) -o $@

$(BENCH): $(BUILD)/obj/bench/bench-skinning.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) -o $@

# The end-to-end suites find the chapter programs and the committed out/ through these.
$(BUILD)/obj/tests/%.o: ALL_CFLAGS += -DLAB_BIN_DIR='"$(BUILD)/bin"' -DCOMMITTED_OUT_DIR='"out"'

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_UTIL) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $^ $(DEPS_LIBS) $(TEST_LIBS) -o $@

$(LABS): %: $(BUILD)/bin/%
	$(BUILD)/bin/$@ out

labs: $(LABS)

test: $(TEST_BINS) $(LAB_BINS) $(BENCH)
	sh tests/run-all.sh $(TEST_BINS)

# Timings of this machine: out/bench/skinning.csv and .png (minutes; never part of make test).
bench: $(BENCH)
	@mkdir -p out/bench
	$(BENCH) out/bench

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(LAB_BINS:$(BUILD)/bin/%=$(BUILD)/obj/lab/%.d) $(BUILD)/obj/bench/bench-skinning.d \
         $(TEST_BINS:$(BUILD)/tests/%=$(BUILD)/obj/tests/%.d) $(TEST_UTIL:.o=.d)
