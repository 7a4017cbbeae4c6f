#!/usr/bin/env bash
# kernel-plant-percpu.sh [ROUNDS] - the smallest cost per possible CPU in
# __irq_alloc_descs() that the slope gate (bench scale A -- B) catches on
# real kernels, swept as make kernelcheck sweeps: a benchmark, never a
# test. Boots kernelcheck's percpu kernel (make kernelcheck first), whose
# every allocation waits irq_plant_percpu_ns ns per possible CPU, at
# KERNELPLANT_COUNTS (64,128,255) possible CPUs, KERNELPLANT_BOOTS (3)
# boots per count and side, as kernelcheck does. Each round boots,
# interleaved over boot, count and side: the reference side
# (irq_plant_percpu_ns=0, the stock allocator) and one side per grade in
# KERNELPLANT_NS (ns per possible CPU; "0" is the A/A side), then gates
# every grade's slope against the reference's as kernelcheck does
# (bench scale's default threshold, 5% of the reference's slope) and
# with -t 0 (any slope difference whose interval is above zero). Prints
# a PLANT line per grade:
#
#   PLANT ns_per_cpu=NS diff=LO..HI flagged=K/R flagged_t0=K/R rounds=R counts=64,128,255
#
# diff is the range over the rounds of the measured slope difference
# (ns per possible CPU). ROUNDS defaults to 20; one round of 5 sides is
# 45 boots (about 3 min on xeon-vm, idle).
# KSB_KERNELCHECK_DIR as for kernelcheck; results in
# $KSB_KERNELCHECK_DIR/plant-percpu/.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kc=${KSB_KERNELCHECK_DIR:-$top/build/kernelcheck}
rounds=${1:-20}
counts=${KERNELPLANT_COUNTS:-64,128,255}
nboots=${KERNELPLANT_BOOTS:-3}
read -r -a grades <<<"${KERNELPLANT_NS:-0 250 500 1000}"
img=$kc/img/percpu/bzImage
out=$kc/plant-percpu
bench=$top/bench

lib_prog=kernel-plant-percpu
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

[ -f "$img" ] || die "no $img: make kernelcheck builds it"
rm -rf "$out"
mkdir -p "$out"
plant_module "$kc/linux-source-6.12" "$out"

declare -A flagged flagged0 lo hi
t0=$SECONDS
for r in $(seq "$rounds"); do
	for i in $(seq "$nboots"); do
		for p in ${counts//,/ }; do
			plant_boot "$out" "$img" "$p" irq_plant_percpu_ns=0 ref "r$r-$i-p$p"
			for ns in "${grades[@]}"; do
				plant_boot "$out" "$img" "$p" "irq_plant_percpu_ns=$ns" "ns$ns" "r$r-$i-p$p"
			done
		done
	done
	for ns in "${grades[@]}"; do
		# the slope difference of the alloc series, and its verdicts
		read -r d v < <(plant_judge "$out/judge.csv" %+.2f slope -- \
			scale -s tm10 "$out/ref/r$r-"*.csv -- "$out/ns$ns/r$r-"*.csv) || true
		read -r _ v0 < <(plant_judge "$out/judge.csv" %+.2f slope -- \
			scale -s tm10 -t 0 "$out/ref/r$r-"*.csv -- "$out/ns$ns/r$r-"*.csv) || true
		[ "$v" = regression ] && flagged[$ns]=$((${flagged[$ns]:-0} + 1))
		[ "$v0" = regression ] && flagged0[$ns]=$((${flagged0[$ns]:-0} + 1))
		read -r "lo[$ns]" "hi[$ns]" < <(plant_range "${lo[$ns]:-}" "${hi[$ns]:-}" "$d")
		echo "round $r ns_per_cpu=$ns: alloc slope B-A $d ns/CPU $v (-t 0: $v0) $((SECONDS - t0)) s" >&2
	done
done
for ns in "${grades[@]}"; do
	echo "PLANT ns_per_cpu=$ns diff=${lo[$ns]}..${hi[$ns]} flagged=${flagged[$ns]:-0}/$rounds flagged_t0=${flagged0[$ns]:-0}/$rounds rounds=$rounds counts=$counts"
done
echo "kernel-plant-percpu: $((SECONDS - t0)) s" >&2
