# kstats-bench. `make` builds ./bench; `make check` runs every test;
# `make perf` runs the benchmarks; `make install PREFIX=... DESTDIR=...`.

CC      ?= cc
CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
PKGS    := numa liburcu-memb liburcu-cds

WARN    := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes
ifeq ($(CI),true)
WARN    += -Werror
endif

# Recursive (=) so that pkg-config runs after `make deps` has installed it.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lnuma -lurcu-memb -lurcu-cds)
ALL_CFLAGS = $(CFLAGS) $(WARN) -std=gnu11 -pthread -MMD -MP -I. $(PKG_CFLAGS)
LDLIBS     = $(PKG_LIBS) -pthread -lm

BENCH_SRCS := bench.c $(wildcard builtin-*.c)
LIB_SRCS   := kstats_hist.c $(wildcard lib/*.c) $(wildcard workloads/*.c)
UNITS      := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))
SAN        := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
TSAN       := -O1 -fsanitize=thread

# Debian packages the build and the tests need (see `make deps`).
DEB_PKGS := build-essential pkg-config libnuma-dev liburcu-dev libcmocka-dev \
	    bats gnuplot-nox shellcheck python3 valgrind clang libclang-rt-14-dev

.PHONY: all check test perf fuzz vmcheck deps install uninstall clean
all: bench

# ---- objects: one tree per flavour, each object with its own .d ----
# build/obj plain, build/san ASan+UBSan, build/tsan ThreadSanitizer
objs = $(patsubst %.c,build/$(1)/%.o,$(2))

build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SAN) -c -o $@ $<

build/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TSAN) -c -o $@ $<

bench: $(call objs,obj,$(BENCH_SRCS) $(LIB_SRCS))
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# ---- tests: unit tests plain and under ASan+UBSan, then bats ----
build/tests/%: build/obj/tests/unit/%.o $(call objs,obj,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

build/tests-san/%: build/san/tests/unit/%.o $(call objs,san,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN) -o $@ $^ $(LDLIBS) -lcmocka

# the whole bench under ThreadSanitizer, and under ASan+UBSan
build/bench-tsan: $(call objs,tsan,$(BENCH_SRCS) $(LIB_SRCS))
	$(CC) $(CFLAGS) $(TSAN) -o $@ $^ $(LDLIBS)

build/bench-asan: $(call objs,san,$(BENCH_SRCS) $(LIB_SRCS))
	$(CC) $(CFLAGS) $(SAN) -o $@ $^ $(LDLIBS)

# libFuzzer targets (clang): the sample parser and the CSV reader
FUZZ_CC    ?= clang
FUZZ_SRCS  := kstats_hist.c lib/samples.c lib/csv.c lib/compare.c
FUZZ_FLAGS := -g -O1 -std=gnu11 -I. -MMD -MP -fsanitize=fuzzer,address,undefined

build/fuzzobj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -c -o $@ $<

build/fuzz/%: build/fuzzobj/tests/fuzz/%.o $(call objs,fuzzobj,$(FUZZ_SRCS))
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ -lm

TOOLS := build/bench-tsan build/bench-asan build/fuzz/fuzz_samples build/fuzz/fuzz_csv

check: deps
	@$(MAKE) --no-print-directory test

test: bench $(UNITS:%=build/tests/%) $(UNITS:%=build/tests-san/%) $(TOOLS)
	@tests/run-all.sh $(UNITS:%=build/tests/%) $(UNITS:%=build/tests-san/%) \
		tests/tools.sh -- tests/cli/*.bats

# many-core, multi-node checks in a real kernel under qemu TCG (2-8 min),
# with the module kmod/kstats_bench.ko built for the kernel the VM boots
VM_PKGS := qemu-system-x86 linux-image-amd64 busybox-static
vmcheck: bench
	@tests/deps.sh $(VM_PKGS)
	@kver=$$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -1 | sed 's|.*/vmlinuz-||') && \
		tests/deps.sh linux-headers-$$kver && $(MAKE) -s -C kmod KVER=$$kver
	@tests/vm/vmcheck.sh

# longer fuzzing, not part of check: FUZZ_SECONDS per target
fuzz: $(TOOLS) bench
	FUZZ_SECONDS=$${FUZZ_SECONDS:-300} tests/tools.sh

# ---- benchmarks, not tests: figures to read, never asserted ----
build/perf: build/obj/tests/perf/perf.o $(call objs,obj,$(LIB_SRCS))
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

perf: build/perf
	build/perf

deps:
	@tests/deps.sh $(DEB_PKGS)

install: bench
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 bench $(DESTDIR)$(BINDIR)/kstats-bench

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/kstats-bench

clean:
	rm -rf build bench
	$(MAKE) -s -C kmod clean

.SECONDARY:
-include $(shell find build -name '*.d' 2>/dev/null)
