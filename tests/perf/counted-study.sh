#!/usr/bin/env bash
# counted-study.sh [DIR] - timed against counted guest clocks: the study
# that chose bench's rules and defaults for counted files (make
# counted-study; docs/measurements.md, "The counted clock").
#
# Under the counted clock (bench vm --clock counted: qemu -icount
# shift=0, one guest instruction per virtual ns) a figure counts the
# instructions the guest ran; under the timed clock it is wall time on
# this host. The study measures both on the same kernels:
#
#   audit   Debian 12's 6.12 image (tests/lib.sh image_612) and 6.1
#           (/boot), bench vm -B STUDY_BOOTS (3) -p STUDY_COUNTS
#           (64,128,255) -c 1 -- audit, the 21 built-in entries, under
#             timed, counted          idle, and (6.12) beside a busy loop
#                                     pinned to CPU 1 (busy)
#             counted, 2 vCPUs        6.12 idle: bench vm refuses -c 2
#                                     under the counted clock, so these
#                                     boots go through tests/perf/
#                                     qemu-counted, which makes bench
#                                     vm's timed qemu line a counted one
#   patch   kernelcheck's stock, patched and percpu kernels, -B 2 at the
#           same counts, counted, -- kernel -w kernel-irq-alloc: the
#           slopes of alloc and free; and stock at 255 with 2 vCPUs
#           (through qemu-counted), 3 boots, beside its 1-vCPU boots
#   plant   STUDY_REPS (10) repetitions of one bench vm -B 2 -p 255,
#           counted, of stock, stock again (A/A) and planted with
#           irq_plant_ns=STUDY_PLANT_NS (383, about 1% of stock's alloc):
#           bench compare's verdict on stock -- planted, and on stock --
#           stock
#
# tests/perf/counted_study.py reads the files and prints the tables of
# docs/measurements.md: per condition, each cell's spread (max/min - 1
# of an entry's per-boot figure at one count, over its boots), busy
# against idle (the shift of each cell's median), the slopes of
# /proc/stat and cpu.stat, each boot's wall time; the patch's slopes;
# the plant's and the A/A's verdicts. Each timed figure says what ran:
# the load average at each sweep's start is in DIR/load.
#
# Needs make kernelcheck's images (KSB_KERNELCHECK_DIR, default
# build/kernelcheck) and qemu; about 35 minutes on 2 idle cores. DIR
# (default build/counted-study) keeps every file, and DIR/load each
# sweep's load average at its start, newest last; STUDY_REFIT=1 measures
# nothing and reads DIR's files again; STUDY_PARTS (audit patch plant)
# picks the parts, STUDY_AUDIT the audit's conditions (NAME-CLOCK[-busy|
# -c2], all seven). Exit 0, 2 bad usage, 3 an image or qemu missing.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
lib_prog=counted-study
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

dir=$(realpath -m "${1:-$top/build/counted-study}")
boots=${STUDY_BOOTS:-3}
counts=${STUDY_COUNTS:-64,128,255}
reps=${STUDY_REPS:-10}
plant_ns=${STUDY_PLANT_NS:-383}
parts=${STUDY_PARTS:-audit patch plant}
conds=${STUDY_AUDIT:-d612-timed d612-counted d612-timed-busy d612-counted-busy d612-counted-c2 d61-timed d61-counted}
kc=${KSB_KERNELCHECK_DIR:-$top/build/kernelcheck}
pkg_612=${SCALECHECK_612_PKG:-linux-image-6.12.117+deb12-amd64-unsigned}
bench=$top/bench
wrap=$top/tests/perf/qemu-counted

for v in "$boots" "$reps" "$plant_ns"; do
	case $v in
	'' | *[!0-9]* | 0) echo "counted-study.sh: STUDY_BOOTS, STUDY_REPS and STUDY_PLANT_NS take a whole number above 0, got '$v'" >&2; exit 2 ;;
	esac
