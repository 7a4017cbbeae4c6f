#!/usr/bin/env bash
# plugincheck.sh - the project's QEMU plugin (bench vm --plugin,
# docs/plugin.md) on real kernels, on the counted clock, two sweeps side
# by side (one a core: tests/lib.sh together), after make kernelcheck,
# whose images and module it boots:
#
#   patch  kernelcheck's stock and patched 6.12 swept over
#          PLUGINCHECK_COUNTS (64,128,255) possible CPUs,
#          PLUGINCHECK_BOOTS (2) boots each, bench kernel -w
#          kernel-irq-alloc -n PLUGINCHECK_SAMPLES (64) in every boot, with
#          the cache model as the patch measured: cold (cold=window, both
#          levels emptied as each window opens), a Xeon Platinum 8490H's
#          48 KiB 12-way L1d and 112.5 MiB 15-way LLC
#   audit  Debian's 6.12 (as make auditcheck and scalecheck have it, under
#          KSB_SCALECHECK_DIR) swept over PLUGINCHECK_AUDIT_COUNTS
#          (16,128,255), PLUGINCHECK_BOOTS boots each, the whole battery
#          (bench audit -n PLUGINCHECK_AUDIT_SAMPLES, 32) in every boot,
#          instructions only (--plugin insns)
#
# Each kernel's functions come from its kallsyms, read in one nokaslr
# boot (--plugin-syms auto) and kept. Checks, from bench scale -f csv
# (Theil-Sen over the boots' min, 95%):
#
#   - stock's alloc misses grow with possible CPUs: its L1d slope's
#     interval lies above 1.5 misses a CPU (pcpu_alloc()'s zeroing of each
#     CPU's counter, and the loop over it again)
#   - patched's do not grow the same way: patched - stock in the L1d is
#     about one miss a CPU fewer, the interval of the difference inside
#     [-1.5, -0.75] (the loop's line per CPU; phase 1: -1.12 [-1.18, -1.06])
#   - that line hits the LLC: the LLC difference's interval inside
#     [-0.5, +0.5] (pcpu_alloc() zeroed it just before)
#   - free's L1d slope is flat in both (its interval inside [-0.1, +0.1])
#   - on Debian's 6.12, every entry that grows is carried by the fewest
#     functions holding half of its growth by the plugin's instructions
#     (bench scale --audit, attributed_by plugin, their shares summing to
#     0.5 or more), and proc-stat and netns are among them
#
# and prints the slopes of misses and instructions of both kernels, and
# each growing entry's functions. Ends with PLUGINCHECK passed|FAILED: ...;
# exit 0, 1 failed, 3 when a kernel, the plugin or its build is missing.
# PLUGINCHECK_REFIT=1 checks the last sweeps' files in KSB_PLUGINCHECK_DIR
# (build/plugincheck) again and boots nothing.
# shellcheck disable=SC2317 # the sweeps and checks are called through together and check
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kc=${KSB_KERNELCHECK_DIR:-$top/build/kernelcheck}
sc=${KSB_SCALECHECK_DIR:-$top/build/scalecheck}
pc=${KSB_PLUGINCHECK_DIR:-$top/build/plugincheck}
counts=${PLUGINCHECK_COUNTS:-64,128,255}
boots=${PLUGINCHECK_BOOTS:-2}
samples=${PLUGINCHECK_SAMPLES:-64}
audit_counts=${PLUGINCHECK_AUDIT_COUNTS:-16,128,255}
audit_samples=${PLUGINCHECK_AUDIT_SAMPLES:-32}
pkg_612=${PLUGINCHECK_612_PKG:-linux-image-6.12.117+deb12-amd64-unsigned}
# PLUGINCHECK_REFIT=1: check the last sweeps' files again, boot nothing
refit=${PLUGINCHECK_REFIT:-}
bench=$top/bench

