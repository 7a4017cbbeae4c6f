#!/bin/sh
# shellcheck shell=dash
# auditboot.sh N CANDIDATES [NAME=ENTRY...] - auditcheck's guest, run by
# bench vm's /init as `bench vm --file LIST=cands.txt ... -- sh
# tests/kernel/auditboot.sh N /cands.txt NAME=ENTRY...`, in every boot:
#
#   1. the whole battery, bench audit -n N in this boot's order (bench
#      vm's KSB_OUT ends in bootB), into audit.csv
#   2. per NAME=ENTRY (an entry's name and its workload line, as bench
#      list shows it: proc-stat="file-read --path /proc/stat"), the
#      candidates it calls: the functions of CANDIDATES (one a line, the
#      kernel's functions that loop over possible CPUs) that ftrace's
#      function tracer sees while ENTRY runs 4 times, at most
#      AUDITBOOT_MAX (8) of them, into NAME.hits
#   3. each of those timed by fentry while ENTRY runs N times, into
#      trace-NAME-FUNC.csv, labelled entry=NAME for bench scale's
#      attribution; a function the kernel cannot probe leaves no file
#
# Each file comes back as DIR/NAME-pP-sh/bootB/FILE.
n=${1:?auditboot.sh N CANDIDATES [NAME=ENTRY...]}
cands=${2:?auditboot.sh N CANDIDATES [NAME=ENTRY...]}
shift 2
o=${KSB_OUT:?auditboot.sh runs under bench vm -- sh}
max=${AUDITBOOT_MAX:-8}
t=/sys/kernel/tracing
b=${o##*/boot}
b=${b%%/*}
case $b in '' | *[!0-9]*) b=1 ;; esac
/bench audit -q -n "$n" --boot "$b" -o "$o/audit.csv" >/dev/null || exit

# hits NAME ENTRY: the candidates ENTRY calls, one a line, into NAME.hits
hits() {
	[ -w $t/set_ftrace_filter ] || return 0
	awk 'NR == FNR { c[$1] = 1; next } ($1 in c) { print $1 }' "$cands" \
		$t/available_filter_functions | sort -u >"$o/$1.filter"
	echo nop >$t/current_tracer
	: >$t/set_ftrace_filter
	# in one write each of 64 names: the filter takes a list
	xargs -n 64 echo <"$o/$1.filter" | while read -r l; do
		echo "$l" >>$t/set_ftrace_filter
	done
	: >$t/trace
	echo function >$t/current_tracer
	# shellcheck disable=SC2086 # ENTRY is a workload and its options
	/bench run -q -w $2 -n 4 >/dev/null 2>&1
	echo nop >$t/current_tracer
	: >$t/set_ftrace_filter
	awk '!/^#/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i + 1); break } }' \
		$t/trace | sort | uniq -c | sort -rn | awk -v m="$max" 'NR <= m { print $2 }' >"$o/$1.hits"
	rm -f "$o/$1.filter"
}

for e in "$@"; do
	name=${e%%=*}
	entry=${e#*=}
	hits "$name" "$entry"
	[ -f "$o/$name.hits" ] || continue
	while read -r f; do
		# shellcheck disable=SC2086
		/bench trace -q -p fentry --label "entry=$name" -o "$o/trace-$name-$f.csv" "$f" -- \
			/bench run -q -w $entry -n "$n" >/dev/null 2>&1 || rm -f "$o/trace-$name-$f.csv"
	done <"$o/$name.hits"
done
