#!/usr/bin/env bash
# kernelcheck.sh - the patch gated on real kernels, on a 2-core runner,
# in instructions. Builds Debian's linux-source-6.12 (tinyconfig +
# kernelcheck.config) as six kernels and boots them under qemu TCG with
# `bench vm` on the counted clock (qemu -icount: a figure is the guest's
# instructions, exact, whatever else the runner does), KERNELCHECK_BOOTS
# (2) boots each, interleaved, two shards side by side (one a core:
# tests/lib.sh vm_sharded), and gates them with `bench compare`:
#
#   255 possible CPUs, no kernel change:  stock, patched, planted
#   480 possible CPUs, test-only-possible-cpus.patch on both alike:
#                                          stock-480, patched-480
#
# patched = genirq-move-clear-of-kstat_irqs-to-free_desc.patch (the merged
# form); planted = test-only-plant-irq-alloc-delay.patch on stock, booted
# with irq_plant_ns=KERNELCHECK_PLANT_NS (383): a wait of that many
# virtual ns in every allocation, about 1% of stock's alloc, whatever the
# possible CPUs. Checks: stock -> patched, alloc an improvement and no
# regression, at 255 and 480; stock -> planted, alloc a regression, at 2
# boots a side; plain 6.12 asked for 480 possible CPUs is refused by
# bench vm (exit 3, naming the limit). Every guest also runs `bench run`
# at the same possible CPUs: the real kernels' tables beside the
# emulation's.
#
# Then the slopes, in instructions per possible CPU: stock, patched and
# percpu (test-only-plant-percpu-delay.patch on stock: irq_plant_percpu_ns,
# 1000 ns per possible CPU in every allocation) swept over
# KERNELCHECK_SWEEP (64,128,255) possible CPUs, KERNELCHECK_SWEEP_BOOTS
# (2) boots per kernel and count, gated by `bench scale`: stock --
# patched no slope regression (exit 0), stock -- percpu alloc's slope a
# regression (exit 1); alloc's and free's slope of each kernel printed,
# and stock's alloc less patched's: the patch, per possible CPU. A fixed
# cost passes this gate and a cost per possible CPU passes bench compare
# at a small count: each gate catches what the other cannot.
#
# Ends with one line, KERNELCHECK passed|FAILED: ...; exit 0 passed,
# 1 failed, 3 when a kernel cannot be built or booted.
#
# KSB_KERNELCHECK_DIR (default build/kernelcheck) holds the tree, the
# images and the results; a second run rebuilds only what changed.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/kernel
kc=${KSB_KERNELCHECK_DIR:-$top/build/kernelcheck}
boots=${KERNELCHECK_BOOTS:-2}
sweep_counts=${KERNELCHECK_SWEEP:-64,128,255}
sweep_boots=${KERNELCHECK_SWEEP_BOOTS:-2}
plant_ns=${KERNELCHECK_PLANT_NS:-383}
# shards booted side by side: one a core
jobs=${KERNELCHECK_JOBS:-$(nproc)}
# where bench vm's initramfs puts the module it built (lib/kernel/vm.c),
# named to the guest's bench kernel: since the one module search
# (lib/kernel/kmod.c, kmod_src_dir()) it finds only a kmod/ holding the
# sources, and the initramfs holds the .ko alone
guest_ko=/kmod/kstats_bench.ko
tarball=${KERNELCHECK_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
src=$kc/linux-source-6.12
bench=$top/bench

lib_prog=kernelcheck
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# ---- the tree ----

# the files the patches touch, from their "+++ b/PATH" lines
touched() { sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$here"/patches/*.patch | sort -u; }

unpack() {
	[ -f "$src/.kernelcheck-unpacked" ] && return
	[ -f "$tarball" ] || die "no $tarball (apt-get install linux-source-6.12)"
	say "unpacking $tarball"
	rm -rf "$src" "$kc/pristine"
	mkdir -p "$kc"
	tar -C "$kc" -xf "$tarball"
	local f
	for f in $(touched); do
		mkdir -p "$kc/pristine/$(dirname "$f")"
		cp -p "$src/$f" "$kc/pristine/$f"
	done
	touch "$src/.kernelcheck-unpacked"
}

# tinyconfig + the fragment; every line of the fragment must hold after
# olddefconfig, or a dependency dropped it and the kernel is not the one
# described
configure() {
	local frag=$here/kernelcheck.config line missing=()
	if [ ! -f "$src/.config" ] || [ "$frag" -nt "$src/.config" ]; then
		say "configuring: tinyconfig + $(basename "$frag")"
		make -s -C "$src" tinyconfig >/dev/null
		(cd "$src" && scripts/kconfig/merge_config.sh -m .config "$frag" >/dev/null)
		make -s -C "$src" olddefconfig >/dev/null
	fi
	while IFS= read -r line; do
		case $line in
		CONFIG_*=* | "# CONFIG_"*" is not set")
			grep -qxF "$line" "$src/.config" || missing+=("$line") ;;
		esac
	done <"$frag"
	[ ${#missing[@]} = 0 ] || die "the config lost: ${missing[*]}"
}

# variant NAME PATCH...: the tree as stock plus PATCHes (files rewritten
# only where they change, so that make recompiles only those), built,
# its bzImage kept as $kc/img/NAME/bzImage
variant() {
	local name=$1 f p t0=$SECONDS
	shift
	rm -rf "$kc/stage"
	mkdir -p "$kc/stage"
	for f in $(touched); do
		mkdir -p "$kc/stage/$(dirname "$f")"
		cp "$kc/pristine/$f" "$kc/stage/$f"
	done
	for p in "$@"; do
		patch -s -p1 -d "$kc/stage" <"$here/patches/$p" || die "$p does not apply to $(basename "$src")"
	done
	for f in $(touched); do
		cmp -s "$kc/stage/$f" "$src/$f" || cp "$kc/stage/$f" "$src/$f"
	done
	say "building $name${*:+ (}$*${*:+)}"
	make -s -C "$src" -j"$(nproc)" bzImage modules >"$kc/build-$name.log" 2>&1 ||
		die "building $name failed: $(tail -5 "$kc/build-$name.log")"
	mkdir -p "$kc/img/$name"
	cp "$src/arch/x86/boot/bzImage" "$kc/img/$name/bzImage"
	builds+=("$name $((SECONDS - t0)) s")
}

# ---- the gate ----

# verdict FILE WORKLOAD VARIANT: the verdict column of compare -f csv
# (nothing when compare wrote no FILE)
verdict() { [ ! -e "$1" ] || csv_col "$1" verdict workload="$2" variant="$3"; }
# change FILE WORKLOAD VARIANT: "+12.3% [+10.1%, +14.0%]"
change() {
	[ -e "$1" ] || return 0
	csv_rows "$1" change_pct ci_lo_pct ci_hi_pct workload="$2" variant="$3" |
		awk -F, '{ printf "%+.2f%% [%+.2f%%, %+.2f%%]", $1, $2, $3 }'
}

# gate LABEL BEFORE AFTER: compare, the lines on stdout, -f csv kept
gate() {
	local label=$1 before=$2 after=$3 rc=0
	echo "== $label: bench compare $(basename "$before") -- $(basename "$after")"
	"$bench" compare --also csv="$kc/out/$label.csv" "$before" -- "$after" >"$kc/out/$label.txt" || rc=$?
	sed -n '/ tm10 /p;/^COMPARE /p' "$kc/out/$label.txt"
	[ "$rc" -le 1 ] || fail "$label: bench compare exited $rc"
}

# expect LABEL VARIANT VERDICT...: the verdict is one of VERDICT
expect() {
	local label=$1 var=$2 got
	shift 2
	got=$(verdict "$kc/out/$label.csv" kernel-irq-alloc "$var")
	local what
	what="$label: $var $(change "$kc/out/$label.csv" kernel-irq-alloc "$var") ${got:-none}"
	for want in "$@"; do
		if [ "$got" = "$want" ]; then
			ok "$what"
			return
		fi
	done
	fail "$what, expected $*"
}

# the in-kernel table of a variant beside the emulation's, same guests
side_by_side() {
	local kcsv=$1 kvar=$2 ecsv=$3 evar=$4 title=$5
	echo "  $title"
	{ echo "in-kernel $kvar ($(basename "$kcsv"))"; "$bench" show -v "$kvar" "$kcsv" | expand; } >"$kc/left"
	{ echo "emulated $evar ($(basename "$ecsv"))"; "$bench" show -v "$evar" "$ecsv" | expand; } >"$kc/right"
	awk 'NR == FNR { l[FNR] = $0; n = FNR; next } { r[FNR] = $0; m = FNR }
		END { for (i = 1; i <= (n > m ? n : m); i++) printf "    %-46s |  %s\n", l[i], r[i] }' \
		"$kc/left" "$kc/right"
}

# the module, built once against the tree (every kernel here is one
# release): each shard's bench vm takes it as it is
module() {
	rm -rf "$kc/kmod"
	"$bench" kernel -q --build "$src" -o "$kc/kmod" >/dev/null || die "building the module failed"
}

# boot POSSIBLE NAME=IMAGE...: bench vm, both commands, into $kc/out/POSSIBLE,
# the planted kernel's wait on every kernel's command line (the others
# have no such parameter)
boot() {
	local possible=$1 t0=$SECONDS
	shift
	say "booting $* at $possible possible CPUs, $boots boots each, counted"
	vm_sharded "$jobs" "$kc/out/$possible" -q -B "$boots" -p "$possible" --module "$kc/kmod/kstats_bench.ko" \
		--append "irq_plant_ns=$plant_ns" "$@" \
		-- kernel --module "$guest_ko" -w kernel-irq-alloc -n 512 -- run -n 512 -p "$possible" ||
		die "bench vm at $possible possible CPUs exited $? (see $kc/out/$possible.s*/*.console)"
	boot_times+=("$possible: $# kernels x $boots boots $((SECONDS - t0)) s")
}

# ---- the slopes ----

# sweep NAME=IMAGE...: bench vm at every count of $sweep_counts, -- kernel
# only, into $kc/out/sweep/NAME-pN.csv, one run per boot
sweep() {
	local t0=$SECONDS
	say "sweeping $* over $sweep_counts possible CPUs, $sweep_boots boots each, counted"
	vm_sharded "$jobs" "$kc/out/sweep" -q -B "$sweep_boots" -p "$sweep_counts" \
		--module "$kc/kmod/kstats_bench.ko" "$@" \
		-- kernel --module "$guest_ko" -w kernel-irq-alloc -n 512 ||
		die "bench vm over $sweep_counts possible CPUs exited $? (see $kc/out/sweep.s*/*.console)"
	boot_times+=("sweep $sweep_counts: $# kernels x $sweep_boots boots $((SECONDS - t0)) s")
}

# the sweep's files of kernel NAME
swept() { ls "$kc/out/sweep/$1"-p*.csv; }

# slope FILE GROUP VARIANT: "12.3 [10.1, 14.0] insn/CPU grows" from scale
# -f csv (nothing when scale wrote no FILE)
slope() {
	[ -e "$1" ] || return 0
	csv_rows "$1" slope slope_lo slope_hi verdict kind=fit group="$2" variant="$3" |
		awk -F, '{ printf "%.2f [%.2f, %.2f] insn/CPU %s", $1, $2, $3, $4 }'
}

# diff FILE VARIANT: "+88.1 [+80.2, +95.0] insn/CPU regression"
sdiff() {
	[ -e "$1" ] || return 0
	csv_rows "$1" slope slope_lo slope_hi verdict kind=diff variant="$2" |
		awk -F, '{ printf "%+.2f [%+.2f, %+.2f] insn/CPU %s", $1, $2, $3, $4 }'
}

# scale_gate LABEL WANT_RC A B: bench scale A's files -- B's, its table on
# stdout, -f csv kept; fails unless it exits WANT_RC
scale_gate() {
	local label=$1 want=$2 a=$3 b=$4 rc=0 what
	echo "== $label: bench scale $a -- $b ($sweep_counts possible CPUs)"
	# shellcheck disable=SC2046 # one word per file
	"$bench" scale -s tm10 --also csv="$kc/out/$label.csv" $(swept "$a") -- $(swept "$b") \
		>"$kc/out/$label.txt" || rc=$?
	sed -n '/^kernel-irq-alloc /p;/^SCALE /p' "$kc/out/$label.txt"
	what="$label: alloc B-A $(sdiff "$kc/out/$label.csv" alloc), bench scale exit $rc"
	if [ "$rc" = "$want" ]; then
		ok "$what"
	else
		fail "$what, expected exit $want"
	fi
}

# the slope of alloc and free in each kernel, then the two gates
slopes() {
	local o=$kc/img k
	sweep stock="$o/stock/bzImage" patched="$o/patched/bzImage" percpu="$o/percpu/bzImage"
	scale_gate scale-patched 0 stock patched
	scale_gate scale-percpu 1 stock percpu
	case $(sdiff "$kc/out/scale-percpu.csv" alloc) in
	*regression) ;;
	*) fail "scale-percpu: alloc's slope is not the regression: $(sdiff "$kc/out/scale-percpu.csv" alloc)" ;;
	esac
	echo "== slopes per possible CPU (Theil-Sen over $sweep_counts, tm10 per boot, 95%, instructions)"
	for k in stock patched; do
		echo "  $k: alloc $(slope "$kc/out/scale-patched.csv" "$k" alloc), free $(slope "$kc/out/scale-patched.csv" "$k" free)"
		summary+=("slope $k alloc $(slope "$kc/out/scale-patched.csv" "$k" alloc)")
	done
	echo "  percpu: alloc $(slope "$kc/out/scale-percpu.csv" percpu alloc), free $(slope "$kc/out/scale-percpu.csv" percpu free)"
	# the patch, per possible CPU: what stock's loop paid and patched's does not
	echo "  the patch (patched - stock): alloc $(sdiff "$kc/out/scale-patched.csv" alloc)"
	summary+=("the patch: alloc $(sdiff "$kc/out/scale-patched.csv" alloc)")
}

# plain 6.12 cannot boot with 480 possible CPUs under qemu: bench vm must say so
refuses_480() {
	local rc=0 err
	err=$("$bench" vm -q -B 1 -p 480 -o "$kc/out/plain" plain="$kc/img/stock/bzImage" \
		-- run -n 16 2>&1 >/dev/null) || rc=$?
	if [ "$rc" = 3 ] && [[ "$err" == *test-only-possible-cpus.patch* ]]; then
		ok "plain 6.12 at 480 possible CPUs: bench vm exit 3: ${err#bench vm: }"
	else
		fail "plain 6.12 at 480 possible CPUs: bench vm exit $rc, not 3 naming the limit: $err"
	fi
}

main() {
	local o
	builds=()
	boot_times=()
	if [ ! -x "$bench" ] || [ ! -x "$top/bench-static" ]; then
		die "build bench and bench-static first (make all static)"
	fi
	unpack
	configure
	variant stock
	variant patched genirq-move-clear-of-kstat_irqs-to-free_desc.patch
	variant percpu test-only-plant-percpu-delay.patch
	rm -rf "$kc/out"
	mkdir -p "$kc/out"
	module
	# KERNELCHECK_ONLY=slopes: the sweep and its gates alone
	if [ "${KERNELCHECK_ONLY:-}" = slopes ]; then
		slopes
		finish
	fi
	variant planted test-only-plant-irq-alloc-delay.patch
	variant patched-480 genirq-move-clear-of-kstat_irqs-to-free_desc.patch test-only-possible-cpus.patch
	variant stock-480 test-only-possible-cpus.patch
	o=$kc/img
	boot 255 stock="$o/stock/bzImage" patched="$o/patched/bzImage" planted="$o/planted/bzImage"
	refuses_480
	boot 480 stock="$o/stock-480/bzImage" patched="$o/patched-480/bzImage"

	for p in 255 480; do
		echo "== $p possible CPUs: the kernels' irq_alloc_descs() beside bench run's emulation, same guests"
		side_by_side "$kc/out/$p/stock-kernel.csv" alloc "$kc/out/$p/stock-run.csv" old "stock"
		side_by_side "$kc/out/$p/patched-kernel.csv" alloc "$kc/out/$p/patched-run.csv" new "patched"
	done
	gate 255-patched "$kc/out/255/stock-kernel.csv" "$kc/out/255/patched-kernel.csv"
	expect 255-patched alloc improvement
	expect 255-patched free "~" "significant below threshold" improvement
	gate 255-planted "$kc/out/255/stock-kernel.csv" "$kc/out/255/planted-kernel.csv"
	expect 255-planted alloc regression
	expect 255-planted free "~" "significant below threshold"
	gate 480-patched "$kc/out/480/stock-kernel.csv" "$kc/out/480/patched-kernel.csv"
	expect 480-patched alloc improvement
	expect 480-patched free "~" "significant below threshold" improvement

	slopes
	finish
}

# the closing lines; exit 0 passed, 1 failed
finish() {
	echo "builds: ${builds[*]}"
	echo "boots: ${boot_times[*]}"
	conclude
}

main "$@"
