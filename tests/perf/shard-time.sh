#!/usr/bin/env bash
# shard-time.sh [ROUNDS] - the wall time of a bench vm plan's two shards
# side by side, one a core, against the unsharded plan on one core, then
# bench merge of the shards and bench scale of the merge: what a CI
# matrix of two runners saves (docs/measurements.md, "Sharded sweeps side
# by side"). Debian 12's 6.1 from /boot (make vmcheck installs it), the
# plan -c 1 -B 2 -p 16,64 -- run -w syscall-null -n 256; ROUNDS (2)
# times. Run it alone: a neighbour's load is in every figure.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
rounds=${1:-2}
# shellcheck disable=SC2034 # tests/lib.sh's say reads it
lib_prog=shard-time
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
img=$(image_61)
w=$(mktemp -d /tmp/shard-time.XXXXXX)
plan=(-q -c 1 -B 2 -p "16,64" --reboot-disturbed 0)
cmd=("deb61=$img" -- run -w syscall-null -n 256)
now() { date +%s.%N; }
load() { cut -d' ' -f1 /proc/loadavg; }
for r in $(seq 1 "$rounds"); do
	l0=$(load)
	t0=$(now)
	taskset -c 0 ./bench vm "${plan[@]}" -o "$w/u$r" "${cmd[@]}" >/dev/null
	t1=$(now)
	l1=$(load)
	taskset -c 0 ./bench vm "${plan[@]}" --shard 1/2 -o "$w/s$r-1" "${cmd[@]}" >/dev/null &
	p1=$!
	taskset -c 1 ./bench vm "${plan[@]}" --shard 2/2 -o "$w/s$r-2" "${cmd[@]}" >/dev/null &
	p2=$!
	wait "$p1" "$p2"
	t2=$(now)
	./bench merge -o "$w/m$r" "$w/s$r-1" "$w/s$r-2"
	t3=$(now)
	awk -v r="$r" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v l="$l0 -> $l1 -> $(load)" 'BEGIN {
		printf "round %d: unsharded %.1f s, 2 shards side by side %.1f s, merge %.2f s, ratio %.2f, load %s\n",
			r, b - a, c - b, d - c, (d - b) / (b - a), l }'
	./bench scale "$w/m$r"/deb61-p*.csv
done
say "files: $w"
