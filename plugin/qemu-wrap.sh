#!/usr/bin/env bash
# qemu-wrap.sh QEMU-ARGS... - qemu as `bench vm --qemu` runs it, on the
# counted clock and with the plugin: until bench vm has a clock option
# and a plugin option of its own (phase 2 of the plugin's issue), the
# counted-clock study's way:
#   -machine q35,accel=tcg,... becomes -machine q35,... plus
#   -accel tcg,thread=single -icount shift=0,sleep=off -rtc clock=vm;
#   -plugin build/plugin/ksbplugin.so,out=...,funcs=...[,syms=...] is
#   appended, its files named after the boot.
# Environment:
#   KSBP_DIR   where each boot's files go (required): NAME-pP-B.win.csv
#              and NAME-pP-B.fn.csv, NAME the -kernel's directory's name
#              (stock/bzImage: stock), P the possible CPUs, B the first
#              number not taken yet
#   KSBP_ARGS  more plugin options (cache=off, cold=none, ...)
#   KSBP_SYMS  a directory of NAME.syms files (kallsyms of a nokaslr
#              boot, or System.map): syms= for kernel NAME when there
#   KSBP_NONE  1: the counted clock without the plugin (the baseline)
#   KSBP_WALL  a file: one line "NAME P B WALL_S CPU_S" appended per boot
#              (CPU_S: qemu's user and system seconds)
#   KSBP_SO    the plugin (default build/plugin/ksbplugin.so beside this)
#   QEMU       the real qemu (default qemu-system-x86_64)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
so=${KSBP_SO:-$here/../build/plugin/ksbplugin.so}
: "${KSBP_DIR:?qemu-wrap.sh: set KSBP_DIR}"

args=()
name=vm possible=0 kernel_next=0 smp_next=0
for a in "$@"; do
	if [ "$kernel_next" = 1 ]; then
		name=$(basename "$(dirname "$a")")
		kernel_next=0
	fi
	if [ "$smp_next" = 1 ]; then
		possible=$(sed -n 's/.*maxcpus=\([0-9]*\).*/\1/p' <<<"$a")
		smp_next=0
	fi
	case $a in
	-kernel) kernel_next=1 ;;
	-smp) smp_next=1 ;;
	*possible_cpus=*) possible=$(sed -n 's/.*possible_cpus=\([0-9]*\).*/\1/p' <<<"$a") ;;
	esac
	case $a in
	q35,accel=tcg*) args+=("q35${a#q35,accel=tcg}") ;;
	*) args+=("$a") ;;
	esac
done
args+=(-accel 'tcg,thread=single' -icount 'shift=0,sleep=off' -rtc clock=vm)

mkdir -p "$KSBP_DIR"
b=1
# the first free number; mkdir is atomic, so boots side by side differ
while ! mkdir "$KSBP_DIR/.$name-p$possible-$b" 2>/dev/null; do
	b=$((b + 1))
done
base=$KSBP_DIR/$name-p$possible-$b
if [ "${KSBP_NONE:-0}" != 1 ]; then
	opt="$so,out=$base.win.csv,funcs=$base.fn.csv"
	if [ -n "${KSBP_SYMS:-}" ] && [ -f "$KSBP_SYMS/$name.syms" ]; then
		opt+=",syms=$KSBP_SYMS/$name.syms"
	fi
	[ -z "${KSBP_ARGS:-}" ] || opt+=",$KSBP_ARGS"
	args+=(-plugin "$opt")
fi
t0=$(date +%s.%N)
rc=0
"${QEMU:-qemu-system-x86_64}" "${args[@]}" || rc=$?
if [ -n "${KSBP_WALL:-}" ]; then
	# qemu's cpu seconds beside the wall's: a neighbour stretches the wall
	# alone. times in this shell, not in $(...): a subshell has no children
	times >"$base.times"
	cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } print s }' "$base.times")
	rm -f "$base.times"
	echo "$name $possible $b $(echo "$(date +%s.%N) - $t0" | bc) $cpu" >>"$KSBP_WALL"
fi
exit "$rc"
