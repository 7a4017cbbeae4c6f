#!/usr/bin/env bash
# kernel-history.sh [NIGHTS [PLANT]] - a nightly history of kernels with a
# pinned control, as a kernel CI's nightly job would write it: a benchmark,
# never a test. Every night is one `bench vm` invocation that boots the
# pinned kernel (base=, kernelcheck's stock) and tonight's kernel
# (tonight=: the stock kernel up to night PLANT - 1, the planted one, whose
# every irq_alloc_descs() waits 30 us, from night PLANT on) interleaved,
# KHIST_BOOTS (5) boots a side, at KHIST_POSSIBLE (255) possible CPUs; its
# base.csv and tonight.csv go to control/NN.csv and subject/NN.csv. Then
# `bench trend` over the subject alone and with --control, and a line:
#
#   KHISTORY nights=10 plant=6 alone=6 paired=6 found=yes others=0
#
# (alone, paired: the nights of the alloc series' change points; found: the
# paired trend has one at PLANT, others: its other change points).
#
# NIGHTS defaults to 10, PLANT to 6: 100 TCG boots, about 3 s each on
# xeon-vm, idle. With 10 nights the paired series has 10 points, whose
# permutation p cannot reach 0.001: KHIST_ALPHA (0.01) is trend's --alpha.
# The kernels: KHIST_STOCK and KHIST_PLANTED (default kernelcheck's
# img/stock and img/planted under KSB_KERNELCHECK_DIR), copied first so
# that a rebuild during the run changes nothing; the module: KHIST_MODULE,
# or built once against kernelcheck's tree. Results in KHIST_OUT
# (default $KSB_KERNELCHECK_DIR/history).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kc=${KSB_KERNELCHECK_DIR:-$top/build/kernelcheck}
nights=${1:-10}
plant=${2:-6}
boots=${KHIST_BOOTS:-5}
possible=${KHIST_POSSIBLE:-255}
alpha=${KHIST_ALPHA:-0.01}
out=${KHIST_OUT:-$kc/history}
bench=$top/bench

lib_prog=kernel-history
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

if [ "$plant" -lt 2 ] || [ "$plant" -gt "$nights" ]; then
	die "PLANT $plant: not in 2..$nights"
fi
if [ ! -x "$bench" ] || [ ! -x "$top/bench-static" ]; then
	die "build bench and bench-static first (make all static)"
fi
stock=${KHIST_STOCK:-$kc/img/stock/bzImage}
planted=${KHIST_PLANTED:-$kc/img/planted/bzImage}
for f in "$stock" "$planted"; do
	[ -f "$f" ] || die "no $f: make kernelcheck builds it"
done

rm -rf "$out"
mkdir -p "$out/img/stock" "$out/img/planted" "$out/control" "$out/subject" "$out/nights"
cp "$stock" "$out/img/stock/bzImage"
cp "$planted" "$out/img/planted/bzImage"
if [ -n "${KHIST_MODULE:-}" ]; then
	cp "$KHIST_MODULE" "$out/kstats_bench.ko"
else
	"$bench" kernel -q --build "$kc/linux-source-6.12" -o "$out/kmod" >/dev/null ||
		die "building the module against $kc/linux-source-6.12 failed"
	cp "$out/kmod/kstats_bench.ko" "$out/kstats_bench.ko"
fi

t0=$SECONDS
for ((n = 1; n <= nights; n++)); do
	nn=$(printf %02d "$n")
	tonight=stock
	[ "$n" -lt "$plant" ] || tonight=planted
	# the guest's bench kernel is given the module's path in the
	# initramfs: beside /bench there is no kmod/ source directory
	"$bench" vm -q -B "$boots" -p "$possible" -c 2 --module "$out/kstats_bench.ko" \
		--label night="$nn" --label tonight="$tonight" -o "$out/nights/$nn" \
		base="$out/img/stock/bzImage" tonight="$out/img/$tonight/bzImage" \
		-- kernel --module /kmod/kstats_bench.ko -w kernel-irq-alloc -n 256 >/dev/null ||
		die "night $nn: bench vm exited $? (see $out/nights/$nn/*.console)"
	cp "$out/nights/$nn/base.csv" "$out/control/$nn.csv"
	cp "$out/nights/$nn/tonight.csv" "$out/subject/$nn.csv"
	echo "night $nn: tonight=$tonight ($((SECONDS - t0)) s)" >&2
done

# the nights (1-based) of the alloc series' change points in trend -f csv:
# its index column (the first run after it, 1-based) counts runs alone,
# PER a night, and nights paired
nights_of() {
	csv_rows "$1" index variant=alloc |
		awk -v per="$2" '{ printf "%s%d", sep, int(($1 - 1) / per) + 1; sep = " " }'
}

rc=0
echo "== bench trend -a $alpha subject/ (alone)"
"$bench" trend -a "$alpha" --also csv="$out/alone.csv" "$out/subject" || rc=$?
[ "$rc" -le 1 ] || die "bench trend exited $rc"
rc=0
echo "== bench trend -a $alpha --control control/ subject/"
"$bench" trend -a "$alpha" --also csv="$out/paired.csv" --control "$out/control" "$out/subject" || rc=$?
[ "$rc" -le 1 ] || die "bench trend --control exited $rc"

alone=$(nights_of "$out/alone.csv" "$boots")
paired=$(nights_of "$out/paired.csv" 1)
found=no
others=0
for k in $paired; do
	if [ "$k" -eq "$plant" ]; then found=yes; else others=$((others + 1)); fi
done
echo "KHISTORY nights=$nights plant=$plant boots=$boots possible=$possible alpha=$alpha" \
	"alone=${alone// /,} paired=${paired// /,} found=$found others=$others seconds=$((SECONDS - t0))"
