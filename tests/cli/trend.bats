#!/usr/bin/env bats
# needs: python3 jq busybox
# bench trend: change points over a history of runs (lib/stats/trend.h), and
# the independent reference its unit test is checked against.

load common

setup() {
	common_setup
	# $T as a markdown cell holds it (lib/subcmd/textfmt.h's escapes)
	# shellcheck disable=SC2001
	md_T=$(sed 's/[][\\|*_~`<]/\\&/g' <<<"$T")
}

@test "the Python reference still writes the fixture test_trend checks the C against" {
	run python3 tests/trend_ref.py --check "$F/trend-ref.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^case ' "$F/trend-ref.txt")" -eq 7 ]
	[ "$(grep -c '^cp ' "$F/trend-ref.txt")" -eq 6 ]
}

@test "trend: the step to 528 possible CPUs, found at its first run, in time order whatever the order given" {
	gate_ref_history "$T/h"
	run ./bench trend "$T"/h/r528_2.csv "$T"/h/r480b_1.csv "$T"/h/r480a_3.csv "$T"/h/r528_3.csv \
		"$T"/h/r480a_1.csv "$T"/h/r480b_3.csv "$T"/h/r528_1.csv "$T"/h/r480a_2.csv "$T"/h/r480b_2.csv
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "irqdesc-alloc old tm10  2025-01-07T02:00:00Z $T/h/r528_1.csv run 1 (#13 of 18)  9.75us -> 11.17us  +15.0% [+11.9%, +17.6%]  p=0.0005 n=12+6  regression, recent" ]
	[ "${lines[1]}" = "irqdesc-alloc new tm10  no change point in 18 runs  207.3ns +-3%" ]
	[ "${lines[2]}" = "irqdesc-alloc reference tm10 (median run): 8.93us; figures at it by their share, fitted within each file: old 0.81 new 0.16" ]
	[ "${lines[3]}" = "TREND series=2 files=9 change_points=1 regressions=1 improvements=0 failing=1 stat=tm10 alpha=0.001 min_change=5% window=50 recent=12 seed=1 reference=scaled order=timestamp verdict=regression" ]
}

@test "trend: --recent decides the exit; the same output twice, and the change with another seed" {
	gate_ref_history "$T/h"
	# the change is in the third newest of 9 files: --recent counts nights, not runs
	run ./bench trend --recent 3 "$T/h"
	[ "$status" -eq 1 ]
	run ./bench trend --recent 2 "$T/h"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"  regression" ]]
	[[ "$output" == *"failing=0 "*"verdict=ok"* ]]
	# the same output twice: both a regression, neither empty
	./bench trend "$T/h" >"$T/a" 2>/dev/null || [ $? -eq 1 ]
	./bench trend "$T/h" >"$T/b" 2>/dev/null || [ $? -eq 1 ]
	grep -q '^TREND .* verdict=regression$' "$T/a"
	cmp "$T/a" "$T/b"
	run ./bench trend --seed 7 "$T/h"
	[[ "${lines[0]}" == "irqdesc-alloc old tm10  2025-01-07T02:00:00Z $T/h/r528_1.csv run 1 (#13 of 18)  "* ]]
}

@test "trend: A/A nights give no change point, exit 0" {
	gate_ref_history "$T/h"
	run ./bench trend "$T"/h/r480*.csv
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "irqdesc-alloc old tm10  no change point in 12 runs  9.74us +-3%" ]
	[ "${lines[1]}" = "irqdesc-alloc new tm10  no change point in 12 runs  203.7ns +-4%" ]
	[[ "$output" == *"TREND series=2 files=6 change_points=0 "*" verdict=ok" ]]
}

@test "trend: a directory is its *.csv, by name; other and hidden files are left alone" {
	gate_ref_history "$T/h"
	echo junk >"$T/h/notes.txt"
	echo junk >"$T/h/.kstats-bench.x.csv"
	run ./bench trend "$T/h/"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == *" $T/h/r528_1.csv run 1 (#13 of 18) "* ]]
	[[ "$output" == *" files=9 "* ]]
}

