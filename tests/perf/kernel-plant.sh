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

[ -f "$img" ] || { echo "kernel-plant: no $img: make kernelcheck builds it" >&2; exit 3; }
rm -rf "$out"
mkdir -p "$out"
# the module once, against kernelcheck's tree (all its kernels share a release)
"$bench" kernel -q --build "$kc/linux-source-6.12" -o "$out/kmod" >/dev/null ||
	{ echo "kernel-plant: building the module failed" >&2; exit 3; }

# one boot of the planted kernel with irq_plant_ns=NS, as run NAME of SIDE
boot() {
	local side=$1 ns=$2 name=$3
	mkdir -p "$out/$side"
	"$bench" vm -q -B 1 -p "$possible" -c 2 --module "$out/kmod/kstats_bench.ko" \
		--append "irq_plant_ns=$ns" -o "$out/$side" "$name=$img" \
		-- kernel --module /kmod/kstats_bench.ko -w kernel-irq-alloc -n 512 >/dev/null
}

# change and verdict of the alloc series: "+5.2 regression" (the
# verdict last: "significant below threshold" is three words)
judge() {
	"$bench" compare -f csv "$@" 2>/dev/null |
		awk -F, '$2 == "alloc" { printf "%+.1f %s\n", $8, $NF }'
}

declare -A flagged flagged1 lo hi
t0=$SECONDS
for r in $(seq "$rounds"); do
	for i in 1 2 3 4 5 6; do
		boot ref 0 "r$r-$i"
		for ns in "${grades[@]}"; do
			boot "ns$ns" "$ns" "r$r-$i"
		done
	done
	for ns in "${grades[@]}"; do
		read -r c v < <(judge "$out/ref/r$r-"*.csv -- "$out/ns$ns/r$r-"*.csv)
		read -r _ v1 < <(judge -t 1 "$out/ref/r$r-"*.csv -- "$out/ns$ns/r$r-"*.csv)
		[ "$v" = regression ] && flagged[$ns]=$((${flagged[$ns]:-0} + 1))
		[ "$v1" = regression ] && flagged1[$ns]=$((${flagged1[$ns]:-0} + 1))
		lo[$ns]=$(awk -v a="${lo[$ns]:-}" -v c="$c" 'BEGIN { print (a == "" || c < a) ? c : a }')
		hi[$ns]=$(awk -v a="${hi[$ns]:-}" -v c="$c" 'BEGIN { print (a == "" || c > a) ? c : a }')
		echo "round $r ns=$ns: alloc $c% $v (-t 1: $v1)" >&2
	done
done
for ns in "${grades[@]}"; do
	echo "PLANT ns=$ns change=${lo[$ns]}%..${hi[$ns]}% flagged=${flagged[$ns]:-0}/$rounds flagged_t1=${flagged1[$ns]:-0}/$rounds rounds=$rounds possible=$possible"
done
echo "kernel-plant: $((SECONDS - t0)) s" >&2
