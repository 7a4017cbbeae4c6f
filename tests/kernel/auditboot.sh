#!/bin/sh
# shellcheck shell=dash
# auditboot.sh N [CANDIDATES] - auditcheck's guest, run by bench vm's
# /init as `bench vm --file CANDIDATES ... -- sh tests/kernel/auditboot.sh
# N /CANDIDATES`, in every boot:
#
#   1. the whole battery, bench audit -n N in this boot's order (bench
#      vm's KSB_OUT ends in bootB), into audit.csv
#   2. for each line of CANDIDATES (entry-candidates.sh's: NAME, the
#      entry's workload line as bench list shows it, its candidate
#      functions, tab-separated), each FUNC timed by fentry while the
#      workload runs N times, into trace-NAME-FUNC.csv, labelled
#      entry=NAME for bench scale's attribution; a function the kernel
#      cannot probe (inlined, no BTF), or that the workload never calls,
#      leaves no file
#
# Each file comes back as DIR/NAME-pP-sh/bootB/FILE.
n=${1:?auditboot.sh N [CANDIDATES]}
cands=${2:-}
o=${KSB_OUT:?auditboot.sh runs under bench vm -- sh}
b=${o##*/boot}
b=${b%%/*}
case $b in '' | *[!0-9]*) b=1 ;; esac
/bench audit -q -n "$n" --boot "$b" -o "$o/audit.csv" >/dev/null || exit
[ -n "$cands" ] || exit 0
tab=$(printf '\t')
while IFS=$tab read -r name entry funcs; do
	for f in $funcs; do
		t=$o/trace-$name-$f.csv
		# shellcheck disable=SC2086 # the entry's line is a workload and its options
		/bench trace -q -p fentry --label "entry=$name" -o "$t" "$f" -- \
			/bench run -q -w $entry -n "$n" >/dev/null 2>&1 || rm -f "$t"
		# a candidate the entry never calls has no figure
		if grep -qx '# entries: 0' "$t" 2>/dev/null; then
			rm -f "$t"
		fi
	done
done <"$cands"
