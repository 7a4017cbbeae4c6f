#!/usr/bin/env bash
# vmcheck.sh - many-core, multi-node checks in a real kernel: boots
# Debian's kernel under qemu TCG three times with an initramfs holding
# busybox, bench and its libraries, and checks what bench reports.
#
#   1. 16 vCPUs on 4 NUMA nodes: calibrate, run (kernel and remote cache)
#   2. -smp 8,maxcpus=16: 16 possible CPUs, 8 workers
#   3. taskset -c 2,5,11 on the 16-CPU machine: only those get workers;
#      then CPU 5 offline (no worker), CPU 7 offlined mid-run (migrations)
#   4. in-kernel: the module kmod/kstats_bench.ko (built by make vmcheck
#      for the kernel booted here) under `bench kernel`, in boot 1 (16
#      possible CPUs) and in a fourth boot with possible_cpus=$VMCHECK_POSSIBLE
#      (default 480): every sample recorded, old slower than new, old
#      slower with many possible CPUs than with 16, the module's table
#      equal to bench's, unloading mid-run, loading again; and the
#      in-kernel table printed beside bench run's emulated one.
#
# VMCHECK_FAULT=node0 binds every per-CPU unit to node 0 inside the VM,
# VMCHECK_FAULT=nomodules sets kernel.modules_disabled there: the checks
# must then fail. Prints one summary line; exit 1 on any mismatch, 3 when
# the VM cannot be built or booted.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
checks=0

die() {
	echo "vmcheck: $*" >&2
	exit 3
}

# ---- the initramfs ----

initramfs() {
	local root=$work/root lib
	mkdir -p "$root"/{bin,proc,sys,dev,tmp}
	cp /bin/busybox "$root/bin/busybox"
	install -m 0755 "$top/tests/vm/init" "$root/init"
	install -m 0755 "$top/bench" "$root/bench"
	mkdir -p "$root/kmod"
	install -m 0644 "$ko" "$root/kmod/kstats_bench.ko"
	# the shared libraries ldd lists, at the same paths
	for lib in $(ldd "$top/bench" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initramfs.gz"
}

# ---- booting ----

# the kernel the VM boots: the newest in /boot
vm_kernel() {
	local kernel
	kernel=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -1)
	[ -n "$kernel" ] || die "no kernel in /boot (apt-get install linux-image-amd64)"
	echo "$kernel"
}

# boot NAME PLAN SMP [NUMA...]: the serial console goes to $work/NAME.log;
# $append, when set, goes to the kernel's command line
boot() {
	local name=$1 plan=$2 smp=$3 kernel
	shift 3
	kernel=$(vm_kernel)
	timeout "${VMCHECK_TIMEOUT:-600}" qemu-system-x86_64 -machine q35,accel=tcg -cpu max -smp "$smp" -m 2048 \
		"$@" -kernel "$kernel" -initrd "$work/initramfs.gz" \
		-append "console=ttyS0 quiet loglevel=0 panic=-1 ${append:-} ksb.plan=$plan ksb.fault=${VMCHECK_FAULT:-none}" \
		-display none -monitor none -serial "file:$work/$name.log" -no-reboot ||
		die "qemu failed or timed out ($name; log: $(tr -d '\r' <"$work/$name.log" | tail -5))"
	grep -q '^=== DONE' "$work/$name.log" || die "$name: the VM did not finish (log: $(tail -5 "$work/$name.log"))"
}

# the file NAME from LOG (between its === lines, CRs dropped)
extract() {
	# awk reads to the end: an early exit would SIGPIPE tr under pipefail
	tr -d '\r' <"$1" | awk -v f="$2" '$0 == "=== FILE " f { on = 1; next } on && /^=== END / { on = 0 } on'
}

# shellcheck disable=SC2054  # qemu options are comma-separated
NUMA4=(-object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M
       -object memory-backend-ram,id=m2,size=512M -object memory-backend-ram,id=m3,size=512M
       -numa node,nodeid=0,cpus=0-3,memdev=m0 -numa node,nodeid=1,cpus=4-7,memdev=m1
       -numa node,nodeid=2,cpus=8-11,memdev=m2 -numa node,nodeid=3,cpus=12-15,memdev=m3)

# ---- checks ----

