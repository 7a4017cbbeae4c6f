#!/usr/bin/env bash
# vmcheck.sh - many-core, multi-node checks in a real kernel: boots
# Debian's kernel under qemu TCG three times with an initramfs holding
# busybox, bench and its libraries, and checks what bench reports.
#
#   1. 16 vCPUs on 4 NUMA nodes: calibrate, run (kernel and remote cache)
#   2. -smp 8,maxcpus=16: 16 possible CPUs, 8 workers
#   3. taskset -c 2,5,11 on the 16-CPU machine: only those get workers;
#      then CPU 5 offline (no worker), CPU 7 offlined mid-run (migrations)
#
# VMCHECK_FAULT=node0 binds every per-CPU unit to node 0 inside the VM:
# the checks must then fail. Prints one summary line; exit 1 on any
# mismatch, 3 when the VM cannot be built or booted.
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
	# the shared libraries ldd lists, at the same paths
	for lib in $(ldd "$top/bench" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initramfs.gz"
}

# ---- booting ----

# boot NAME PLAN SMP [NUMA...]: the serial console goes to $work/NAME.log
boot() {
	local name=$1 plan=$2 smp=$3 kernel
	shift 3
	kernel=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -1)
	[ -n "$kernel" ] || die "no kernel in /boot (apt-get install linux-image-amd64)"
	timeout 240 qemu-system-x86_64 -machine q35,accel=tcg -cpu max -smp "$smp" -m 2048 \
		"$@" -kernel "$kernel" -initrd "$work/initramfs.gz" \
		-append "console=ttyS0 quiet loglevel=0 panic=-1 ksb.plan=$plan ksb.fault=${VMCHECK_FAULT:-none}" \
		-display none -monitor none -serial "file:$work/$name.log" -no-reboot ||
		die "qemu failed or timed out ($name)"
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

main() {
	local all16 d
	all16=$(seq -s ' ' 0 15)
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing"
	[ -x "$top/bench" ] || die "build bench first"
	initramfs
	echo "vmcheck: booting 16 vCPUs on 4 nodes (TCG)..."
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
	echo "vmcheck: booting 8 of 16 possible vCPUs..."
	boot maxcpus maxcpus 8,maxcpus=16 "${NUMA4[@]}"
	extract "$work/maxcpus.log" maxcpus.csv >"$work/maxcpus.csv"
	check "maxcpus.csv: 8 online" test "$(meta "$work/maxcpus.csv" online_cpus)" = 8
	run_checks "$work/maxcpus.csv" "$(seq -s ' ' 0 7)" 8 16
	echo "vmcheck: booting 16 vCPUs, taskset -c 2,5,11..."
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
	if [ "$fails" -eq 0 ]; then
		echo "VMCHECK passed: $checks checks; 16 CPUs on 4 nodes (calibrate, kernel, remote), 8 online of 16 possible, taskset 3 of 16 CPUs, 15 of 16 online, hotplug"
	else
		[ -z "${VMCHECK_KEEP:-}" ] || cp -r "$work" "$VMCHECK_KEEP"
		echo "VMCHECK FAILED: $fails of $checks checks; 16 CPUs on 4 nodes, 8 online of 16 possible, taskset 3 of 16 CPUs, 15 of 16 online, hotplug"
		exit 1
	fi
}

main "$@"
