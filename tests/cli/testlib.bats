#!/usr/bin/env bats
# needs: -
# tests/lib.sh, what the drivers share: the ok and FAIL lines of their
# checks and the closing line; csv_col, csv_rows, csv_sum, csv_index and
# csv_meta read bench's CSV reports and result files by column name and
# key; and the co-tenant that busycheck starts is bounded and killed by
# its pid.

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
	run --separate-stderr csv_col "$T/a.csv" slope_hi kind=fit
	[ "$status" -eq 2 ]
	[ "$stderr" = "csv_col: $T/a.csv: no header with slope_hi kind" ]
	[ -z "$output" ]
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
	# nor of a column a WHERE names
	run --separate-stderr csv_rows "$T/r.csv" variant cpu=all
	[ "$status" -eq 2 ]
	[ "$stderr" = "csv_rows: $T/r.csv: no header with variant cpu" ]
}

@test "testlib: csv_rows, csv_col and csv_sum keep the rows every WHERE passes" {
	printf '# kstats-bench-csv 3\nworkload,variant,run,cpu,samples\n' >"$T/r.csv"
	printf 'w,old,all,all,12\nw,old,1,0,5\nw,old,1,1,7\nw,new,all,all,9\nv,new,all,all,4\n' >>"$T/r.csv"
	[ "$(csv_rows "$T/r.csv" cpu samples variant=old run=1)" = "$(printf '0,5\n1,7')" ]
	[ "$(csv_rows "$T/r.csv" workload variant=new cpu=all)" = "$(printf 'w\nv')" ]
	[ "$(csv_rows "$T/r.csv" samples variant=old cpu!=all)" = "$(printf '5\n7')" ]
	[ "$(csv_col "$T/r.csv" samples variant=new)" = 9 ]
	[ "$(csv_sum "$T/r.csv" samples cpu!=all)" = 12 ]
	[ "$(csv_sum "$T/r.csv" samples run=all)" = 25 ]
	[ "$(csv_sum "$T/r.csv" samples variant=none)" = 0 ]
	[ -z "$(csv_rows "$T/r.csv" samples variant=none)" ]
	# a value with spaces, as compare's verdicts
	printf 'variant,verdict\nold,significant below threshold\nnew,~\n' >"$T/c.csv"
	[ "$(csv_col "$T/c.csv" variant "verdict=significant below threshold")" = old ]
	[ "$(csv_col "$T/c.csv" variant "verdict!=significant below threshold")" = new ]
	run csv_sum "$T/r.csv" nope
	[ "$status" -eq 2 ]
}

@test "testlib: a field bench quotes is read whole: commas and quotes inside" {
	printf 'variant,labels,file\nold,"commit=1a2b|x, y branch=""main""",/h/a.csv\nnew,,/h/b.csv\n' >"$T/t.csv"
	[ "$(csv_col "$T/t.csv" file variant=old)" = /h/a.csv ]
	[ "$(csv_col "$T/t.csv" labels variant=old)" = 'commit=1a2b|x, y branch="main"' ]
	[ "$(csv_col "$T/t.csv" variant 'labels=commit=1a2b|x, y branch="main"')" = old ]
	[ "$(csv_rows "$T/t.csv" variant file)" = "$(printf 'old,/h/a.csv\nnew,/h/b.csv')" ]
	# bench trend -f csv quotes a label so
	gate_ref_history "$T/h"
	sed -i '2a # label_commit: 1a2b|x, y' "$T/h/r528_1.csv"
	./bench trend -f csv "$T/h" >"$T/tr.csv" 2>/dev/null || [ $? -eq 1 ]
	grep -q ',"commit=1a2b|x, y",' "$T/tr.csv"
	[ "$(csv_col "$T/tr.csv" file variant=old)" = "$T/h/r528_1.csv" ]
}

@test "testlib: csv_index says where a column stands" {
	printf '# unit: ns\nworkload,variant,samples\nw,old,3\n' >"$T/r.csv"
	[ "$(csv_index "$T/r.csv" samples)" = 3 ]
	[ "$(csv_index "$T/r.csv" workload)" = 1 ]
	run --separate-stderr csv_index "$T/r.csv" cpu
	[ "$status" -eq 2 ]
	[ "$stderr" = "csv_index: $T/r.csv: no header with cpu" ]
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

# driver SCRIPT: a driver that sources tests/lib.sh as "demo", SCRIPT its
# body (its code, in single quotes)
driver() {
	printf 'set -euo pipefail\nlib_prog=demo\n. tests/lib.sh\n%s\n' "$1" >"$T/demo.sh"
	run bash "$T/demo.sh"
}

@test "testlib: ok and check pass, the closing line sums them up, exit 0" {
	driver 'ok "stock: alloc ~"; check "true holds" true; info "a figure"; summary+=("slope 12"); conclude'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "ok: stock: alloc ~" ]
	[ "${lines[1]}" = "ok: true holds" ]
	[ "${lines[2]}" = "info: a figure" ]
	[[ "${lines[3]}" =~ ^"DEMO passed: stock: alloc ~;true holds;slope 12; "[0-9]+" s"$ ]]
	[ "${#lines[@]}" -eq 4 ]
}

@test "testlib: one FAIL or failed check fails the driver, exit 1, naming them" {
	# shellcheck disable=SC2016 # the driver's code, expanded there
	driver 'ok "fine"; fail "alloc: ~, expected regression"; check "false holds" false; echo "$checks checks"; conclude'
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "FAIL: alloc: ~, expected regression" ]
	[ "${lines[2]}" = "FAIL: false holds" ]
	[ "${lines[3]}" = "1 checks" ]
	[[ "${lines[4]}" =~ ^"DEMO FAILED: alloc: ~, expected regression;false holds; "[0-9]+" s"$ ]]
}

@test "testlib: plant_judge reads the alloc series of compare's or scale's CSV; plant_range widens" {
	# shellcheck disable=SC2034 # plant_judge runs it
	bench=$PWD/bench
	local f
	for f in tests/fixtures/gate/r{480,528}_{1..6}.csv tests/fixtures/scale/{stock,patched}-p*.csv; do
		sed 's/^irqdesc-alloc,old,/irqdesc-alloc,alloc,/' "$f" >"$T/${f##*/}"
	done
	[ "$(plant_judge "$T/j.csv" %+.1f change_pct -- compare "$T"/r480_{1..6}.csv -- "$T"/r528_{1..6}.csv)" = "+16.4 regression" ]
	[ "$(plant_judge "$T/j.csv" %+.1f change_pct -- compare -t 60 "$T"/r480_{1..6}.csv -- "$T"/r528_{1..6}.csv)" = "+16.4 significant below threshold" ]
	# scale's row of kind diff, not the sides' fits
	[ "$(plant_judge "$T/j.csv" %+.2f slope -- scale "$T"/stock-p*.csv -- "$T"/patched-p*.csv)" = "+4.00 regression" ]
	[ "$(plant_judge "$T/j.csv" %+.2f slope -- scale -t 100 "$T"/stock-p*.csv -- "$T"/patched-p*.csv)" = "+4.00 ok" ]
	# bench refused: nothing
	[ -z "$(plant_judge "$T/j.csv" %+.1f change_pct -- compare "$T/none.csv" -- "$T/none.csv")" ]
	[ "$(plant_range "" "" 3)" = "3 3" ]
	[ "$(plant_range 3 3 -1.5)" = "-1.5 3" ]
	[ "$(plant_range -1.5 3 5)" = "-1.5 5" ]
}
