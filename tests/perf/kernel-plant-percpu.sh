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

[ -f "$img" ] || { echo "kernel-plant-percpu: no $img: make kernelcheck builds it" >&2; exit 3; }
rm -rf "$out"
mkdir -p "$out"
# the module once, against kernelcheck's tree (all its kernels share a release)
"$bench" kernel -q --build "$kc/linux-source-6.12" -o "$out/kmod" >/dev/null ||
	{ echo "kernel-plant-percpu: building the module failed" >&2; exit 3; }

# one boot of the percpu kernel at POSSIBLE CPUs with irq_plant_percpu_ns=NS,
# as run NAME of SIDE
boot() {
	local side=$1 ns=$2 possible=$3 name=$4
	mkdir -p "$out/$side"
	"$bench" vm -q -B 1 -p "$possible" -c 2 --module "$out/kmod/kstats_bench.ko" \
		--append "irq_plant_percpu_ns=$ns" -o "$out/$side" "$name=$img" \
		-- kernel --module /kmod/kstats_bench.ko -w kernel-irq-alloc -n 512 >/dev/null
}

# the alloc series' slope difference and verdict: "+2.1 regression"
judge() {
	"$bench" scale -s tm10 -f csv "$@" 2>/dev/null |
		awk -F, '$1 == "diff" && $4 == "alloc" { printf "%+.2f %s\n", $10, $16 }'
}

declare -A flagged flagged0 lo hi
t0=$SECONDS
for r in $(seq "$rounds"); do
	for i in $(seq "$nboots"); do
		for p in ${counts//,/ }; do
			boot ref 0 "$p" "r$r-$i-p$p"
			for ns in "${grades[@]}"; do
				boot "ns$ns" "$ns" "$p" "r$r-$i-p$p"
			done
		done
	done
	for ns in "${grades[@]}"; do
		read -r d v < <(judge "$out/ref/r$r-"*.csv -- "$out/ns$ns/r$r-"*.csv) || true
		read -r _ v0 < <(judge -t 0 "$out/ref/r$r-"*.csv -- "$out/ns$ns/r$r-"*.csv) || true
		[ "$v" = regression ] && flagged[$ns]=$((${flagged[$ns]:-0} + 1))
		[ "$v0" = regression ] && flagged0[$ns]=$((${flagged0[$ns]:-0} + 1))
		lo[$ns]=$(awk -v a="${lo[$ns]:-}" -v c="$d" 'BEGIN { print (a == "" || c < a) ? c : a }')
		hi[$ns]=$(awk -v a="${hi[$ns]:-}" -v c="$d" 'BEGIN { print (a == "" || c > a) ? c : a }')
		echo "round $r ns_per_cpu=$ns: alloc slope B-A $d ns/CPU $v (-t 0: $v0) $((SECONDS - t0)) s" >&2
	done
done
for ns in "${grades[@]}"; do
	echo "PLANT ns_per_cpu=$ns diff=${lo[$ns]}..${hi[$ns]} flagged=${flagged[$ns]:-0}/$rounds flagged_t0=${flagged0[$ns]:-0}/$rounds rounds=$rounds counts=$counts"
done
echo "kernel-plant-percpu: $((SECONDS - t0)) s" >&2
