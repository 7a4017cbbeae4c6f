#!/usr/bin/env bats
# needs: -
# tests/lib.sh, what the drivers share: csv_col, csv_rows and csv_meta
# read bench's CSV reports and result files by column name and key, and
# the co-tenant that busycheck starts is bounded and killed by its pid.

load common

setup() {
	common_setup
	# shellcheck disable=SC2034 # tests/lib.sh's say reads it
	lib_prog=testlib
	# shellcheck disable=SC1091
	. tests/lib.sh
}

@test "testlib: csv_col picks the column by name, in the first row that matches" {
	printf '# a comment\nkind,variant,slope\nfit,old,10\nfit,new,0\ndiff,new,-3\n' >"$T/a.csv"
	[ "$(csv_col "$T/a.csv" slope kind=fit variant=new)" = 0 ]
	[ "$(csv_col "$T/a.csv" slope variant=new)" = 0 ]
	[ "$(csv_col "$T/a.csv" slope kind=diff)" = -3 ]
	# the same report with its columns in another order
	printf 'slope,kind,variant\n10,fit,old\n0,fit,new\n' >"$T/b.csv"
	[ "$(csv_col "$T/b.csv" slope kind=fit variant=old)" = 10 ]
	[ -z "$(csv_col "$T/b.csv" slope variant=none)" ]
}

@test "testlib: csv_col of a column the report lacks fails, naming it" {
	printf 'kind,slope\nfit,1\n' >"$T/a.csv"
	run csv_col "$T/a.csv" slope_hi kind=fit
	[ "$status" -eq 2 ]
	[ "$output" = "csv_col: no column slope_hi" ]
}

@test "testlib: csv_rows reads a result file's columns by name, after what came before it" {
	# a VM's capture: the console's lines, the metadata, the header, rows
	printf 'a, b, c: console\n# kstats-bench-csv 3\n# possible_cpus: 64\n' >"$T/r.csv"
	printf 'workload,variant,run,cpu,samples\nw,old,all,all,7\nw,new,1,0,5\n# end\n' >>"$T/r.csv"
	[ "$(csv_rows "$T/r.csv" samples variant)" = "$(printf '7,old\n5,new')" ]
	[ "$(csv_meta "$T/r.csv" possible_cpus)" = 64 ]
	[ -z "$(csv_meta "$T/r.csv" used_cpus)" ]
}

@test "testlib: csv_rows of a column no header holds fails, naming the file" {
	printf 'workload,variant\nw,old\n' >"$T/r.csv"
	run --separate-stderr csv_rows "$T/r.csv" variant hi_ns
	[ "$status" -eq 2 ]
	[ "$stderr" = "csv_rows: $T/r.csv: no header with variant hi_ns" ]
	[ -z "$output" ]
}

@test "testlib: the fields bench scale -f csv names are the ones busycheck reads" {
	./bench scale -f csv "$F"/scale/again-p*.csv >"$T/s.csv"
	[ "$(csv_col "$T/s.csv" verdict kind=fit variant=old)" = grows ]
	[ "$(csv_col "$T/s.csv" slope kind=fit variant=old)" = 10 ]
	[ "$(csv_col "$T/s.csv" verdict kind=fit variant=new)" = flat ]
}

@test "testlib: cotenant_stop kills the pinned busy loop by its pid" {
	command -v taskset || skip "no taskset"
	cotenant_start 0 30
	pid=$cotenant_pid
	[ -n "$pid" ]
	kill -0 "$pid"
	loop=$(pgrep -P "$pid")
	[ -n "$loop" ]
	cotenant_stop
	[ -z "$cotenant_pid" ]
	run kill -0 "$pid"
	[ "$status" -ne 0 ]
	# the loop itself is gone, not only its timeout (init reaps it: 2 s)
	for ((i = 0; i < 40; i++)); do
		kill -0 "$loop" 2>/dev/null || break
		sleep 0.05
	done
	run kill -0 "$loop"
	[ "$status" -ne 0 ]
}

@test "testlib: the co-tenant ends by itself at its bound" {
	command -v taskset || skip "no taskset"
	cotenant_start 0 1
	pid=$cotenant_pid
	wait "$pid" || true
	run kill -0 "$pid"
	[ "$status" -ne 0 ]
}