lib_prog=plugincheck
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# within LO HI VALUE: LO <= VALUE <= HI
within() {
	awk -v lo="$1" -v hi="$2" -v v="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo && v + 0 <= hi) }'
}

# field CSV GROUP VARIANT COLUMN: COLUMN (slope, slope_lo, slope_hi) of
# bench scale -f csv's fit of GROUP, or of the difference B - A with
# GROUP "B-A"
field() {
	if [ "$2" = B-A ]; then
		csv_col "$1" "$4" kind=diff variant="$3"
	else
		csv_col "$1" "$4" kind=fit group="$2" variant="$3"
	fi
}

# words CSV GROUP VARIANT: "+2.23 [+2.20, +2.28]"
words() {
	local b l h
	b=$(field "$@" slope) l=$(field "$@" slope_lo) h=$(field "$@" slope_hi)
	[ -n "$b" ] || { echo none; return; }
	awk -v b="$b" -v l="$l" -v h="$h" 'BEGIN { printf "%+.2f [%+.2f, %+.2f]", b, l, h }'
}

# inside CSV GROUP VARIANT LO HI: the interval inside [LO, HI]
inside() {
	within "$4" "$5" "$(field "$1" "$2" "$3" slope_lo)" &&
		within "$4" "$5" "$(field "$1" "$2" "$3" slope_hi)"
}

# ---- the patch, in misses ----

patch_sweep() {
	local t0=$SECONDS
	bench_vm patch -B "$boots" -p "$counts" --plugin cache --module "$kc/kmod/kstats_bench.ko" \
		stock="$kc/img/stock/bzImage" patched="$kc/img/patched/bzImage" \
		-- kernel --module /kmod/kstats_bench.ko -w kernel-irq-alloc -n "$samples" || return
	echo "patch: stock, patched x $counts x $boots boots in $((SECONDS - t0)) s" >>"$pc/times"
}

# bench_vm NAME ARGS: bench vm into $pc/NAME, its report in $pc/NAME.txt;
# its exit code, said (no die: the other sweep beside it runs on)
bench_vm() {
	local name=$1 rc=0
	shift
	say "$name: bench vm $*"
	"$bench" vm -q -o "$pc/$name" "$@" >"$pc/$name.txt" 2>"$pc/$name.err" || rc=$?
	[ "$rc" = 0 ] || say "$name: bench vm exited $rc: $(tail -2 "$pc/$name.err") (consoles in $pc/$name)"
	return "$rc"
}

# the checks on stock -- patched, misses and instructions
patch_checks() {
	local m=$pc/scale-misses.csv i=$pc/scale-insns.csv s
	"$bench" scale -f csv -o "$m" "$pc"/patch/stock-p*-misses.csv -- "$pc"/patch/patched-p*-misses.csv ||
		[ $? = 1 ] || die "bench scale of the misses failed"
	"$bench" scale -f csv -o "$i" "$pc"/patch/stock-p*-insns.csv -- "$pc"/patch/patched-p*-insns.csv ||
		[ $? = 1 ] || die "bench scale of the instructions failed"
	echo "== slopes per possible CPU (Theil-Sen over $counts, min per boot, 95%)"
	for s in stock patched; do
		echo "  $s: alloc insns $(words "$i" "$s" alloc), L1d misses $(words "$m" "$s" alloc.l1d), LLC misses $(words "$m" "$s" alloc.llc); free L1d $(words "$m" "$s" free.l1d)"
	done
	echo "  patched - stock: alloc insns $(words "$i" B-A alloc), L1d $(words "$m" B-A alloc.l1d), LLC $(words "$m" B-A alloc.llc)"
	check "stock's alloc misses grow: L1d $(words "$m" stock alloc.l1d) misses/CPU, above 1.5" \
		inside "$m" stock alloc.l1d 1.5 1e9
	check "patched's do not grow the same way: L1d patched - stock $(words "$m" B-A alloc.l1d) misses/CPU, inside [-1.5, -0.75]" \
		inside "$m" B-A alloc.l1d -1.5 -0.75
	check "the loop's lines hit the LLC: LLC patched - stock $(words "$m" B-A alloc.llc), inside [-0.5, +0.5]" \
		inside "$m" B-A alloc.llc -0.5 0.5
	for s in stock patched; do
		check "$s's free is flat in misses: L1d $(words "$m" "$s" free.l1d), inside [-0.1, +0.1]" \
			inside "$m" "$s" free.l1d -0.1 0.1
	done
	summary+=("the patch per possible CPU: $(words "$i" B-A alloc) insns, $(words "$m" B-A alloc.l1d) L1d misses")
}