@test "trend: a FIFO or a directory among a directory's *.csv is refused, named, never waited on" {
	gate_ref_history "$T/h"
	mkfifo "$T/h/zz.csv"
	# a FIFO that is no *.csv is none of the history's: left alone
	mkfifo "$T/h/notes"
	# bounded: a reader that opened the FIFO would wait for a writer for ever
	run --separate-stderr timeout 30 ./bench trend "$T/h/"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "bench trend: $T/h/zz.csv: not a regular file (a FIFO)" ]
	run --separate-stderr timeout 30 ./bench trend -c "$T/h" "$F/runs6-480.csv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench trend: --control: $T/h/zz.csv: not a regular file (a FIFO) (see 'bench trend --help')" ]
	# a night's directory, for --slope
	rm "$T/h/zz.csv"
	mkdir -p "$T/n/night1/x.csv"
	cp "$T/h/r480a_1.csv" "$T/n/night1/"
	run --separate-stderr timeout 30 ./bench trend --slope "$T/n"
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench trend: $T/n/night1/x.csv: not a regular file (a directory)" ]
}

@test "trend: files without timestamps keep the order given, and the output says so" {
	run --separate-stderr ./bench trend "$F"/gate-ref/r480a_*.csv "$F"/gate-ref/r480b_*.csv "$F"/gate-ref/r528_*.csv
	[ "$status" -eq 1 ]
	[ "${stderr_lines[0]}" = "bench trend: note: 9 of 9 files have no timestamp metadata: the runs are taken in the order given" ]
	[ "${stderr_lines[1]}" = "bench trend: note: no --control: a change point may be a shift of the machine's own speed; a pinned baseline measured beside each night takes those out (docs/trend-control.md)" ]
	[[ "${lines[0]}" == *" $F/gate-ref/r528_1.csv run 1 (#13 of 18) "* ]]
	[[ "$output" == *" order=given "* ]]
	# in another order the step is elsewhere: the order given is the order taken
	run --separate-stderr ./bench trend "$F"/gate-ref/r528_*.csv "$F"/gate-ref/r480a_*.csv "$F"/gate-ref/r480b_*.csv
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *" $F/gate-ref/r480a_1.csv run 1 (#7 of 18) "*"  improvement, recent" ]]
}

