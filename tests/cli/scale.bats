#!/usr/bin/env bats
# needs: python3 mandoc scipy jq
# bench scale: the Theil-Sen slope per possible CPU over a sweep
# (lib/stats/scale.h), its gate, its formats, its bad input, scipy's
# theilslopes on the same points, and ./run.sh scale's picture. The
# fixtures (tests/fixtures/scale/gen.sh) hold runs of equal samples, so
# each run's figure is known: stock's old path costs 1000 + 10 N ns at
# N possible CPUs (one run at 256 preempted: 9000), patched's 1000 + 14 N,
# and the new path 500 +- a few ns everywhere.

load common

setup() {
	common_setup
	S=$F/scale
	STOCK=("$S"/stock-p64.csv "$S"/stock-p128.csv "$S"/stock-p256.csv "$S"/stock-p480.csv)
	PATCHED=("$S"/patched-p64.csv "$S"/patched-p128.csv "$S"/patched-p256.csv "$S"/patched-p480.csv)
	AGAIN=("$S"/again-p64.csv "$S"/again-p128.csv "$S"/again-p256.csv "$S"/again-p480.csv)
}

@test "scale: one sweep, the slopes, the preempted run ignored, the verdicts and --at, exit 0" {
	run --separate-stderr ./bench scale -s tm10 --at 480,8192 "${STOCK[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "irqdesc-alloc old  stock  tm10  +10ns/CPU [+9.892, +10.11]  a=1.00us  n=12 p=64..480 (4 counts)  grows" ]
	[ "${lines[1]}" = "  at 480: 5.80us [5.78us, 5.83us]" ]
	[ "${lines[2]}" = "  at 8192: 82.92us [82.06us, 83.81us]" ]
	[ "${lines[3]}" = "irqdesc-alloc new  stock  tm10  +0ns/CPU [-0.01202, +0.02273]  a=503.0ns  n=12 p=64..480 (4 counts)  flat" ]
	[ "${lines[4]}" = "  at 480: 503.0ns [499.4ns, 507.5ns]" ]
	[ "${lines[5]}" = "  at 8192: 503.0ns [406.7ns, 682.8ns]" ]
	[ "${lines[6]}" = "SCALE series=2 grows=1 flat=1 shrinks=0 stat=tm10 group=stock flat_ns=0" ]
	[ "${#lines[@]}" -eq 7 ]
}

@test "scale: --flat above the slope's lower end makes it flat" {
	run ./bench scale -s tm10 --flat 9.9 "${STOCK[@]}"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"  flat" ]]
	run ./bench scale -s tm10 --flat 9.8 "${STOCK[@]}"
	[[ "${lines[0]}" == *"  grows" ]]
}

@test "scale: stock -- patched: the old path's slope grew by 4 ns/CPU, exit 1; the flat one ok" {
	run ./bench scale -s tm10 "${STOCK[@]}" -- "${PATCHED[@]}"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "irqdesc-alloc old  patched  tm10  +14ns/CPU [+13.95, +14.05]  a=1.00us  n=12 p=64..480 (4 counts)  grows" ]
	[ "${lines[2]}" = "irqdesc-alloc old  B-A  +4ns/CPU [+3.878, +4.118]  threshold 0.5ns/CPU (5% of stock)  regression" ]
	[ "${lines[5]}" = "irqdesc-alloc new  B-A  -0.003653ns/CPU [-0.02934, +0.01085]  threshold 0ns/CPU (5% of stock)  ok" ]
	[ "${lines[6]}" = "SCALE series=2 grows=2 flat=2 shrinks=0 stat=tm10 A=stock B=patched gated=2 regressions=1 threshold=5% verdict=regression" ]
	# the other way round the slope shrank: no regression
	run ./bench scale -s tm10 "${PATCHED[@]}" -- "${STOCK[@]}"
	[ "$status" -eq 0 ]
	[[ "${lines[2]}" == "irqdesc-alloc old  B-A  -4ns/CPU "*"  ok" ]]
}