# ---- Debian's 6.12, by function ----

audit_sweep() {
	local t0=$SECONDS
	bench_vm audit -B "$boots" -p "$audit_counts" --plugin insns d612="$img612" \
		-- audit -n "$audit_samples" || return
	echo "audit: d612 x $audit_counts x $boots boots in $((SECONDS - t0)) s" >>"$pc/times"
}

# among LIST WORD...: every WORD is a word of LIST
among() {
	local w
	for w in "${@:2}"; do
		[[ " $1 " == *" $w "* ]] || return 1
	done
}

# every growing entry carried by functions holding half its growth
audit_checks() {
	local a=$pc/scale-audit.csv rows row wl fn by half bad=() grows=0 names="" files f
	# the audit's own files (d612-pN.csv) and the plugin's functions beside them
	files=()
	for f in "$pc"/audit/d612-p*.csv; do
		[[ ! $f =~ /d612-p[0-9]+(-funcs)?\.csv$ ]] || files+=("$f")
	done
	"$bench" scale --audit -f csv -o "$a" "${files[@]}" || [ $? = 1 ] ||
		die "bench scale --audit failed"
	"$bench" scale --audit -o "$pc/scale-audit.txt" "${files[@]}" || true
	echo "== Debian 6.12's audit, each growing entry's functions by the plugin's instructions"
	rows=$(csv_rows "$a" workload kind=fit verdict=grows)
	for wl in $rows; do
		row=$(csv_col "$a" slope kind=fit workload="$wl")
		by=$(csv_col "$a" attributed_by kind=fit workload="$wl")
		fn=$(csv_col "$a" functions kind=fit workload="$wl")
		grows=$((grows + 1))
		names+=" $wl"
		half=$(tr ';' '\n' <<<"$fn" | awk -F: '{ s += $2 } END { print s + 0 }')
		printf '  %-20s %+9.1f insn/CPU  %s\n' "$wl" "$row" \
			"$(tr ';' '\n' <<<"$fn" | awk -F: '{ printf "%s%s %.0f%%", (NR > 1 ? ", " : ""), $1, 100 * $2 }')"
		if [ "$by" != plugin ] || ! within 0.5 1e9 "$half"; then
			bad+=("$wl")
		fi
	done
	check "d612: all $grows growing entries carried by functions holding half their growth${bad[*]:+ but ${bad[*]}}" \
		test "${#bad[@]}" = 0 -a "$grows" -gt 0
	check "d612: proc-stat and netns among them" among "$names" proc-stat netns
}

main() {
	local f
	if [ ! -x "$bench" ] || [ ! -x "$top/bench-static" ]; then
		die "build bench and bench-static first (make all static)"
	fi
	for f in img/stock/bzImage img/patched/bzImage kmod/kstats_bench.ko; do
		[ -f "$kc/$f" ] || die "no $kc/$f: make kernelcheck first (KSB_KERNELCHECK_DIR)"
	done
	if [ -z "$refit" ]; then
		img612=$(image_612 "$sc/6.12" "$pkg_612")
		rm -rf "$pc"
		mkdir -p "$pc"
		together patch_sweep -- audit_sweep || die "a sweep failed (see $pc/*.err)"
	fi
	patch_checks
	audit_checks
	cat "$pc/times"
	conclude
}

main "$@"