check() {
	local what=$1
	shift
	checks=$((checks + 1))
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAIL: $what"
		fails=$((fails + 1))
	fi
}

meta() { sed -n "s/^# $2: //p" "$1"; }

# every CPU in LIST has per-CPU rows of both variants, on node cpu / 4
rows_on_nodes() {
	awk -F, -v list="$2" 'BEGIN { n = split(list, c, " "); for (i = 1; i <= n; i++) want[c[i]] = 1 }
		/^[a-z].*,(old|new),all,[0-9]+,/ { seen[$2 "," $4] = 1; if ($5 != int($4 / 4)) bad = 1; if (!($4 in want)) bad = 1 }
		END { for (x in want) if (!seen["old," x] || !seen["new," x]) bad = 1; exit bad }' "$1"
}

# the move_pages() verdict in the metadata; what it said when not ok
units_on_nodes() {
	grep -qx "# pcpu_nodes: ok: all $2 units on their CPU's node (move_pages)" "$1" && return
	echo "      pcpu_nodes: $(meta "$1" pcpu_nodes)"
	return 1
}

old_slower() {
	awk '/^SUMMARY / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		exit !(v["old_mean"] > v["new_mean"]) }' "$1"
}

run_checks() {
	local csv=$1 cpus=$2 used=$3 possible=$4
	check "$(basename "$csv"): $used workers, one per CPU, none migrated" \
		test "$(meta "$csv" used_cpus)" = "$used" -a "$(meta "$csv" migrations)" = 0
	check "$(basename "$csv"): per-CPU rows for CPUs $cpus, each on its node" rows_on_nodes "$csv" "$cpus"
	check "$(basename "$csv"): all $possible per-CPU units on their CPU's node" \
		units_on_nodes "$csv" "$possible"
	check "$(basename "$csv"): $possible possible CPUs, the clear writes $possible units" \
		test "$(meta "$csv" possible_cpus)" = "$possible"
	check "$(basename "$csv"): old slower than new" old_slower "$csv"
}

# ---- in-kernel checks ----

# median of the merged variant V of a CSV (format 2: run and cpu "all"):
# the AVG of the slot that holds
# it (medians, as a few TCG vCPUs descheduled by the host for
# milliseconds would swing a mean)
median_of() {
	awk -F, -v v="$2" '$2 == v && $3 == "all" && $4 == "all" && $11 >= 0.5 { print $10; exit }' "$1"
}

# is A > B (both numbers)?
greater() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0 && b != "") }'; }

# every CPU of 0..15 has rows of both variants V1 and V2
rows_per_cpu() {
	awk -F, -v a="$2" -v b="$3" '$2 == a || $2 == b { if ($4 != "all") seen[$2 "," $4] = 1 }
		END { for (c = 0; c < 16; c++) if (!seen[a "," c] || !seen[b "," c]) bad = 1; exit bad }' "$1"
}

# kernel_checks CSV V1 V2 N POSSIBLE: what a `bench kernel` CSV must hold
kernel_checks() {
	local csv=$1 v1=$2 v2=$3 n=$4 possible=$5 b
	b=$(basename "$csv")
	check "$b: source kernel, $possible possible CPUs as the kernel counts them" \
		test "$(meta "$csv" source)" = kernel -a "$(meta "$csv" possible_cpus)" = "$possible"
	# bench kernel's one line when it refused (exit 3)
	[ "$(meta "$csv" source)" = kernel ] || echo "      bench kernel said: $(head -1 "$csv")"
	check "$b: every sample recorded, $n of each variant" test "$(meta "$csv" samples_taken)" = "$n/$n"
	check "$b: per-CPU rows of $v1 and $v2 on all 16 CPUs" rows_per_cpu "$csv" "$v1" "$v2"
}

# the table of variant V of a CSV as captured (stderr lines before the
# magic line dropped), tabs expanded, under a title
vm_table() {
	echo "$3"
	sed -n '/^# kstats-bench-csv/,$p' "$1" >"$1.clean"
	"$top/bench" show -v "$2" "$1.clean" 2>/dev/null | expand || echo "(none: see the checks)"
}