done
command -v qemu-system-x86_64 >/dev/null || die "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
trap cotenant_stop EXIT

# vm OUT ARGS...: bench vm -q into DIR/OUT, its stdout kept; the load
# average at its start into DIR/load
vm() {
	local out=$dir/$1 t0=$SECONDS
	shift
	rm -rf "$out"
	mkdir -p "$out"
	echo "$(basename "$out") $(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/load"
	"$bench" vm -q -o "$out" "$@" >"$out/vm.txt" || die "bench vm into $out exited $? (see $out/*.console)"
	say "$(basename "$out"): $((SECONDS - t0)) s"
}

# audit NAME IMAGE CLOCK [busy|c2]: the battery swept into DIR/audit-NAME-CLOCK[-busy|-c2]
audit() {
	local name=$1 img=$2 clock=$3 how=${4:-} more=()
	case $how in
	busy) cotenant_start 1 1800 ;;
	c2) more=(--qemu "$wrap" -c 2 --reboot-disturbed 0) ;;
	esac
	# timed boots are measured as they come, as the counted ones are
	[ "$clock" = timed ] && more+=(--reboot-disturbed 0)
	vm "audit-$name-$clock${how:+-$how}" -B "$boots" -p "$counts" \
		--clock "$([ "$how" = c2 ] && echo timed || echo "$clock")" "${more[@]}" "$name=$img" -- audit
	cotenant_stop
}

part_audit() {
	local c img name clock how
	for c in $conds; do
		IFS=- read -r name clock how <<<"$c"
		case $name in
		d612) img=$(image_612 "${KSB_SCALECHECK_DIR:-$top/build/scalecheck}/6.12" "$pkg_612") ;;
		d61) img=$(image_61) ;;
		esac
		audit "$name" "$img" "$clock" "$how"
	done
}

images() {
	local k
	for k in stock patched percpu planted; do
		[ -f "$kc/img/$k/bzImage" ] || die "no $kc/img/$k/bzImage: make kernelcheck builds it"
	done
	[ -d "$kc/linux-source-6.12" ] || die "no $kc/linux-source-6.12: make kernelcheck unpacks it"
}

irq=(-- kernel --module /kmod/kstats_bench.ko -w kernel-irq-alloc -n 512)

part_patch() {
	local o=$kc/img
	images
	vm patch -B 2 -p "$counts" --kbuild "$kc/linux-source-6.12" stock="$o/stock/bzImage" \
		patched="$o/patched/bzImage" percpu="$o/percpu/bzImage" "${irq[@]}"
	vm patch-c2 -B 3 -p 255 --clock timed -c 2 --qemu "$wrap" --kbuild "$kc/linux-source-6.12" \
		stock="$o/stock/bzImage" "${irq[@]}"
	vm patch-c1 -B 3 -p 255 --kbuild "$kc/linux-source-6.12" stock="$o/stock/bzImage" "${irq[@]}"
}

part_plant() {
	local o=$kc/img i
	images
	for ((i = 1; i <= reps; i++)); do
		vm "plant/r$i" -B 2 -p 255 --append "irq_plant_ns=$plant_ns" --kbuild "$kc/linux-source-6.12" \
			stock="$o/stock/bzImage" again="$o/stock/bzImage" planted="$o/planted/bzImage" "${irq[@]}"
	done
}

mkdir -p "$dir"
t0=$SECONDS
if [ -z "${STUDY_REFIT:-}" ]; then
	# each sweep's load average at its start, appended: parts run apart
	# keep the others' lines
	for p in $parts; do
		case $p in
		audit | patch | plant) "part_$p" ;;
		*) echo "counted-study.sh: STUDY_PARTS: '$p' is not audit, patch or plant" >&2; exit 2 ;;
		esac
	done
fi
python3 "$top/tests/perf/counted_study.py" "$bench" "$dir" | tee "$dir/study.md"
say "study in $dir/study.md, $((SECONDS - t0)) s"