@test "trend: the raw per-run figures are compare's, in the same order; one-run format 1 files count as one run each" {
	gate_ref_history "$T/h"
	./bench compare -r off -s median -f runs "$T"/h/r480*.csv -- "$T"/h/r528*.csv >"$T/c"
	./bench trend -r off -s median -f runs "$T"/h/r480*.csv "$T"/h/r528*.csv >"$T/t"
	[ "$(head -1 "$T/t")" = "# unit: ns" ]
	[ "$(wc -l <"$T/t")" -eq 38 ]
	diff <(csv_rows "$T/c" workload variant median | sort -s -t, -k1,2) \
		<(csv_rows "$T/t" workload variant median | sort -s -t, -k1,2)
	# the raw old path's step comes out one run early (run 12 was slow), the new path's on it
	run --separate-stderr ./bench trend "$F"/gate/r480_{1..12}.csv "$F"/gate/r528_{1..6}.csv
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" =~ ^"irqdesc-alloc old tm10  $F/gate/r"(480_12|528_1|528_2)".csv run 1 (#"(12|13|14)" of 18)  " ]]
	[[ "${lines[0]}" == *"  regression, recent" ]]
	[[ "${lines[1]}" == "irqdesc-alloc new tm10  $F/gate/r528_1.csv run 1 (#13 of 18)  "*" n=12+6  regression, recent" ]]
	[[ "$output" == *" reference=raw order=given "* ]]
}

@test "trend -f csv, runs, json, markdown" {
	gate_ref_history "$T/h"
	run --separate-stderr ./bench trend -f csv "$T/h"
	[ "$status" -eq 1 ]
	# the note goes to stderr in every format, never into the report
	[ "$stderr" = "bench trend: note: no --control: a change point may be a shift of the machine's own speed; a pinned baseline measured beside each night takes those out (docs/trend-control.md)" ]
	[ "${lines[0]}" = "workload,variant,stat,index,runs,timestamp,labels,file,run,before,after,change_pct,ci_lo_pct,ci_hi_pct,p,n_before,n_after,verdict,recent" ]
	[ "${lines[1]}" = "irqdesc-alloc,old,tm10,13,18,2025-01-07T02:00:00Z,,$T/h/r528_1.csv,1,9749.41,11165.8,15.01,11.87,17.55,0.000500,12,6,regression,yes" ]
	[ "${#lines[@]}" -eq 2 ]
	./bench trend -f runs "$T/h" >"$T/runs" 2>/dev/null || [ $? -eq 1 ]
	[ "$(sed -n 2p "$T/runs")" = "workload,variant,index,timestamp,run,tm10,segment_median" ]
	[ "$(csv_rows "$T/runs" segment_median variant=old | uniq | tr '\n' ' ')" = "9749.41 11165.8 " ]
	[ "$(csv_rows "$T/runs" run variant=new | wc -l)" -eq 18 ]
	./bench trend -f json "$T/h" >"$T/j" 2>/dev/null || [ $? -eq 1 ]
	python3 -m json.tool "$T/j" >/dev/null
	run jq -c '[.verdict, .failing, (.series | length), .series[0].change_points[0].index, .series[0].change_points[0].before.runs, .series[0].change_points[0].after.runs, .series[0].change_points[0].verdict, (.series[1].change_points | length), .metadata.order]' "$T/j"
	[ "$output" = '["regression",1,2,13,12,6,"regression",0,"timestamp"]' ]
	run ./bench trend -f markdown "$T/h"
	[ "${lines[0]}" = "**bench trend: regression** - 1 change point in 2 series over 9 files (tm10, alpha 0.001, min change 5%, reference scaled)" ]
	[ "${lines[1]}" = "| series | first run after | before | after | change [95% CI] | p | runs | verdict |" ]
	[ "${lines[3]}" = "| irqdesc-alloc old tm10 | 2025-01-07T02:00:00Z ${md_T}/h/r528\\_1.csv run 1 (#13 of 18) | 9.75us | 11.17us | +15.0% [+11.9%, +17.6%] | 0.0005 | 12+6 | regression, **recent** |" ]
	[ "${lines[4]}" = "| irqdesc-alloc new tm10 | no change point | 207.3ns | | | | 18 | ~ |" ]
}

@test "trend: where is the timestamp, the labels (bench run --label) and the file of the first run after" {
	gate_ref_history "$T/h"
	sed -i '2a # label_commit: 1a2b3c|x, y\n# label_branch: main' "$T/h/r528_1.csv"
	run ./bench trend "$T/h"
	[[ "${lines[0]}" == "irqdesc-alloc old tm10  2025-01-07T02:00:00Z commit=1a2b3c|x, y branch=main $T/h/r528_1.csv run 1 (#13 of 18)  "* ]]
	run ./bench trend -f csv "$T/h"
	[[ "${lines[1]}" == "irqdesc-alloc,old,tm10,13,18,2025-01-07T02:00:00Z,\"commit=1a2b3c|x, y branch=main\",$T/h/r528_1.csv,1,"* ]]
	./bench trend -f json "$T/h" >"$T/j" 2>/dev/null || [ $? -eq 1 ]
	[ "$(jq -c '.series[0].change_points[0].labels' "$T/j")" = '{"commit":"1a2b3c|x, y","branch":"main"}' ]
	run ./bench trend -f markdown "$T/h"
	[[ "${lines[3]}" == "| irqdesc-alloc old tm10 | 2025-01-07T02:00:00Z commit=1a2b3c\\|x, y branch=main ${md_T}/h/r528\\_1.csv run 1 (#13 of 18) | "* ]]
}

@test "trend: bad input is one line naming the option or file, exit 2" {
	gate_ref_history "$T/h"
	bad "needs FILE.csv... or a DIR of them" trend
	bad "--window 10 cannot reach --alpha 0.001: its tests' smallest p is above it (18 runs or more)" trend -w 10 "$T/h"
	bad "--window: '5' is not an integer in 6..1000" trend -w 5 "$T/h"
	bad "--window: '1001' is not an integer in 6..1000" trend -w 1001 "$T/h"
	bad "--alpha: '0' is not a number in [0.000001, 1)" trend -a 0 "$T/h"
	bad "--alpha: '1e-7' is not a number in [0.000001, 1)" trend -a 1e-7 "$T/h"
	bad "--min-change: '-1' is not a number >= 0 (percent)" trend -t -1 "$T/h"
	bad "--recent: '0' is not an integer in 1..4294967295" trend --recent 0 "$T/h"
	bad "--format: 'x' is not one of table, csv, runs, json, markdown" trend -f x "$T/h"
	bad "FILE|DIR '$T/nope.csv': No such file or directory" trend "$T/nope.csv"
	bad "FILE|DIR '': No such file or directory" trend ""
	mkdir "$T/empty"
	bad "$T/empty: no .csv files in it" trend "$T/empty"
	sed -i 's/^# timestamp: 2025-01-03T02:00:00Z/# timestamp: 2025-01-03 02:00/' "$T/h/r480a_3.csv"
	bad "$T/h/r480a_3.csv: timestamp '2025-01-03 02:00' is not YYYY-MM-DDTHH:MM:SSZ (UTC)" trend "$T/h"
	bad "has no reference rows" trend -r on "$F/gate/r480_1.csv" "$F/gate/r480_2.csv"
	sed 's/^# unit: ns$/# unit: cycles/' "$F/gate/r480_2.csv" >"$T/cycles.csv"
	bad "$F/gate/r480_1.csv is in ns, $T/cycles.csv in cycles: the files must measure in one unit" \
		trend "$F/gate/r480_1.csv" "$T/cycles.csv"
	head -60 "$F/gate-ref/r480a_1.csv" >"$T/cut.csv"
	sed -i '60s/,[0-9.]*$/,0.5/' "$T/cut.csv"
	bad "$T/cut.csv:60: " trend "$T/cut.csv"
}

@test "trend --help: exit 0, every option, within 80 columns" {
	run ./bench trend --help
	[ "$status" -eq 0 ]
	for o in --stat --reference --alpha --min-change --window --recent --seed --format; do
		[[ "$output" == *"$o"* ]]
	done
	[ -z "$(awk 'length > 80' <<<"$output")" ]
}

# ---- a control measured beside every night (docs/trend-control.md) ----

# nights DIR [NIGHTS SEED STEP_NIGHT STEP_PCT]: DIR/subject and DIR/control,
# one file a night: shared level shifts of up to +-20% on both sides, 1%
# noise per run, the subject alone +10% from night 25 of 40 (seeded)
nights() {
	/usr/bin/python3 tests/cli/synth_nights.py "$1" "${2:-40}" "${3:-1}" "${4:-25}" "${5:-10}"
}

@test "trend --control: the subject's +10% step at its night, none of the shared shifts, the subject's own medians" {
	nights "$T/n"
	run --separate-stderr ./bench trend --control "$T/n/control" "$T/n/subject"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "synth old tm10/control  2025-01-25T02:00:00Z $T/n/subject/n025.csv (#25 of 40)  x1.110 -> x1.222  +10.1% [+9.6%, +10.7%]  p=0.0005 n=24+16  regression  subject 11.07us -> 11.60us, control 9.92us -> 9.49us, theta 0.97" ]
	[ "${lines[1]}" = "TREND series=1 files=40 change_points=1 regressions=1 improvements=0 failing=0 stat=tm10 alpha=0.001 min_change=5% window=50 recent=12 seed=1 reference=raw order=timestamp verdict=ok control=paired" ]
	[ "${#lines[@]}" -eq 2 ]
	[ -z "$stderr" ]
	# the subject alone: the machine's shifts are change points too, and the note says why
	run --separate-stderr ./bench trend "$T/n/subject"
	[[ "$output" == *"TREND series=1 files=40 change_points=7 "* ]]
	[[ "$output" == *" 2025-01-25T02:00:00Z $T/n/subject/n025.csv run 1 (#73 of 120) "* ]]
	[ "$stderr" = "bench trend: note: no --control: a change point may be a shift of the machine's own speed; a pinned baseline measured beside each night takes those out (docs/trend-control.md)" ]
	# the control given file by file is the same; --recent counts nights
	local f c=()
	for f in "$T"/n/control/*.csv; do c+=(-c "$f"); done
	run ./bench trend --recent 16 "${c[@]}" "$T/n/subject"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == *"  regression, recent  subject 11.07us -> 11.60us, control 9.92us -> 9.49us, theta 0.97" ]]
	run ./bench trend --recent 15 "${c[@]}" "$T/n/subject"
	[ "$status" -eq 0 ]
}

@test "trend --control: a control file without a timestamp is said, as a subject's is" {
	nights "$T/n"
	sed -i '/^# timestamp: /d' "$T/n/control/n003.csv"
	run --separate-stderr ./bench trend --control "$T/n/control" "$T/n/subject"
	[ "$status" -eq 0 ]
	[ "$stderr" = "bench trend: note: --control: 1 of 40 files have no timestamp metadata: the control's nights are taken in the order given, and paired with the subject's in that order" ]
	# and both sides, each its own note
	sed -i '/^# timestamp: /d' "$T/n/subject/n005.csv"
	run --separate-stderr ./bench trend --control "$T/n/control" "$T/n/subject"
	[ "${stderr_lines[0]}" = "bench trend: note: 1 of 40 files have no timestamp metadata: the runs are taken in the order given" ]
	[[ "${stderr_lines[1]}" == "bench trend: note: --control: 1 of 40 files have no timestamp metadata: "* ]]
}

@test "trend: how many runs the host's cpu pressure disturbed, each side's when paired" {
	nights "$T/n"
	# two files of the subject, one of the control recorded it
	sed -i '2a # psi_cpu_some_pct: 1:0.50 2:90.00 3:40.01' "$T/n/subject/n003.csv"
	sed -i '2a # psi_cpu_some_pct: 1:40.00 2:0.00 3:1.00' "$T/n/subject/n007.csv"
	sed -i '2a # psi_cpu_some_pct: 1:75.00 2:0.00 3:1.00' "$T/n/control/n007.csv"
	run --separate-stderr ./bench trend "$T/n/subject"
	[ "${lines[-1]}" = "2 of 6 runs disturbed (psi cpu some > 40% of the window)" ]
	run --separate-stderr ./bench trend -c "$T/n/control" "$T/n/subject"
	[ "$status" -eq 0 ]
	[ "${lines[-2]}" = "subject: 2 of 6 runs disturbed (psi cpu some > 40% of the window)" ]
	[ "${lines[-1]}" = "control: 1 of 3 runs disturbed (psi cpu some > 40% of the window)" ]
	[ "${#lines[@]}" -eq 4 ]
	# the control without: not recorded; the table's text only
	sed -i '/^# psi_cpu_some_pct: /d' "$T/n/control/n007.csv"
	run --separate-stderr ./bench trend -c "$T/n/control" "$T/n/subject"
	[ "${lines[-1]}" = "control: runs disturbed: not recorded" ]
	run --separate-stderr ./bench trend -f csv -c "$T/n/control" "$T/n/subject"
	[[ "$output" != *"disturbed"* ]]
	# nobody recorded it: no line
	sed -i '/^# psi_cpu_some_pct: /d' "$T"/n/subject/n00[37].csv
	run --separate-stderr ./bench trend -c "$T/n/control" "$T/n/subject"
	[ "${#lines[@]}" -eq 2 ]
}

@test "trend --control: A/A nights under the same shifts, no change point; alone, five" {
	nights "$T/aa" 40 2 0 0
	run ./bench trend -c "$T/aa/control" "$T/aa/subject"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "synth old tm10/control  no change point in 40 nights  x1.112 +-0%  subject 10.37us, control 9.36us, theta 0.97" ]
	[[ "${lines[1]}" == "TREND series=1 files=40 change_points=0 "*" control=paired" ]]
	run ./bench trend "$T/aa/subject"
	[[ "$output" == *"TREND series=1 files=40 change_points=5 "* ]]
}

@test "trend --control -f csv, runs, json, markdown: the paired figure and both sides' own" {
	nights "$T/n"
	run ./bench trend -f csv -c "$T/n/control" "$T/n/subject"
	[ "${lines[0]}" = "workload,variant,stat,index,runs,timestamp,labels,file,run,before,after,change_pct,ci_lo_pct,ci_hi_pct,p,n_before,n_after,verdict,recent,subject_before,subject_after,control_before,control_after,theta" ]
	[ "${lines[1]}" = "synth,old,tm10,25,40,2025-01-25T02:00:00Z,,$T/n/subject/n025.csv,3,1.10968,1.22161,10.13,9.59,10.73,0.000500,24,16,regression,no,11073.6,11602.5,9915.12,9490.25,0.9658" ]
	./bench trend -f runs -c "$T/n/control" "$T/n/subject" >"$T/runs"
	[ "$(sed -n 2p "$T/runs")" = "workload,variant,index,timestamp,run,tm10,segment_median,subject,control,theta" ]
	[ "$(sed -n 3p "$T/runs")" = "synth,old,1,2025-01-01T02:00:00Z,3,1.09716,1.10968,8520.5,7715.25,0.9658" ]
	[ "$(wc -l <"$T/runs")" -eq 42 ]
	run jq -c '[.metadata.control, .series[0].theta, .series[0].change_points[0].index, .series[0].change_points[0].subject, .series[0].change_points[0].control]' \
		<(./bench trend -f json -c "$T/n/control" "$T/n/subject")
	[ "$output" = '["paired",0.9658,25,{"before":11073.625,"after":11602.5},{"before":9915.125,"after":9490.25}]' ]
	run ./bench trend -f markdown -c "$T/n/control" "$T/n/subject"
	[[ "${lines[0]}" == *"; each night against its control)" ]]
	[[ "${lines[3]}" == "| synth old tm10/control | 2025-01-25T02:00:00Z "*" (#25 of 40) | x1.110 | x1.222 | +10.1% [+9.6%, +10.7%] | 0.0005 | 24+16 | regression; subject 11.07us -> 11.60us, control 9.92us -> 9.49us, theta 0.97 |" ]]
	run jq -r '.tests[0].misc.theta' <(./bench trend -f kcidb -c "$T/n/control" "$T/n/subject")
	[ "$output" = "0.9658" ]
}

@test "trend --control: nights that do not pair are refused, one line, exit 2" {
	nights "$T/n"
	mv "$T/n/control/n040.csv" "$T/last.csv"
	bad "40 subject files, 39 control files: the nights pair by order, one file each" \
		trend -c "$T/n/control" "$T/n/subject"
	sed 's/^# timestamp: .*/# timestamp: 2025-03-01T02:00:00Z/' "$T/last.csv" >"$T/n/control/n040.csv"
	bad "night 40: $T/n/subject/n040.csv (2025-02-09T02:00:00Z) and $T/n/control/n040.csv (2025-03-01T02:00:00Z) are more than 12 hours apart: a night missing on one side?" \
		trend -c "$T/n/control" "$T/n/subject"
	sed 's/^synth,old,/synth,new,/' "$T/last.csv" >"$T/n/control/n040.csv"
	bad "$T/n/control/n040.csv: no synth old runs in it (night 40)" trend -c "$T/n/control" "$T/n/subject"
	mkdir "$T/empty"
	bad "--control: $T/empty: no .csv files in it" trend -c "$T/empty" "$T/n/subject"
	bad "--control: '$T/nope.csv': No such file or directory" trend -c "$T/nope.csv" "$T/n/subject"
	bad "--control: '': No such file or directory" trend -c '' "$T/n/subject"
}

