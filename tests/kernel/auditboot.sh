#!/bin/sh
# shellcheck shell=dash
# auditboot.sh N [NAME ENTRY FUNC...] - auditcheck's guest, run by bench
# vm's /init as `bench vm ... -- sh tests/kernel/auditboot.sh N NAME
# ENTRY FUNC...`, in every boot:
#
#   1. the whole battery, bench audit -n N in this boot's order (bench
#      vm's KSB_OUT ends in bootB), into audit.csv
#   2. each FUNC, a candidate of entry NAME (a function that loops over
#      possible CPUs: tests/kernel/pcpu-candidates.sh), timed by fentry
#      while NAME's workload line ENTRY (as bench list shows it:
#      "file-read --path /proc/stat") runs N times, into
#      trace-NAME-FUNC.csv, labelled entry=NAME for bench scale's
#      attribution; a function the kernel cannot probe, or that ENTRY
#      never calls, leaves no file
#
# Each file comes back as DIR/NAME-pP-sh/bootB/FILE.
n=${1:?auditboot.sh N [NAME ENTRY FUNC...]}
name=${2:-}
entry=${3:-}
if [ $# -ge 3 ]; then shift 3; else shift $#; fi
o=${KSB_OUT:?auditboot.sh runs under bench vm -- sh}
b=${o##*/boot}
b=${b%%/*}
case $b in '' | *[!0-9]*) b=1 ;; esac
/bench audit -q -n "$n" --boot "$b" -o "$o/audit.csv" >/dev/null || exit
for f in "$@"; do
	# shellcheck disable=SC2086 # ENTRY is a workload and its options
	/bench trace -q -p fentry --label "entry=$name" -o "$o/trace-$name-$f.csv" "$f" -- \
		/bench run -q -w $entry -n "$n" >/dev/null 2>&1 || rm -f "$o/trace-$name-$f.csv"
	# a candidate the entry never calls has no figure
	if grep -qx '# entries: 0' "$o/trace-$name-$f.csv" 2>/dev/null; then
		rm -f "$o/trace-$name-$f.csv"
	fi
done
