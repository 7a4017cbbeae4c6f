# kstats-bench. `make` builds ./bench; `make check` runs every test;
# `make perf` runs the quick benchmarks (perf-trend, gate, trend-history and
# kernel-plant are the long ones); `make gate` measures the CI gate;
# `make install PREFIX=... DESTDIR=...`.

CC      ?= cc
CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/kstats-bench
MAN1DIR ?= $(PREFIX)/share/man/man1
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PKGS    := numa liburcu-memb liburcu-cds libbpf libmd json-c
CLANG   ?= clang
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)

WARN    := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes
ifeq ($(CI),true)
WARN    += -Werror
endif

# Recursive (=) so that pkg-config runs after `make deps` has installed it.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lnuma -lurcu-memb -lurcu-cds -lbpf -lmd -ljson-c)
ALL_CFLAGS = $(CFLAGS) $(WARN) -std=gnu11 -pthread -MMD -MP -I. -Ibuild/bpf $(PKG_CFLAGS)
LDLIBS     = $(PKG_LIBS) -pthread -lm

# bench vm --plugin-opt takes the plugin's model settings by its own parser
BENCH_SRCS := bench.c bench-util.c $(wildcard builtin-*.c) plugin/csim.c plugin/pconf.c
# lib/ in folders by job, each built by wildcard, each including only
# from itself and the folders before it in LIB_LAYERS (tests/cli/source.bats
# checks each folder's includes):
#   lib/subcmd   what a command is made of: options, input files (bounded
#                lines, numbers, a directory's files), output files written
#                whole, the writers' table, text and JSON, the process runner
#   lib/results  the results model: labelled exact histograms, metadata,
#                CSV, the loader's rules, contention, counted files
#   lib/host     this host: its testbed keys and CPU model
#   lib/stats    the statistics: the gate, slopes, change points, the audit
#                and the histories they read
#   lib/report   the writers: every report of every command
#   lib/measure  the engine, per-CPU memory, topology, TSC, reference loop,
#                workload interface, bench run --runs
#   lib/kernel   kernels: the VM, its initramfs and plan, images, the
#                module's client, BPF tracing
# The first five are the reporting side: plain C for any host (bench
# compare, the fuzzers); `make reporting` builds them without libnuma,
# liburcu or x86 assembly.
LIB_LAYERS   := subcmd results host stats report measure kernel
REPORT_SRCS  := kstats_hist.c $(foreach d,subcmd results host stats report,$(wildcard lib/$(d)/*.c))
LIB_SRCS   := $(REPORT_SRCS) $(wildcard lib/measure/*.c) $(wildcard lib/kernel/*.c) \
	      $(wildcard workloads/*.c)
MEASURE_SRCS := $(filter-out $(REPORT_SRCS),$(LIB_SRCS))
UNITS      := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))
SAN        := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
TSAN       := -O1 -fsanitize=thread

.PHONY: all check test perf perf-trend perf-trend-control gate trend-history fuzz vmcheck kmod-vm kernelcheck scalecheck auditcheck plugincheck busycheck busy-study counted-study bisectcheck kernel-plant kernel-plant-percpu kernel-history deps test-deps plugin plugin-deps static install uninstall clean reporting report-srcs lib-layers FORCE
all: bench

# ---- the build's version: `git describe` of the tree bench is built from ----
# build/version.h is rewritten only when the description changes, so that
# only bench.c is compiled again; outside a git checkout it is "unknown".
KSB_GIT := $(or $(if $(wildcard .git),$(shell git describe --always --dirty --tags 2>/dev/null)),unknown)

build/version.h: FORCE
	@mkdir -p build
	@echo '#define BENCH_GIT "$(KSB_GIT)"' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

build/obj/bench.o build/san/bench.o build/tsan/bench.o: build/version.h

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

# ---- the BPF program of bench trace, and its skeleton ----
# clang -target bpf has no <asm/types.h> of its own: the host's, from its
# multiarch directory where there is one (Debian). The object keeps its
# BTF (libbpf needs it) and loses its DWARF (bpftool gen object), then
# `bpftool gen skeleton` embeds it in a header: bench carries it inside.
MULTIARCH  := $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_CFLAGS := -g -O2 -target bpf -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	      $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH)) -Ibpf
BPF_SKEL   := build/bpf/ksb_trace.skel.h

build/bpf/ksb_trace.bpf.o: bpf/ksb_trace.bpf.c
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) $(if $(filter true,$(CI)),-Werror) -MMD -MP -MF $(@:.o=.d) -MT $@ \
		-c -o $@.tmp.o $<
	$(BPFTOOL) gen object $@ $@.tmp.o
	@rm -f $@.tmp.o

$(BPF_SKEL): build/bpf/ksb_trace.bpf.o
	$(BPFTOOL) gen skeleton $< name ksb_trace_bpf >$@.tmp
	@mv $@.tmp $@

# the loader includes the skeleton (a first build has no .d to say so)
$(foreach f,obj san tsan,build/$(f)/lib/kernel/trace.o): $(BPF_SKEL)

bench: $(call objs,obj,$(BENCH_SRCS) $(LIB_SRCS))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ---- one static binary, for hosts without a compiler or the -dev packages ----
# glibc, libnuma, liburcu and libbpf (with the libelf and zlib it needs)
# from the .a files that libc6-dev, libnuma-dev, liburcu-dev, libbpf-dev,
# libelf-dev and zlib1g-dev ship; the BPF object is inside, in the
# skeleton. ld warns that getaddrinfo needs glibc's shared NSS
# libraries at run time: libnuma.a's affinity.o calls it, for the "ip:HOST"
# device names of numa_parse_nodestring(), which bench never calls (--cpus
# goes to numa_parse_cpustring_all(), which resolves no names); nothing in
# bench looks up hosts, users or groups, so that path is never taken.
STATIC_LIBS = $(shell pkg-config --static --libs $(PKGS) 2>/dev/null || echo -lnuma -lurcu-memb -lurcu-common -lurcu-cds -lbpf -lelf -lz -lmd -ljson-c) -pthread -lm
static: bench-static
bench-static: $(call objs,obj,$(BENCH_SRCS) $(LIB_SRCS))
	$(CC) $(CFLAGS) -static -o $@ $^ $(STATIC_LIBS)
	@echo "bench-static: the getaddrinfo warning is expected (see the Makefile)"

# ---- the QEMU TCG plugin (plugin/, docs/plugin.md): built against the
# qemu-plugin.h of the qemu that runs it. Debian's qemu-system-x86 ships
# the plugin API and no header: plugin/qemu-header.sh takes it from the
# source package of the installed version (apt-get source, a deb-src
# entry added when root) into build/plugin/include, and refuses (exit 3,
# naming the fix) a qemu without plugins or a version apt cannot fetch. ----
PLUGIN_DIR      := build/plugin
# the cache model, its settings and the symbols: plain C, linked by the
# unit test too; bench vm checks --plugin-opt with the settings' parser
PLUGIN_LIB_SRCS := plugin/csim.c plugin/pconf.c plugin/symtab.c
# the plugin's own objects are position-independent, apart from bench's
PLUGIN_SRCS     := plugin/ksbplugin.c $(PLUGIN_LIB_SRCS)
PLUGIN_CFLAGS    = $(CFLAGS) $(WARN) -std=gnu11 -fPIC -fvisibility=hidden -pthread -MMD -MP \
		   -I. -I$(PLUGIN_DIR)/include

plugin-deps:
	@plugin/qemu-header.sh $(PLUGIN_DIR)

$(PLUGIN_DIR)/include/qemu-plugin.h:
	@plugin/qemu-header.sh $(PLUGIN_DIR)

$(PLUGIN_DIR)/obj/%.o: %.c $(PLUGIN_DIR)/include/qemu-plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -c -o $@ $<

$(PLUGIN_DIR)/ksbplugin.so: $(call objs,plugin/obj,$(PLUGIN_SRCS))
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -pthread -o $@ $^

plugin: plugin-deps
	@$(MAKE) --no-print-directory $(PLUGIN_DIR)/ksbplugin.so

# ---- tests: unit tests plain and under ASan+UBSan, then bats ----
build/tests/%: build/obj/tests/unit/%.o $(call objs,obj,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

build/tests-san/%: build/san/tests/unit/%.o $(call objs,san,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# the plugin's unit test links its cache model and symbols as well
build/tests/test_plugin: $(call objs,obj,$(PLUGIN_LIB_SRCS))
build/tests-san/test_plugin: $(call objs,san,$(PLUGIN_LIB_SRCS))

# the whole bench under ThreadSanitizer, and under ASan+UBSan
build/bench-tsan: $(call objs,tsan,$(BENCH_SRCS) $(LIB_SRCS))
	$(CC) $(CFLAGS) $(TSAN) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/bench-asan: $(call objs,san,$(BENCH_SRCS) $(LIB_SRCS))
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ---- the reporting side alone: no package's flags, libc and libm only,
# and (with Debian's libc6-dev-arm64-cross) compiled for arm64 by clang,
# where no x86 assembly builds ----
REPORT_CFLAGS  = $(CFLAGS) $(WARN) -std=gnu11 -MMD -MP -I.
ARM64_INC     := /usr/aarch64-linux-gnu/include
ARM64_CC       = clang --target=aarch64-linux-gnu -nostdinc \
		 -isystem $(shell clang -print-resource-dir 2>/dev/null)/include -isystem $(ARM64_INC)

build/report/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(REPORT_CFLAGS) -c -o $@ $<

build/report-arm64/%.o: %.c
	@mkdir -p $(dir $@)
	$(ARM64_CC) $(REPORT_CFLAGS) -c -o $@ $<

build/libksb-report.a: $(call objs,report,$(REPORT_SRCS))
	rm -f $@
	$(AR) rcs $@ $^

# every object of the archive linked, against libc and libm alone
build/report/linked: build/libksb-report.a
	printf 'int main(void) { return 0; }\n' | $(CC) -x c -c -o $@.o -
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $@.o -Wl,--whole-archive $< -Wl,--no-whole-archive -lm

reporting: build/report/linked
	@if [ -f $(ARM64_INC)/stdio.h ] && command -v clang >/dev/null; then \
		$(MAKE) --no-print-directory $(call objs,report-arm64,$(REPORT_SRCS)); \
	else \
		echo "reporting: no arm64 libc headers: not compiled for arm64 (apt-get install libc6-dev-arm64-cross)"; \
	fi

report-srcs:
	@echo $(REPORT_SRCS)

lib-layers:
	@echo $(LIB_LAYERS)

# libFuzzer targets (clang): the sample parser and the CSV reader
FUZZ_CC    ?= clang
FUZZ_SRCS  := kstats_hist.c $(filter $(addprefix %/,samples.c csv.c compare.c counted.c results.c meta.c metakeys.c \
	      writer.c readfile.c),$(REPORT_SRCS))
FUZZ_FLAGS := -g -O1 -std=gnu11 -I. -MMD -MP -fsanitize=fuzzer,address,undefined

build/fuzzobj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -c -o $@ $<

build/fuzz/%: build/fuzzobj/tests/fuzz/%.o $(call objs,fuzzobj,$(FUZZ_SRCS))
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(LDFLAGS) -o $@ $^ -lm

TOOLS := build/bench-tsan build/bench-asan build/fuzz/fuzz_samples build/fuzz/fuzz_csv

# Debian's arm64 libc headers, for `make reporting`'s arm64 build
# the build on every CPU (four flavours of every object), then the suites
# side by side (tests/run-all.sh)
check: test-deps
	@if command -v apt-get >/dev/null; then tests/deps.sh libc6-dev-arm64-cross; fi
	@$(MAKE) --no-print-directory -j$$(nproc) test

test: bench bench-static $(UNITS:%=build/tests/%) $(UNITS:%=build/tests-san/%) $(TOOLS) reporting
	@tests/run-all.sh $(UNITS:%=build/tests/%) $(UNITS:%=build/tests-san/%) \
		tests/tools.sh -- tests/cli/*.bats

# many-core, multi-node checks in a real kernel under qemu TCG (3-10 min),
# with the module kmod/kstats_bench.ko built for the kernel the VM boots,
# and bench trace's BPF in it
VM_PKGS := qemu-system-x86 linux-image-amd64 busybox-static
# VMCHECK_PLANS="trace" (or any of numa maxcpus taskset many trace) boots
# only those; sysloop makes the system calls bench trace's checks count
build/vm/sysloop: tests/vm/sysloop.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(LDFLAGS) -static -o $@ $<

# kmod/kstats_bench.ko for the kernel the VMs boot, the newest in /boot
# (linux-image-amd64's), against its linux-headers package: built by the
# one module build, bench kernel --build, into build/kmod-vm, and put where
# the scripts look. kmod/Makefile stays for DKMS and by-hand builds only.
kmod-vm: bench
	@tests/deps.sh linux-image-amd64
	@kver=$$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -1 | sed 's|.*/vmlinuz-||') && \
		tests/deps.sh linux-headers-$$kver && rm -rf build/kmod-vm && \
		./bench kernel -q --build /lib/modules/$$kver/build -o build/kmod-vm && \
		cp build/kmod-vm/kstats_bench.ko kmod/kstats_bench.ko

vmcheck: bench bench-static build/vm/sysloop
	@tests/deps.sh $(VM_PKGS)
	@$(MAKE) -s --no-print-directory kmod-vm
	@tests/vm/vmcheck.sh

# the patch gated on real kernels: Debian's linux-source-6.12 built six
# times (tinyconfig + tests/kernel/kernelcheck.config), each booted twice
# by bench vm on the counted clock (the guests' instructions, exact) at
# 255 and 480 possible CPUs, two boots side by side, compared (a 1% plant
# caught), then stock, patched and a per-CPU plant swept over 64,128,255
# and gated on the slope by bench scale (about 7 min on 2 idle cores; a
# second run rebuilds only what changed)
KC_PKGS := $(VM_PKGS) linux-source-6.12 bison flex libelf-dev bc cpio
kernelcheck: bench bench-static
	@tests/deps.sh $(KC_PKGS)
	@tests/kernel/kernelcheck.sh

# distribution kernels as subjects: Debian 12's 6.1 (linux-image-amd64's,
# in /boot) and 6.12 (apt-get download, unpacked under build/scalecheck,
# never installed), each swept over 3 possible-CPU counts by bench vm on
# the counted clock, the two kernels side by side:
# the /proc/stat read grows, the null syscall is flat, show_stat traced
# grows like the read (bench scale); and in 6.1, __irq_alloc_descs traced
# by fentry grows as the module's own alloc series does
SC_PKGS := $(VM_PKGS)
scalecheck: bench bench-static
	@tests/deps.sh $(SC_PKGS)
	@$(MAKE) -s --no-print-directory kmod-vm
	@tests/kernel/scalecheck.sh

# the audit on real kernels (about 5 minutes on an idle runner; run by
# .ci/run): Debian 12's 6.1 and 6.12, as scalecheck boots them, each
# swept once over 3 possible-CPU counts by bench vm, counted, with the whole
# battery (bench audit) in every boot and /proc/stat's candidates timed
# by fentry in the same boots (AUDITCHECK_ATTRIBUTE=all: every entry's):
# every control flat under Holm's correction, /proc/stat grows and
# show_stat carries it; then
# kernelcheck's 6.12 tree built with a loop over possible CPUs planted
# in /proc/version's read, which bench scale's gate must name (after
# make kernelcheck, whose tree it reuses; tests/kernel/auditcheck.sh).
# AUDITCHECK_KERNELS picks them: .ci/run runs d61 d612 beside the kernel
# builds, and plant after bisectcheck
AC_PKGS := $(VM_PKGS) bison flex libelf-dev bc binutils xz-utils zstd
auditcheck: bench bench-static
	@tests/deps.sh $(AC_PKGS)
	@tests/kernel/auditcheck.sh

# the project's QEMU plugin on real kernels (after make kernelcheck, whose
# images and module it boots; about 4 minutes on 2 idle cores): the
# plugin built (make plugin: qemu-plugin.h from Debian's source of the
# installed qemu), then kernelcheck's stock and patched 6.12 swept over
# 64,128,255 possible CPUs with the cache model, cold as the patch
# measured, beside Debian's 6.12 audited over 16,128,255 with the
# plugin's instructions by function: stock's alloc misses grow, patched's
# a miss a CPU fewer, and every entry of 6.12's audit that grows is
# carried by the functions holding half its growth, netns included
# (tests/kernel/plugincheck.sh)
PC_PKGS := $(VM_PKGS) patch xz-utils
plugincheck: bench bench-static
	@tests/deps.sh $(PC_PKGS)
	@$(MAKE) -s --no-print-directory plugin
	@tests/kernel/plugincheck.sh

# right on a busy runner: Debian's 6.12 swept idle, then beside a busy
# loop pinned to CPU 1 (bounded, killed by its pid), counted, and an A/A
# gate of bench run (timed) in both: /proc/version flat, /proc/stat and
# cpu.stat growing, busy = idle (every figure within 0.5%, the median
# shift within 0.1%), the A/A gate quiet (about 3 min; after scalecheck,
# whose 6.12 image it boots). `make busy-study` is the study of the timed clock's
# statistics: every --stat on the same files (docs/measurements.md)
busycheck: bench bench-static
	@tests/deps.sh $(VM_PKGS)
	@tests/perf/busy-study.sh --check

busy-study: bench bench-static
	@tests/deps.sh $(VM_PKGS)
	tests/perf/busy-study.sh

# timed against counted guest clocks: the study that chose the counted
# files' rules and defaults (docs/measurements.md, "The counted clock");
# after kernelcheck, about 35 minutes on 2 idle cores
counted-study: bench bench-static
	@tests/deps.sh $(VM_PKGS)
	tests/perf/counted-study.sh

# ./run.sh bisect must name the commit that planted a 1% regression, in a
# git history made of kernelcheck's tree, 2 counted boots a step (after
# kernelcheck; about 4 min)
bisectcheck: bench bench-static
	@tests/kernel/bisectcheck.sh

# the smallest planted slowdown the kernel gate catches (after
# kernelcheck): ROUNDS of 6 boots a side per grade, about 4 min a round
kernel-plant: bench bench-static
	tests/perf/kernel-plant.sh $(ROUNDS)

# the smallest cost per possible CPU the slope gate catches (after
# kernelcheck): ROUNDS of 3 boots a count and side, about 3 min a round
kernel-plant-percpu: bench bench-static
	tests/perf/kernel-plant-percpu.sh $(ROUNDS)

# a nightly kernel history with a pinned control (after kernelcheck):
# KNIGHTS nights (10), the plant from KPLANT (6), 6 boots a night
kernel-history: bench bench-static
	tests/perf/kernel-history.sh $(KNIGHTS) $(KPLANT)

# longer fuzzing, not part of check: FUZZ_SECONDS per target
fuzz: $(TOOLS) bench
	FUZZ_SECONDS=$${FUZZ_SECONDS:-300} tests/tools.sh

# ---- benchmarks, not tests: figures to read, never asserted ----
build/perf: build/obj/tests/perf/perf.o $(call objs,obj,$(LIB_SRCS))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the quick ratios only (record, timer; seconds); the long benchmarks have
# their own targets: perf-trend, perf-trend-control, gate and trend-history
# below, kernel-plant and kernel-history above (docs/testing.md, "Benchmarks, not tests")
perf: build/perf
	build/perf

# bench trend's figures (tests/perf/trend.c): false change points, the two
# tests, planted steps, 1000 files of 12 runs; ~1 min on xeon-vm
build/perf-trend: build/obj/tests/perf/trend.o $(call objs,obj,$(LIB_SRCS))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

perf-trend: bench build/perf-trend
	build/perf-trend $(FILES)

# bench trend --control on synthetic nights (tests/perf/trend-control.c):
# false change points per 100 nights with and without the control
build/perf-trend-control: build/obj/tests/perf/trend-control.o $(call objs,obj,$(LIB_SRCS))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

perf-trend-control: build/perf-trend-control
	build/perf-trend-control $(NIGHTS)

# the gate's figures (docs/measurements.md, "What the regression gate
# promises"): ~7 min for 20 rounds
gate: bench
	tests/perf/gate.sh $(ROUNDS)

# bench trend on real runs (docs/measurements.md): three histories of 40
# nightly invocations, a step at night 25 and two A/A, each judged alone
# and against the first A/A as its control; 30-45 min
trend-history: bench
	tests/perf/trend-history.sh $(NIGHTS)

# What building and running need (./run.sh), then what the tests add;
# tests/deps.sh names the packages per distribution (-l lists them).
deps:
	@tests/deps.sh run

test-deps: deps
	@tests/deps.sh test

# ---- install: the binary, the one-command script, its plots, man pages,
# bash completion. run.sh finds kstats-bench and $(DATADIR)/plots from
# where it is installed; uninstall removes exactly these files and the
# kstats-bench directories, never the shared ones (bin, man1, ...).
PLOTS         := $(notdir $(wildcard plots/*.gp))
# the summary page kstats-bench.1 and one page per command
MANPAGES      := $(notdir $(wildcard docs/kstats-bench*.1))
# the module's sources: an installed `kstats-bench kernel` builds it there
KMOD_SRCS     := Kbuild Makefile dkms.conf $(notdir $(wildcard kmod/ksb*.c kmod/ksb*.h))
INSTALL_FILES := $(BINDIR)/kstats-bench $(BINDIR)/kstats-bench-static $(BINDIR)/kstats-bench-run \
		 $(addprefix $(DATADIR)/plots/,$(PLOTS)) \
		 $(addprefix $(DATADIR)/kmod/,$(KMOD_SRCS)) \
		 $(addprefix $(MAN1DIR)/,$(MANPAGES)) $(BASHCOMPDIR)/kstats-bench

# kstats-bench-static: what `kstats-bench vm` puts in its guests
install: bench bench-static
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/plots $(DESTDIR)$(DATADIR)/kmod \
		$(DESTDIR)$(MAN1DIR) $(DESTDIR)$(BASHCOMPDIR)
	install -m 0755 bench $(DESTDIR)$(BINDIR)/kstats-bench
	install -m 0755 bench-static $(DESTDIR)$(BINDIR)/kstats-bench-static
	install -m 0755 run.sh $(DESTDIR)$(BINDIR)/kstats-bench-run
	install -m 0644 $(addprefix plots/,$(PLOTS)) $(DESTDIR)$(DATADIR)/plots/
	install -m 0644 $(addprefix kmod/,$(KMOD_SRCS)) $(DESTDIR)$(DATADIR)/kmod/
	for m in $(MANPAGES); do \
		sed 's|/usr/local/|$(PREFIX)/|g; s|PREFIX=/usr/local|PREFIX=$(PREFIX)|' \
			docs/$$m >$(DESTDIR)$(MAN1DIR)/$$m && chmod 0644 $(DESTDIR)$(MAN1DIR)/$$m || exit 1; \
	done
	install -m 0644 docs/kstats-bench.bash-completion $(DESTDIR)$(BASHCOMPDIR)/kstats-bench

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALL_FILES))
	rmdir $(DESTDIR)$(DATADIR)/plots $(DESTDIR)$(DATADIR)/kmod $(DESTDIR)$(DATADIR) 2>/dev/null || true

clean:
	rm -rf build bench bench-static
	$(MAKE) -s -C kmod clean

.SECONDARY:
# every object's .d; not the kernel tree make kernelcheck unpacks under
# build/ (it has directories named *.d, and 70000 files to walk)
-include $(shell find build -path build/kernelcheck -prune -o -type f -name '*.d' -print 2>/dev/null)