@test "trend --control: the subject's own files, by link or ./, or a control in another unit: exit 2" {
	nights "$T/n"
	bad "--control: $T/n/subject/n001.csv is the subject's $T/n/subject/n001.csv: a control must be measured apart from the subject" \
		trend -c "$T/n/subject" "$T/n/subject"
	ln "$T/n/subject/n007.csv" "$T/hard.csv"
	ln -s "$T/n/subject/n003.csv" "$T/soft.csv"
	bad "--control: $T/hard.csv is the subject's $T/n/subject/n007.csv: a control must be measured apart from the subject" \
		trend -c "$T/hard.csv" "$T/n/subject"
	bad "--control: $T/soft.csv is the subject's $T/n/subject/n003.csv: a control must be measured apart from the subject" \
		trend -c "$T/soft.csv" "$T/n/subject"
	bad "--control: $T/n/./subject/n002.csv is the subject's $T/n/subject/n002.csv: a control must be measured apart from the subject" \
		trend -c "$T/n/./subject/n002.csv" "$T/n/subject"
	# the --also report is not written either
	bad "--control: $T/n/subject/n001.csv is the subject's $T/n/subject/n001.csv: a control must be measured apart from the subject" \
		trend --also "csv=$T/out.csv" -c "$T/n/subject" "$T/n/subject"
	[ ! -e "$T/out.csv" ]
	sed -i 's/^# unit: ns$/# unit: cycles/' "$T"/n/control/*.csv
	bad "$T/n/subject/n001.csv is in ns, $T/n/control/n001.csv in cycles: the files must measure in one unit" \
		trend -c "$T/n/control" "$T/n/subject"
}

# ---- the history of a sweep: the nightly slope (trend --slope) ----

# sweeps DIR [NIGHTS SEED STEP_NIGHT STEP_PCT]: DIR/nNNN/stock-pP.csv at
# 64, 128, 256 and 480 possible CPUs, 2000 ns + 20 ns per CPU, 1% noise,
# the per-CPU part +10% from night 25 of 40 (seeded)
sweeps() {
	/usr/bin/python3 tests/cli/synth_sweeps.py "$1" "${2:-40}" "${3:-1}" "${4:-25}" "${5:-10}"
}

@test "trend --slope: a +10% step of the slope per CPU found at its night, and nothing else" {
	sweeps "$T/s"
	run --separate-stderr ./bench trend --slope "$T/s"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "synth old tm10 slope  2025-01-25T02:00:00Z $T/s/n025 (#25 of 40)  19.95ns/CPU -> 21.96ns/CPU  +10.1% [+9.5%, +10.7%]  p=0.0005 n=24+16  regression" ]
	[ "${lines[1]}" = "TREND series=1 files=40 change_points=1 regressions=1 improvements=0 failing=0 stat=tm10 alpha=0.001 min_change=5% window=50 recent=12 seed=1 reference=raw order=timestamp verdict=ok figure=slope" ]
	[ "${#lines[@]}" -eq 2 ]
	# each night's directory given, or the nights' parent: the same
	run ./bench trend --slope "$T"/s/n*/
	[ "${lines[0]}" = "synth old tm10 slope  2025-01-25T02:00:00Z $T/s/n025 (#25 of 40)  19.95ns/CPU -> 21.96ns/CPU  +10.1% [+9.5%, +10.7%]  p=0.0005 n=24+16  regression" ]
	# a night is one figure: --recent counts nights, a run is the night's 12
	run ./bench trend --slope --recent 16 -f csv "$T/s"
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "synth,old,tm10,25,40,2025-01-25T02:00:00Z,,$T/s/n025,12,19.9462,21.9554,10.08,9.49,10.67,0.000500,24,16,regression,yes" ]
	run jq -c '[.metadata.figure, .series[0].change_points[0].index]' <(./bench trend --slope -f json "$T/s")
	[ "$output" = '["slope",25]' ]
	# without --slope the runs of a sweep mix four counts: not the slope's step
	run ./bench trend "$T/s"
	[[ "$output" != *"figure=slope"* ]]
}

