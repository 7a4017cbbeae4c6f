#!/usr/bin/env bash
# run-all.sh UNIT... -- BATS... - run every suite as TAP, then print one
# closing line "N passed, N failed, N skipped"; exit 1 when anything failed.
set -uo pipefail

log=$(mktemp)
out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
suites_failed=0

# A suite that exits non-zero counts as a failure even when its TAP says
# nothing (a sanitizer abort): its last lines are shown.
run_suite() {
	local name=$1 rc=0
	shift
	echo "== $name"
	"$@" >"$out" 2>&1 || rc=$?
	cat "$out" >>"$log"
	grep -E '^(not ok|# )' "$out" || true
	if [ "$rc" -ne 0 ]; then
		tail -n 25 "$out"
		echo "suite failed: $name (exit $rc)"
		suites_failed=$((suites_failed + 1))
	fi
}

units=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do units+=("$1"); shift; done
[ $# -gt 0 ] && shift

for t in "${units[@]}"; do
	CMOCKA_MESSAGE_OUTPUT=TAP run_suite "$t" "$t"
done
[ $# -gt 0 ] && run_suite "bats $*" bats --tap "$@"

# a skipped test is "ok N ... # skip": counted apart, not as a pass
skipped=$(grep -ciE '^ok .*# skip' "$log")
passed=$(($(grep -c '^ok ' "$log") - skipped))
failed=$(grep -c '^not ok ' "$log")
[ "$suites_failed" -gt "$failed" ] && failed=$suites_failed
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$suites_failed" -eq 0 ]
