#!/usr/bin/env bash
# gate.sh [ROUNDS] - what docs/measurements.md's "What the regression gate
# promises" table measures:
# ROUNDS (default 20) rounds of the CI recipe, before and after
# interleaved, three invocations of `bench run --runs 2 -p P --cache cold
# -n 2048` a side (6 runs a side); A and B at 480 possible CPUs (A/A),
# C at 528 (the old path clears 10% more units). Each round is compared
# A/B, A/C and B/C, with the reference (the default) and raw. About 20 s
# a round on xeon-vm; run it on a quiet machine.
#   make gate            or            tests/perf/gate.sh 5
set -euo pipefail
cd "$(dirname "$0")/../.."

rounds=${1:-20}
case $rounds in
'' | *[!0-9]*) echo "gate.sh: ROUNDS must be a number, got '$rounds'" >&2; exit 2 ;;
esac
[ -x ./bench ] || make -s bench
dir=$(mktemp -d /tmp/ksb-gate.XXXXXX)
trap 'rm -rf "$dir"' EXIT

for ((i = 1; i <= rounds; i++)); do
	for r in 1 2 3; do
		for s in A:480 B:480 C:528; do
			./bench run -q --runs 2 -p "${s#*:}" --cache cold -n 2048 \
				-o "$dir/${s%%:*}$i-$r.csv" >/dev/null
		done
	done
	echo "gate.sh: round $i of $rounds, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done

# verdict of one series in a compare's output: regression, ~, ...
old_regressed() { grep -q '^irqdesc-alloc old tm10 .*  regression$' "$1"; }

for ref in auto off; do
	aa=0 o528=0
	for ((i = 1; i <= rounds; i++)); do
		rc=0
		./bench compare -r "$ref" "$dir"/A"$i"-{1,2,3}.csv -- "$dir"/B"$i"-{1,2,3}.csv \
			>"$dir/aa" || rc=$?
		[ "$rc" -ne 1 ] || aa=$((aa + 1))
		for s in A B; do
			./bench compare -r "$ref" "$dir/$s$i"-{1,2,3}.csv -- "$dir"/C"$i"-{1,2,3}.csv \
				>"$dir/c" || true
			! old_regressed "$dir/c" || o528=$((o528 + 1))
		done
	done
	echo "GATE reference=$ref rounds=$rounds aa_exit1=$aa/$rounds old_528_flagged=$o528/$((2 * rounds))"
done
