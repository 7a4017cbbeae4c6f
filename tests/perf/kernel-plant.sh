#!/usr/bin/env bash
# kernel-plant.sh [ROUNDS] - the smallest slowdown of __irq_alloc_descs()
# that the gate catches on real kernels with 6 boots a side: a benchmark,
# never a test. Boots kernelcheck's planted kernel (make kernelcheck
# first), whose every allocation waits irq_plant_ns ns, at
# KERNELPLANT_POSSIBLE (255) possible CPUs. Each round boots, interleaved,
# six times each: the reference side (irq_plant_ns=0, the stock
# allocator) and one side per grade in KERNELPLANT_NS (ns; "0" is the
# A/A side), then compares every grade with the reference, as
# `bench compare` does by default (threshold 5%) and with -t 1 (any
# significant slowdown). Prints a GATE line per grade:
#
#   PLANT ns=5000 change=+3.7%..+7.2% flagged=1/9 flagged_t1=7/9 rounds=9 possible=255
#
# ROUNDS defaults to 20; one round of 5 sides is 30 boots (about 85 s on
# xeon-vm, idle). KERNELPLANT_NS sets the grades (default "0 4000 8000 12000"). KSB_KERNELCHECK_DIR as for kernelcheck; results in
# $KSB_KERNELCHECK_DIR/plant/.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kc=${KSB_KERNELCHECK_DIR:-$top/build/kernelcheck}
rounds=${1:-20}
possible=${KERNELPLANT_POSSIBLE:-255}
read -r -a grades <<<"${KERNELPLANT_NS:-0 4000 8000 12000}"
img=$kc/img/planted/bzImage
out=$kc/plant
bench=$top/bench

lib_prog=kernel-plant
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

[ -f "$img" ] || die "no $img: make kernelcheck builds it"
rm -rf "$out"
mkdir -p "$out"
plant_module "$kc/linux-source-6.12" "$out"

declare -A flagged flagged1 lo hi
t0=$SECONDS
for r in $(seq "$rounds"); do
	for i in 1 2 3 4 5 6; do
		plant_boot "$out" "$img" "$possible" irq_plant_ns=0 ref "r$r-$i"
		for ns in "${grades[@]}"; do
			plant_boot "$out" "$img" "$possible" "irq_plant_ns=$ns" "ns$ns" "r$r-$i"
		done
	done
	for ns in "${grades[@]}"; do
		# the change of the alloc series, and its verdicts: two questions,
		# two compares (the threshold is compare's to apply, not ours)
		read -r c v < <(plant_judge "$out/judge.csv" %+.1f change_pct -- \
			compare "$out/ref/r$r-"*.csv -- "$out/ns$ns/r$r-"*.csv)
		read -r _ v1 < <(plant_judge "$out/judge.csv" %+.1f change_pct -- \
			compare -t 1 "$out/ref/r$r-"*.csv -- "$out/ns$ns/r$r-"*.csv)
		[ "$v" = regression ] && flagged[$ns]=$((${flagged[$ns]:-0} + 1))
		[ "$v1" = regression ] && flagged1[$ns]=$((${flagged1[$ns]:-0} + 1))
		read -r "lo[$ns]" "hi[$ns]" < <(plant_range "${lo[$ns]:-}" "${hi[$ns]:-}" "$c")
		echo "round $r ns=$ns: alloc $c% $v (-t 1: $v1)" >&2
	done
done
for ns in "${grades[@]}"; do
	echo "PLANT ns=$ns change=${lo[$ns]}%..${hi[$ns]}% flagged=${flagged[$ns]:-0}/$rounds flagged_t1=${flagged1[$ns]:-0}/$rounds rounds=$rounds possible=$possible"
done
echo "kernel-plant: $((SECONDS - t0)) s" >&2