# the in-kernel tables beside the emulated ones, for the same VM
side_by_side() {
	local title=$1 kcsv=$2 ecsv=$3 v
	echo "  $title"
	for v in old new; do
		vm_table "$kcsv" "$v" "in-kernel $v ($(meta "$kcsv" clock) on $(meta "$kcsv" clocksource), $(meta "$kcsv" used_cpus) CPUs)" >"$work/left"
		vm_table "$ecsv" "$v" "emulated $v (bench run, $(meta "$ecsv" used_cpus) CPUs)" >"$work/right"
		awk 'NR == FNR { l[FNR] = $0; n = FNR; next } { r[FNR] = $0; m = FNR }
			END { for (i = 1; i <= (n > m ? n : m); i++) printf "    %-46s |  %s\n", l[i], r[i] }' \
			"$work/left" "$work/right"
	done
}

kmod_line() { grep -qx "$2" "$1"; }

main() {
	local all16 d possible=${VMCHECK_POSSIBLE:-480} o16 omany release
	all16=$(seq -s ' ' 0 15)
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing"
	[ -x "$top/bench" ] || die "build bench first"
	release=$(basename "$(vm_kernel)")
	release=${release#vmlinuz-}
	ko=$top/kmod/kstats_bench.ko
	[ -f "$ko" ] || die "no $ko: make vmcheck builds it (make -C kmod KVER=$release)"
	grep -aq "vermagic=$release " "$ko" || die "$ko is not built for $release (make -C kmod KVER=$release)"
	initramfs
	echo "vmcheck: booting 16 vCPUs on 4 nodes (TCG)... (${SECONDS}s)"
	boot numa numa 16 "${NUMA4[@]}"
	[ -z "${VMCHECK_DEBUG:-}" ] || cat "$work/numa.log"
	for d in calibrate.txt calibrate-tsc.txt kernel.csv remote.csv; do
		extract "$work/numa.log" "$d" >"$work/$d"
	done
	check "calibrate: clock_gettime fallback, overhead on 16 CPUs" \
		test "$(grep -cE '^[0-9]+ +[0-3] ' "$work/calibrate.txt")" -eq 16
	check "calibrate (KSB_FORCE_TSC): tsc_hz calibrated, cycles on 16 CPUs" \
		test "$(grep -cE '^[0-9]+ +[0-3] ' "$work/calibrate-tsc.txt")" -eq 16 -a \
		"$(sed -n 's/^tsc_hz_source: //p' "$work/calibrate-tsc.txt")" = calibrated
	check "kernel.csv: 4 nodes" test "$(meta "$work/kernel.csv" nodes)" = 4
	run_checks "$work/kernel.csv" "$all16" 16 16
	run_checks "$work/remote.csv" "$all16" 16 16
	echo "vmcheck: booting 8 of 16 possible vCPUs... (${SECONDS}s)"
	boot maxcpus maxcpus 8,maxcpus=16 "${NUMA4[@]}"
	extract "$work/maxcpus.log" maxcpus.csv >"$work/maxcpus.csv"
	check "maxcpus.csv: 8 online" test "$(meta "$work/maxcpus.csv" online_cpus)" = 8
	run_checks "$work/maxcpus.csv" "$(seq -s ' ' 0 7)" 8 16
	echo "vmcheck: booting 16 vCPUs, taskset -c 2,5,11... (${SECONDS}s)"
	boot taskset taskset 16 "${NUMA4[@]}"
	extract "$work/taskset.log" taskset.csv >"$work/taskset.csv"
	check "taskset.csv: 3 allowed" test "$(meta "$work/taskset.csv" allowed_cpus)" = 3
	run_checks "$work/taskset.csv" "2 5 11" 3 16
	for d in offline.csv hotplug.rc hotplug.csv; do extract "$work/taskset.log" "$d" >"$work/$d"; done
	check "offline.csv: CPU 5 offline, 15 online" test "$(meta "$work/offline.csv" online_cpus)" = 15
	run_checks "$work/offline.csv" "0 1 2 3 4 6 7 8 9 10 11 12 13 14 15" 15 16
	check "hotplug: CPU 7 offlined mid-run, SIGINT: exit 130, partial" \
		test "$(cat "$work/hotplug.rc")" = 130 -a "$(meta "$work/hotplug.csv" partial)" = yes
	check "hotplug: the displaced worker's samples counted as migrations" \
		test "$(meta "$work/hotplug.csv" migrations)" -gt 0
	for d in ksd16.csv irq16.csv kmod.txt irq.csv modtable.txt; do extract "$work/numa.log" "$d" >"$work/$d"; done
	echo "vmcheck: booting 16 vCPUs with possible_cpus=$possible (in-kernel)... (${SECONDS}s)"
	append="possible_cpus=$possible" boot many many 16 "${NUMA4[@]}"
	for d in ksdmany.csv irqmany.csv emulmany.csv; do extract "$work/many.log" "$d" >"$work/$d"; done
	kernel_checks "$work/ksd16.csv" old new 2048 16
	kernel_checks "$work/irq16.csv" alloc free 512 16
	kernel_checks "$work/ksdmany.csv" old new 2048 "$possible"
	kernel_checks "$work/irqmany.csv" alloc free 512 "$possible"
	check "emulmany.csv: bench run sees the same $possible possible CPUs" \
		test "$(meta "$work/emulmany.csv" possible_cpus)" = "$possible"
	o16=$(median_of "$work/ksd16.csv" old)
	omany=$(median_of "$work/ksdmany.csv" old)
	check "in-kernel, 16 possible: old slower than new (median $o16 > $(median_of "$work/ksd16.csv" new) ns)" \
		greater "$o16" "$(median_of "$work/ksd16.csv" new)"
	check "in-kernel, $possible possible: old slower than new (median $omany > $(median_of "$work/ksdmany.csv" new) ns)" \
		greater "$omany" "$(median_of "$work/ksdmany.csv" new)"
	check "in-kernel: old slower with $possible possible CPUs than with 16 (median $omany > $o16 ns)" \
		greater "$omany" "$o16"
	check "kmod: bench kernel unloads the module it loaded" kmod_line "$work/kmod.txt" "after bench kernel: unloaded"
	check "kmod: insmod loads it" kmod_line "$work/kmod.txt" "insmod: ok"
	for d in samples=0 samples=4294967297 frac_bits=13 cpus=0-4095 cpus= workload=nope bogus=1 samples; do
		check "kmod: control '$d' rejected (-EINVAL)" kmod_line "$work/kmod.txt" "control $d: rejected"
	done
	check "kmod: bench kernel uses a module already loaded, and leaves it" \
		kmod_line "$work/kmod.txt" "bench kernel with the module loaded: rc=0"
	check "kmod: the module's own table equals bench show of bench kernel's CSV" \
		diff <(sed -n '/ alloc: /,/ free: /p' "$work/modtable.txt" | grep -E '^ +[0-9]') \
		<("$top/bench" show -v alloc "$work/irq.csv" | grep -E '^ +[0-9]')
	check "kmod: rmmod in the middle of a run stops it and unloads" \
		test "$(grep -cxE 'long run: running|rmmod mid-run: ok|after rmmod: unloaded' "$work/kmod.txt")" = 3
	check "kmod: loads again and runs after that" \
		test "$(grep -cxE 'insmod again: ok|run after reload: done|rmmod again: ok' "$work/kmod.txt")" = 3
	check "kmod: no BUG, WARNING or Oops in dmesg" test -z "$(grep '^dmesg: ' "$work/kmod.txt")"
	echo "vmcheck: kernel-set-defaults in-kernel beside emulated, same VM (TCG models no caches)"
	side_by_side "16 possible CPUs" "$work/ksd16.csv" "$work/kernel.csv"
	side_by_side "$possible possible CPUs" "$work/ksdmany.csv" "$work/emulmany.csv"
	echo "vmcheck: 4 boots and the checks took ${SECONDS}s"
	if [ "$fails" -eq 0 ]; then
		echo "VMCHECK passed: $checks checks; 16 CPUs on 4 nodes (calibrate, kernel, remote), 8 online of 16 possible, taskset 3 of 16 CPUs, 15 of 16 online, hotplug; in-kernel (kstats_bench on $release): both workloads, every sample, old slower than new, old slower at $possible possible CPUs than at 16, unload mid-run and reload"
	else
		[ -z "${VMCHECK_KEEP:-}" ] || cp -r "$work" "$VMCHECK_KEEP"
		echo "VMCHECK FAILED: $fails of $checks checks; 16 CPUs on 4 nodes, 8 online of 16 possible, taskset 3 of 16 CPUs, 15 of 16 online, hotplug, in-kernel at 16 and $possible possible CPUs"
		exit 1
	fi
}

main "$@"
