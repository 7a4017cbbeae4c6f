#!/usr/bin/env bash
# run-all.sh UNIT... -- BATS... - run every suite as TAP, then print one
# closing line "N passed, N failed, N skipped"; exit 1 when anything failed.
#
# Each unit test binary, tests/tools.sh and each bats file is a suite of
# its own, and KSB_TEST_JOBS of them (default: the CPUs this process may
# use) run at once: no suite shares a file or a port with another (each
# test works in its own temp directory), and a 2-core machine runs make
# check in about half the time. The longest suites start first (the
# sanitizer and fuzz tools, then the bats files by size), so that none
# is left alone at the end. A suite's output is kept apart and printed
# whole, under its name, once it ends.
set -uo pipefail

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=${KSB_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in
'' | *[!0-9]* | 0) echo "run-all.sh: KSB_TEST_JOBS takes a whole number above 0, got '$jobs'" >&2; exit 2 ;;
esac

names=()
cmds=()
# add NAME CMD...: one suite, its command as one shell-quoted line
add() {
	local name=$1
	shift
	names+=("$name")
	cmds+=("$(printf '%q ' "$@")")
}

units=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do units+=("$1"); shift; done
[ $# -gt 0 ] && shift
# the longest first: the tools, then the bats files, largest first
for t in "${units[@]}"; do
	[[ "$t" == *.sh ]] && add "$t" "$t"
done
while IFS= read -r f; do
	[ -n "$f" ] && add "bats $f" bats --tap "$f"
done < <([ $# -gt 0 ] && ls -S "$@")
for t in "${units[@]}"; do
	[[ "$t" != *.sh ]] && add "$t" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
done

# run_suite I: suite I, its output into $work/I.out, its status into
# $work/I.rc, its seconds into $work/I.s
run_suite() {
	local rc=0 t=$SECONDS
	eval "${cmds[$1]}" >"$work/$1.out" 2>&1 || rc=$?
	echo "$((SECONDS - t))" >"$work/$1.s"
	echo "$rc" >"$work/$1.rc"
}

# show I: suite I's name, its failures, and its tail when it failed
suites_failed=0
show() {
	local rc
	rc=$(cat "$work/$1.rc")
	echo "== ${names[$1]} ($(cat "$work/$1.s") s)"
	echo "$(cat "$work/$1.s") ${names[$1]}" >>"$work/times"
	grep -E '^(not ok|# )' "$work/$1.out" || true
	if [ "$rc" -ne 0 ]; then
		tail -n 25 "$work/$1.out"
		echo "suite failed: ${names[$1]} (exit $rc)"
		suites_failed=$((suites_failed + 1))
	fi
	cat "$work/$1.out" >>"$work/all"
}

: >"$work/all"
: >"$work/times"
declare -A running=()
next=0
while [ "$next" -lt "${#cmds[@]}" ] || [ "${#running[@]}" -gt 0 ]; do
	while [ "$next" -lt "${#cmds[@]}" ] && [ "${#running[@]}" -lt "$jobs" ]; do
		run_suite "$next" &
		running[$!]=$next
		next=$((next + 1))
	done
	wait -n -p done_pid "${!running[@]}" || true
	show "${running[$done_pid]}"
	unset "running[$done_pid]"
done

# where the time went: the five longest suites (they overlap, KSB_TEST_JOBS at once)
echo "longest suites: $(sort -rn "$work/times" | head -n 5 | sed 's/^\([0-9]*\) \(.*\)/\2 \1 s/' | paste -sd, | sed 's/,/, /g')"

# a skipped test is "ok N ... # skip": counted apart, not as a pass
skipped=$(grep -ciE '^ok .*# skip' "$work/all")
passed=$(($(grep -c '^ok ' "$work/all") - skipped))
failed=$(grep -c '^not ok ' "$work/all")
[ "$suites_failed" -gt "$failed" ] && failed=$suites_failed
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$suites_failed" -eq 0 ]