@test "trend --slope: A/A sweeps, no change point; --control pairs the nights' slopes" {
	sweeps "$T/aa" 40 3 0 0
	run ./bench trend --slope "$T/aa"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "synth old tm10 slope  no change point in 40 nights  20.07ns/CPU +-1%" ]
	sweeps "$T/s"
	sweeps "$T/c" 40 2 0 0
	run ./bench trend --slope --control "$T/c" "$T/s"
	[ "${lines[0]}" = "synth old tm10 slope/control  2025-01-25T02:00:00Z $T/s/n025 (#25 of 40)  x0.999 -> x1.099  +10.1% [+9.5%, +10.7%]  p=0.0005 n=24+16  regression  subject 19.95ns/CPU -> 21.96ns/CPU, control 20.03ns/CPU -> 19.96ns/CPU, theta 0.00" ]
	[[ "${lines[1]}" == *" control=paired figure=slope" ]]
}

@test "trend --slope: a file without possible_cpus, a night at one count, a falling slope: one line, exit 2" {
	sweeps "$T/s" 6
	grep -v '^# possible_cpus:' "$T/s/n003/stock-p64.csv" >"$T/p64" && mv "$T/p64" "$T/s/n003/stock-p64.csv"
	bad "$T/s/n003/stock-p64.csv: no possible_cpus metadata: --slope fits each night's runs against it" \
		trend --slope "$T/s"
	sweeps "$T/s" 6
	rm "$T"/s/n004/stock-p{128,256,480}.csv
	bad "$T/s/n004: synth old: its 3 runs are at one possible-CPU count: a night's slope needs a sweep of two or more" \
		trend --slope "$T/s"
	sweeps "$T/s" 6
	sed -i 's/^# possible_cpus: 480/# possible_cpus: 32/' "$T/s/n005/stock-p480.csv"
	sed -i 's/^# possible_cpus: 256/# possible_cpus: 48/' "$T/s/n005/stock-p256.csv"
	run ./bench trend --slope "$T/s"
	[ "$status" -eq 2 ]
	[[ "$output" == "bench trend: $T/s/n005: synth old: the slope is -"*" ns per CPU, not above 0: trend follows a cost that grows with possible CPUs" ]]
}