@test "scale: --threshold in ns/CPU or percent of A's slope decides, exactly above it" {
	local t want
	for t in 3:1 5:0 30%:1 40%:0 50%:0; do
		want=${t#*:}
		run ./bench scale -s tm10 -t "${t%:*}" "${STOCK[@]}" -- "${PATCHED[@]}"
		echo "-t ${t%:*}: $status"
		[ "$status" -eq "$want" ]
	done
	run ./bench scale -s tm10 -t 3 "${STOCK[@]}" -- "${PATCHED[@]}"
	[ "${lines[2]}" = "irqdesc-alloc old  B-A  +4ns/CPU [+3.878, +4.118]  threshold 3ns/CPU  regression" ]
}

@test "scale: the same slope again (A/A) is ok; groups sharing one vm_name are named A and B" {
	run ./bench scale -s tm10 "${STOCK[@]}" -- "${AGAIN[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[2]}" = "irqdesc-alloc old  B-A  +0ns/CPU [-0.1232, +0.1201]  threshold 0.5ns/CPU (5% of A)  ok" ]
	[[ "${lines[6]}" == *" A=A B=B gated=2 regressions=0 threshold=5% verdict=ok" ]]
	# files of mixed vm_names are a group named by its letter
	run ./bench scale -s tm10 "$S"/stock-p64.csv "$S"/patched-p128.csv
	[[ "${lines[0]}" == "irqdesc-alloc old  A  "* ]]
}

@test "scale: the fits are scipy.stats.theilslopes' on the same points (fixtures and real runs)" {
	/usr/bin/python3 -c 'import scipy' || skip "no python3-scipy (make test-deps installs it)"
	local i=0 set
	for set in "${STOCK[*]} -- ${PATCHED[*]}" "$(echo "$F"/gate/r480_{1..6}.csv "$F"/gate/r528_{1..6}.csv)"; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # the sets are words by design
		./bench scale -s tm10 -f points $set >"$T/points$i.csv" || [ $? -eq 1 ]
		# shellcheck disable=SC2086
		./bench scale -s tm10 -f csv $set >"$T/fits$i.csv" || [ $? -eq 1 ]
		csv_rows "$T/fits$i.csv" group workload variant points slope slope_lo slope_hi intercept \
			kind=fit >"$T/got$i"
		/usr/bin/python3 tests/scale_ref.py "$T/points$i.csv" >"$T/want$i"
		cat "$T/want$i"
		diff "$T/want$i" "$T/got$i"
	done
	[ "$(wc -l <"$T/want1")" -eq 4 ]
	grep -qx 'stock,irqdesc-alloc,old,12,10,9.89182692,10.1116071,1000' "$T/want1"
	# 6 + 6 real runs of bench run at 480 and 528 possible CPUs, one a file
	[ "$(csv_rows "$T/fits2.csv" variant group=A workload=irqdesc-alloc points=12 | wc -l)" -eq 2 ]
}

@test "scale: -f csv, one row per fit and per difference, --at columns" {
	run ./bench scale -s tm10 -f csv --at 8192 "${STOCK[@]}" -- "${PATCHED[@]}"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "kind,group,workload,variant,stat,points,counts,x_min,x_max,slope,slope_lo,slope_hi,intercept,intercept_at_slope_lo,intercept_at_slope_hi,verdict,threshold,spread_pct,repeats,at_8192,at_8192_lo,at_8192_hi" ]
	[ "${lines[1]}" = "fit,stock,irqdesc-alloc,old,tm10,12,4,64,480,10,9.89182692,10.1116071,1000,1029.80769,972.142857,grows,0,154.2,,82920,82063.6538,83806.4286" ]
	[ "${lines[3]}" = "diff,B-A,irqdesc-alloc,old,tm10,,,,,4,3.87847821,4.11837569,,,,regression,0.5,,,,," ]
	[ "${#lines[@]}" -eq 7 ]
}

@test "scale: -f points, every run of every file with every digit" {
	run ./bench scale -s tm10 -f points "${STOCK[@]}"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# unit: ns" ]
	[ "${lines[1]}" = "group,file,run,possible_cpus,workload,variant,tm10" ]
	[ "${lines[10]}" = "stock,$S/stock-p256.csv,3,256,irqdesc-alloc,old,9000" ]
	[ "${#lines[@]}" -eq 26 ]
}

@test "scale: --also writes more reports from the one run; a bad --also is exit 2, nothing written" {
	run ./bench scale -s tm10 --also csv="$T/s.csv" --also points="$T/p.csv" "${STOCK[@]}"
	[ "$status" -eq 0 ]
	[ "$(head -n 1 "$T/p.csv")" = "# unit: ns" ]
	diff "$T/s.csv" <(./bench scale -s tm10 -f csv "${STOCK[@]}")
	diff "$T/p.csv" <(./bench scale -s tm10 -f points "${STOCK[@]}")
	run --separate-stderr ./bench scale -s tm10 --also nope="$T/x" "${STOCK[@]}"
	[ "$status" -eq 2 ]
	[ ! -e "$T/x" ]
	run --separate-stderr ./bench scale -s tm10 --also csv="$T/no/such/dir/x.csv" "${STOCK[@]}"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--also $T/no/such/dir/x.csv"* ]]
}

@test "scale: -f json parses and holds the fits and the differences" {
	./bench scale -s tm10 -f json --at 480 "${STOCK[@]}" -- "${PATCHED[@]}" >"$T/j" || [ $? -eq 1 ]
	run /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["fits"][0]
print(d["metadata"]["group_b"], f["group"], f["slope"], f["at"][0]["possible_cpus"], f["verdict"],
      d["differences"][0]["verdict"], d["verdict"], len(d["fits"]))' "$T/j"
	echo "$output"
	[ "$output" = "patched stock 10.0 480 grows regression regression 4" ]
}

@test "scale: -f markdown, the fits and the gate as GitHub tables" {
	run ./bench scale -s tm10 -f markdown "${STOCK[@]}" -- "${PATCHED[@]}"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "**kstats-bench scale: regression** - 2 series, 2 grow with possible CPUs (Theil-Sen, tm10 per run, 95% intervals)" ]
	[ "${lines[3]}" = "| irqdesc-alloc old | stock | +10ns/CPU [+9.892, +10.11] | 1.00us | 12 at 4 counts | grows |" ]
	[ "${lines[9]}" = "| irqdesc-alloc old | +4ns/CPU [+3.878, +4.118] | 0.5ns/CPU (5% of stock) | **regression** |" ]
}

@test "scale: -o FILE holds the report, stdout nothing; the exit code stays the gate's" {
	run --separate-stderr ./bench scale -s tm10 -o "$T/r.txt" "${STOCK[@]}" -- "${PATCHED[@]}"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	cmp "$T/r.txt" <(./bench scale -s tm10 "${STOCK[@]}" -- "${PATCHED[@]}")
}

@test "scale: bad input is exit 2 with one line naming the file or option" {
	bad "$S/nopossible.csv: no possible_cpus metadata" scale "$S"/stock-p64.csv "$S"/nopossible.csv
	bad "$S/badpossible.csv: possible_cpus 'many' is not a count 1..8192" scale "$S"/badpossible.csv
	bad "$S/stock-p64.csv is in ns, $S/cycles-p64.csv in cycles" scale "$S"/stock-p64.csv "$S"/cycles-p64.csv
	bad "stock: irqdesc-alloc old: every point is at possible_cpus 64: a slope needs files at 2 counts or more" \
		scale "$S"/stock-p64.csv
	bad "--threshold: 'x' is neither NS" scale -t x "${STOCK[@]}"
	bad "--threshold: '-1' is neither NS" scale -t -1 "${STOCK[@]}"
	bad "--at: '0' is not a count 1..8192" scale --at 0 "${STOCK[@]}"
	bad "--at: '480,' is not a count" scale --at 480, "${STOCK[@]}"
	bad "--flat: '-1' is not a number >= 0" scale --flat -1 "${STOCK[@]}"
	bad "needs FILE.csv..." scale
	bad "no B files" scale "${STOCK[@]}" --
	bad "'--' twice" scale "$S"/stock-p64.csv -- "$S"/stock-p128.csv -- "$S"/stock-p256.csv
	bad "'-t': options go before the files" scale "${STOCK[@]}" -t 3
	bad "$T/none.csv: No such file or directory" scale "$T/none.csv"
}

@test "scale: --help names every option, and the man page matches it" {
	run ./bench scale -s tm10 --help
	[ "$status" -eq 0 ]
	local o
	for o in --stat --flat --at --threshold --format --output --also; do
		[[ "$output" == *"$o"* ]]
		grep -q -- "${o//-/\\\\-}" docs/kstats-bench-scale.1
	done
	[[ "$output" == *"Exit: 0 no regression, 1 B's slope exceeds A's"* ]]
	command -v mandoc || skip "no mandoc"
	run mandoc -Tlint -W warning docs/kstats-bench-scale.1
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "run.sh scale: the slopes, scale.csv, scale-points.csv and a non-blank scale.png, exit 1" {
	KSB_RESULTS=$T/res KSB_NO_DEPS=1 run ./run.sh scale -s tm10 "${STOCK[@]}" -- "${PATCHED[@]}"
	echo "$output"
	[ "$status" -eq 1 ]
	d=("$T/res"/*)
	[[ "$output" == *"results: ${d[0]}"* ]]
	[[ "$output" == *"SCALE series=2 grows=2 flat=2 shrinks=0 stat=tm10 A=stock B=patched "*"verdict=regression"* ]]
	[ "$(grep -c '^fit,' "${d[0]}/scale.csv")" -eq 4 ]
	[ "$(grep -c ',irqdesc-alloc,' "${d[0]}/scale-points.csv")" -eq 48 ]
	cmp "${d[0]}/scale.txt" <(./bench scale -s tm10 "${STOCK[@]}" -- "${PATCHED[@]}")
	png_ok "${d[0]}/scale.png" 1000 820
	# the fits are drawn with their slopes in the key
	gnuplot -c plots/scale.gp "${d[0]}/scale-points.csv" "${d[0]}/scale.csv" "$T/s.svg" ns
	grep -q 'patched: +14 ns/CPU \[+13.95, +14.05\], grows' "$T/s.svg"
	# bad input draws nothing and says why
	KSB_RESULTS=$T/res KSB_NO_DEPS=1 run ./run.sh scale "$S"/nopossible.csv "${STOCK[@]}"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no possible_cpus metadata"* ]]
	[ "$(find "$T/res" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1 ]
}

@test "scale: the default per-run figure is min, as the busy-runner study chose" {
	./bench scale -f csv "${STOCK[@]}" >"$T/d.csv"
	./bench scale -s min -f csv "${STOCK[@]}" >"$T/m.csv"
	cmp "$T/d.csv" "$T/m.csv"
	[ "$(csv_col "$T/d.csv" stat kind=fit group=stock workload=irqdesc-alloc variant=old)" = min ]
	run ./bench scale --help
	[[ "$output" == *"per-run figure: min (the smallest sample, default)"* ]]
}

@test "scale: how many runs the host's cpu pressure disturbed, on stderr, in every format" {
	sed '/^# runs: /a # psi_cpu_some_pct: 1:12.5 2:55.0 3:3.1' "$S"/stock-p64.csv >"$T/p64.csv"
	sed '/^# runs: /a # psi_cpu_some_pct: 1:41.0 2:1.0 3:2.0' "$S"/stock-p128.csv >"$T/p128.csv"
	for f in table csv; do
		run --separate-stderr ./bench scale -f $f "$T"/p64.csv "$T"/p128.csv "$S"/stock-p256.csv "$S"/stock-p480.csv
		[ "$status" -eq 0 ]
		[ "$stderr" = "bench scale: stock: 2 of 6 runs disturbed (psi cpu some > 40% of the window)" ]
	done
	# json and markdown carry it too
	run --separate-stderr ./bench scale -f json "$T"/p64.csv "$T"/p128.csv "$S"/stock-p256.csv "$S"/stock-p480.csv
	[ "$(jq -c .runs_disturbed <<<"$output")" = '{"stock":{"runs":6,"disturbed":2}}' ]
	run --separate-stderr ./bench scale -f markdown "$T"/p64.csv "$T"/p128.csv "$S"/stock-p256.csv "$S"/stock-p480.csv
	[ "${lines[-1]}" = "- stock: 2 of 6 runs disturbed (psi cpu some > 40% of the window)" ]
	# files that recorded nothing say nothing
	run --separate-stderr ./bench scale "${STOCK[@]}"
	[ -z "$stderr" ]
	run ./bench scale -f json "${STOCK[@]}"
	[ "$(jq -c .runs_disturbed <<<"$output")" = null ]
}
