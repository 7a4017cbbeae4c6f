#!/usr/bin/env bats
# needs: shellcheck python3 jq
# run.sh (the one command), bench compare (the CI gate) on fixture CSVs,
# and every gnuplot script rendered for real.

load common

setup() {
	common_setup
	export KSB_RESULTS=$T/results
}

@test "run.sh and every script under tests/ are shellcheck-clean" {
	command -v shellcheck || skip "shellcheck not installed"
	# -x: the drivers source tests/lib.sh; the #!/bin/sh ones are read as sh
	shellcheck -x run.sh .ci/run tests/*.sh tests/vm/*.sh tests/kernel/*.sh tests/perf/*.sh
}

@test "run.sh --help exits 0 and names the subcommands" {
	run ./run.sh --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"./run.sh compare"* ]]
	[[ "$output" == *"./run.sh sweep"* ]]
	[[ "$output" == *"./run.sh trend"* ]]
}

@test "run.sh: deps present, options passed through, a stamped results directory" {
	run ./run.sh -n 64 --possible-cpus 16 --cache cold
	[ "$status" -eq 0 ]
	dirs=("$KSB_RESULTS"/*)
	[ "${#dirs[@]}" -eq 1 ]
	d=${dirs[0]}
	[[ "$(basename "$d")" =~ ^[0-9]{8}T[0-9]{6}Z$ ]]
	[ "$(stat -c %a "$d")" = 755 ]
	for f in bench.csv table-old.txt table-new.txt summary.txt output.txt \
		hist.png cdf.png heatmap.png hist.svg cdf.svg heatmap.svg; do
		[ -f "$d/$f" ] || { echo "missing $f"; false; }
		[ "$(stat -c %a "$d/$f")" = 644 ]
	done
	[ "$(csv_meta "$d/bench.csv" possible_cpus)" = 16 ]
	[ "$(csv_meta "$d/bench.csv" samples_per_variant)" = 64 ]
	[ "$(csv_meta "$d/bench.csv" cache)" = cold ]
	./bench show -v old "$d/bench.csv" >"$T/table-old.txt"
	cmp "$T/table-old.txt" "$d/table-old.txt"
	head -1 "$d/table-new.txt" | grep -q '^BUCKET'
	[[ "$output" == *"speedup (old mean / new mean): "* ]]
	[[ "$output" == *"results: $d"* ]]
	for p in hist cdf heatmap; do png_ok "$d/$p.png"; done
}

@test "run.sh never reuses a results directory" {
	now=$(date -u +%s)
	mkdir -p "$KSB_RESULTS"
	for s in 0 1 2 3 4 5; do
		mkdir "$KSB_RESULTS/$(date -u -d "@$((now + s))" +%Y%m%dT%H%M%SZ)"
	done
	./run.sh -q -n 16 >/dev/null
	./run.sh -q -n 16 >/dev/null
	# the six empty ones are untouched, two new ones hold a run each
	[ "$(find "$KSB_RESULTS" -mindepth 1 -maxdepth 1 -type d -empty | wc -l)" -eq 6 ]
	[ "$(find "$KSB_RESULTS" -name bench.csv | wc -l)" -eq 2 ]
}

@test "run.sh passes a bad option's exit 2 through and leaves no directory" {
	run ./run.sh --possible-cpus 99999
	[ "$status" -eq 2 ]
	[ -z "$(find "$KSB_RESULTS" -mindepth 1 2>/dev/null)" ]
}

@test "run.sh sweep keeps one CSV per point, sweep.csv and its plot" {
	run ./run.sh sweep --from 64 --to 256 -n 64
	[ "$status" -eq 0 ]
	d=$(echo "$KSB_RESULTS"/*)
	for p in 64 128 256; do [ -f "$d/sweep-$p.csv" ]; done
	[ "$(grep -c '^[0-9]' "$d/sweep.csv")" -eq 3 ]
	# bench scale -f sweep wrote it: each row the point's SUMMARY figures
	sed -n 2p "$d/sweep.csv" | grep -qx 'possible_cpus,old_mean,new_mean,old_p50,new_p50,old_p99,new_p99'
	grep -o 'old_mean=[0-9.]*' "$d/sweep-128.txt" | grep -qx "old_mean=$(csv_col "$d/sweep.csv" old_mean possible_cpus=128)"
	png_ok "$d/sweep.png"
}

@test "run.sh sweep rejects a bad range" {
	run ./run.sh sweep --from 100000
	[ "$status" -eq 2 ]
	run ./run.sh sweep --from 512 --to 64
	[ "$status" -eq 2 ]
	# one count is no sweep: bench scale would find no slope
	run ./run.sh sweep --from 64 --to 100
	[ "$status" -eq 2 ]
	[[ "$output" == *"a sweep needs two counts or more"* ]]
}

# ---- compare: the gate on runs ----
# tests/fixtures/gate/: real format-1 runs of the gate study (one run a
# file, -n 8192, --cache cold), 480 and 528 possible CPUs;
# runs6-480.csv and runs6-576.csv: format 2, bench run --runs 6 -n 512.

G=tests/fixtures/gate

@test "compare: identical sides are '~' and exit 0" {
	run ./run.sh compare "$F/runs6-480.csv" "$F/runs6-480.csv"
	[ "$status" -eq 0 ]
	[ "$(grep -c '  ~$' <<<"$output")" -eq 2 ]
	[[ "$output" == *"COMPARE series=2 regressions=0 improvements=0 stat=tm10 alpha=0.05 threshold=5% verdict=ok"* ]]
}

@test "compare: A/A, 6 runs a side pooled over 12 files, exit 0" {
	run ./bench compare $G/r480_{1..6}.csv -- $G/r480_{7..12}.csv
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "irqdesc-alloc old tm10  13.15us +-4% -> 13.51us +-6%  +4.0% [-1.5%, +9.4%]  p=0.120 n=6+6  ~" ]
	[ "${lines[1]}" = "irqdesc-alloc new tm10  252.2ns +-3% -> 265.2ns +-7%  +4.8% [-2.2%, +8.2%]  p=0.120 n=6+6  ~" ]
	[[ "$output" == *"verdict=ok"* ]]
}

@test "compare: 528 against 480 possible CPUs is a regression, exit 1" {
	run ./bench compare $G/r480_{1..6}.csv -- $G/r528_{1..6}.csv
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "irqdesc-alloc old tm10  13.15us +-4% -> 15.33us +-5%  +16.4% [+11.7%, +20.2%]  p=0.001 n=6+6  regression" ]
	[[ "${lines[1]}" == "irqdesc-alloc new tm10  "*"  p=0.001 n=6+6  regression" ]]
	[[ "$output" == *"irqdesc-alloc old pooled:  p50 14.34us -> 16.38us (+14.3%)"* ]]
	[[ "$output" == *"COMPARE series=2 regressions=2 improvements=0"* ]]
	# the other way round it is an improvement, not a failure
	run ./bench compare $G/r528_{1..6}.csv -- $G/r480_{1..6}.csv
	[ "$status" -eq 0 ]
	[[ "$output" == *"improvements=2"*"verdict=ok"* ]]
}

@test "compare: a higher threshold turns the regression into 'significant, below threshold'" {
	run ./bench compare -t 20 $G/r480_{1..6}.csv -- $G/r528_{1..6}.csv
	[[ "${lines[0]}" == *"p=0.001 n=6+6  significant, below threshold" ]]
}

@test "compare -f csv: the verdict column spells it without the comma, as kernelcheck expects it" {
	run --separate-stderr ./bench compare -f csv -t 20 $G/r480_{1..6}.csv -- $G/r528_{1..6}.csv
	[ "$status" -eq 1 ]	# new: +56%, a regression
	[[ "${lines[1]}" == "irqdesc-alloc,old,tm10,"*",significant below threshold" ]]
	# the gate of make kernelcheck reads this column: a free path that moved
	# less than the threshold passes as this or '~'
	[ "$(grep -c '"~" "significant below threshold" improvement$' tests/kernel/kernelcheck.sh)" = 2 ]
}

@test "compare: runs pool over files of both formats" {
	# five one-run files against one file of six runs
	run ./bench compare $G/r480_{1..5}.csv -- "$F/runs6-480.csv"
	[[ "${lines[0]}" == *" n=5+6  "* ]]
	run ./bench compare "$F/runs6-480.csv" "$F/runs6-576.csv"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "irqdesc-alloc old tm10 "*" n=6+6  regression" ]]
}

@test "compare --format csv and --stat" {
	run --separate-stderr ./bench compare -f csv -s median $G/r480_{1..6}.csv -- $G/r528_{1..6}.csv
	[ "$status" -eq 1 ]
	# the CSV has no testbed lines: the differences are a warning on stderr
	[ "$stderr" = "bench compare: warning: the files' testbed or configuration differ: possible_cpus (--strict refuses this)" ]
	[ "${lines[0]}" = "workload,variant,stat,before,before_spread_pct,after,after_spread_pct,change_pct,ci_lo_pct,ci_hi_pct,p,n_before,n_after,verdict" ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[1]}" == irqdesc-alloc,old,median,*,0.001082,6,6,regression ]]
}

@test "show --run: one run of a --runs file, or their merge" {
	run ./bench show -r 3 "$F/runs6-480.csv"
	[ "$status" -eq 0 ]
	total=$(csv_sum "$F/runs6-480.csv" samples variant=old run=3 cpu=all)
	[ "$total" -eq 512 ]
	[ "$(awk 'NR > 2 { n += $2 } END { print n }' <<<"$output")" -eq 512 ]
	run ./bench show -v old "$F/runs6-480.csv"
	[ "$(awk 'NR > 2 { n += $2 } END { print n }' <<<"$output")" -eq 3072 ]
}

@test "compare: a malformed file exits 2 naming file and line" {
	sed '45s/,0\./,7./' "$F/aa-after.csv" >"$T/bad.csv"
	run --separate-stderr ./bench compare "$F/aa-before.csv" "$T/bad.csv"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "bench compare: $T/bad.csv:45: percentile"* ]]
}

@test "compare: mismatched frac_bits exits 2" {
	./bench hist -f csv -b 3 "$F/patch_samples.txt" >"$T/fb3.csv"
	./bench hist -f csv "$F/patch_samples.txt" >"$T/fb2.csv"
	run --separate-stderr ./bench compare "$T/fb2.csv" "$T/fb3.csv"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"has frac_bits 2"*"has 3: buckets differ"* ]]
}

# ---- plots ----

@test "every plot script renders a valid, non-blank PNG and an SVG" {
	for p in hist cdf heatmap; do
		gnuplot -c "plots/$p.gp" "$F/16cpu-4node.csv" "$T/$p.png"
		png_ok "$T/$p.png"
		gnuplot -c "plots/$p.gp" "$F/16cpu-4node.csv" "$T/$p.svg"
		grep -q '<svg' "$T/$p.svg"
	done
	printf '# unit: ns\npossible_cpus,old_mean,new_mean,old_p50,new_p50,old_p99,new_p99\n64,700,180,639,191,1535,383\n512,15000,190,16383,191,24575,383\n4096,120000,240,131071,223,163839,447\n' >"$T/sweep.csv"
	gnuplot -c plots/sweep.gp "$T/sweep.csv" "$T/sweep.png"
	png_ok "$T/sweep.png"
}

@test "the PNG check catches a blank image" {
	gnuplot -e "set terminal pngcairo size 800,500; set output '$T/blank.png'; unset border; unset tics; set xrange [0:1]; set yrange [0:1]; plot -1 notitle; unset output"
	# a real PNG of the right size, blank: only the check's pixel test can fail it
	[ "$(head -c 8 "$T/blank.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
	run png_ok "$T/blank.png"
	echo "$output"
	[[ "$output" == *"blank.png: blank: 1 colours, 0 sampled non-white pixels" ]]
	[ "$status" -eq 1 ]
}

@test "the heat map marks the 4 NUMA node boundaries" {
	gnuplot -c plots/heatmap.gp "$F/16cpu-4node.csv" "$T/h.svg"
	# 3 boundaries (before CPUs 4, 8, 12), one dashed path per panel
	dashed=$(grep -o "stroke-dasharray='[^']*'  d='[^']*'" "$T/h.svg")
	[ "$(grep -c . <<<"$dashed")" -eq 2 ]
	[ "$(grep -o ' L' <<<"$dashed" | wc -l)" -eq 6 ]
}

# label_x SVG TEXT: the x of each rotated label TEXT, in order
label_x() {
	grep -B1 ">$2</tspan>" "$1" | sed -n 's/.*translate(\([0-9.]*\),.*/\1/p'
}

@test "the heat map's colour bar label stays clear of the next panel's CPU label, and on the image" {
	# five-digit counts, as in a default ./run.sh, made the bar's labels widest
	awk -F, -v OFS=, -v n="$(csv_index "$F/16cpu-4node.csv" samples)" '!/^#/ && $n ~ /^[0-9]+$/ { $n *= 100 } 1' \
		"$F/16cpu-4node.csv" >"$T/big.csv"
	gnuplot -c plots/heatmap.gp "$T/big.csv" "$T/h.svg"
	run label_x "$T/h.svg" samples
	read -r -a cb <<<"$(tr '\n' ' ' <<<"$output")"
	run label_x "$T/h.svg" CPU
	read -r -a cpu <<<"$(tr '\n' ' ' <<<"$output")"
	echo "samples at ${cb[*]}, CPU at ${cpu[*]}"
	[ "${#cb[@]}" -eq 2 ] && [ "${#cpu[@]}" -eq 2 ]
	# 11-point labels, about 13 px tall: 25 px apart at least, the last inside 800 px
	awk -v a="${cb[0]}" -v b="${cpu[1]}" -v c="${cb[1]}" 'BEGIN { exit !(a + 25 < b && c + 8 < 800) }'
}

@test "run.sh compare: the verdicts, compare.csv and a non-blank compare.png, exit 1" {
	export KSB_RESULTS=$T/res KSB_NO_DEPS=1
	run ./run.sh compare -s median $G/r480_{1..5}.csv -- "$F/runs6-576.csv"
	[ "$status" -eq 1 ]
	d=("$T/res"/*)
	[[ "$output" == *"results: ${d[0]}"* ]]
	[[ "$output" == *"COMPARE series=2 "*"stat=median"* ]]
	[ "$(csv_rows "${d[0]}/compare.csv" variant workload=irqdesc-alloc | wc -l)" -eq 2 ]
	[ "$(csv_rows "${d[0]}/compare-runs.csv" run side=before workload=irqdesc-alloc variant=old | wc -l)" -eq 5 ]
	[ "$(csv_rows "${d[0]}/compare-runs.csv" run side=after workload=irqdesc-alloc variant=old | wc -l)" -eq 6 ]
	png_ok "${d[0]}/compare.png" 1000 680
	# bad input draws nothing and says why
	run ./run.sh compare "$F/aa-before.csv" "$F/aa-after.csv"
	[ "$status" -eq 2 ]
	[[ "$output" == *"the gate needs at least 5 a side"* ]]
}

# ---- trend: change points over a history ----

@test "run.sh trend: the change points, trend.csv, trend-runs.csv and a non-blank trend.png, exit 1" {
	local i=0 f
	mkdir "$T/h"
	for f in r480a_1 r480a_2 r480a_3 r480b_1 r480b_2 r480b_3 r528_1 r528_2 r528_3; do
		i=$((i + 1))
		sed "2a # timestamp: 2025-01-0${i}T02:00:00Z" "$F/gate-ref/$f.csv" >"$T/h/$f.csv"
	done
	KSB_RESULTS=$T/res KSB_NO_DEPS=1 run ./run.sh trend "$T/h"
	[ "$status" -eq 1 ]
	d=("$T/res"/*)
	[[ "$output" == *"results: ${d[0]}"* ]]
	[[ "$output" == *"TREND series=2 files=9 change_points=1 "*"verdict=regression"* ]]
	[ "$(csv_rows "${d[0]}/trend.csv" variant index runs timestamp workload=irqdesc-alloc stat=tm10)" = \
	  "old,13,18,2025-01-07T02:00:00Z" ]
	[ "$(head -1 "${d[0]}/trend-runs.csv")" = "# unit: ns" ]
	[ "$(csv_rows "${d[0]}/trend-runs.csv" run workload=irqdesc-alloc | wc -l)" -eq 36 ]
	png_ok "${d[0]}/trend.png" 1000 660
	cmp "${d[0]}/trend.txt" <(./bench trend "$T/h")
	# the change point is drawn with its change and interval, on dates
	gnuplot -c plots/trend.gp "${d[0]}/trend-runs.csv" "${d[0]}/trend.csv" "$T/t.svg"
	grep -q '> +15.0%</tspan>' "$T/t.svg"
	grep -q '> \[+11.9%, +17.6%\]</tspan>' "$T/t.svg"
	grep -q '>2025-01-0[0-9]<' "$T/t.svg"
	# bad input draws nothing and says why
	KSB_RESULTS=$T/res KSB_NO_DEPS=1 run ./run.sh trend -w 5 "$T/h"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--window: '5' is not an integer in 6..1000"* ]]
	[ "$(find "$T/res" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1 ]
}

# ---- the reference loop: taking the machine's drift out ----
# tests/fixtures/gate-ref/: bench run --runs 2 -p 480 --cache cold -n 2048,
# three invocations a side, interleaved a, b (both 480) and 528, with the
# reference rows bench run writes.

GR=tests/fixtures/gate-ref

@test "compare: the reference scales each run by its share, and says so" {
	run ./bench compare $GR/r480a_{1..3}.csv -- $GR/r528_{1..3}.csv
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "irqdesc-alloc old tm10  9.73us +-3% -> 11.15us +-4%  +16.1% [+12.7%, +18.8%]  p=0.001 n=6+6  regression" ]
	[[ "$output" == *"irqdesc-alloc reference tm10 (median run): 8.95us -> 8.55us (-4.5%); figures at 8.95us by their share: old 0.90 new 0.33"* ]]
	[[ "$output" == *"verdict=regression reference=scaled"* ]]
	# raw, the same runs: wider spread, a wider interval
	run ./bench compare --reference off $GR/r480a_{1..3}.csv -- $GR/r528_{1..3}.csv
	[ "${lines[0]}" = "irqdesc-alloc old tm10  9.61us +-13% -> 10.89us +-10%  +12.2% [+0.5%, +24.6%]  p=0.013 n=6+6  regression" ]
	[[ "$output" == *"reference=raw"* ]]
	[[ "$output" != *"reference tm10"* ]]
}

@test "compare: A/A with the reference is '~', exit 0" {
	run ./bench compare $GR/r480a_{1..3}.csv -- $GR/r480b_{1..3}.csv
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "irqdesc-alloc old tm10  9.70us +-3% -> 9.87us +-4%  +1.4% [-1.7%, +4.9%]  p=0.155 n=6+6  ~" ]
}

@test "compare: files without reference rows compare raw (auto), exit 2 with --reference on" {
	run ./bench compare $GR/r480a_{1..3}.csv -- $G/r528_{1..6}.csv
	[ "$status" -eq 1 ]
	[[ "$output" == *"reference=raw"* ]]
	bad "tests/fixtures/gate/r528_1.csv: run 1 has no reference rows" \
		compare --reference on $GR/r480a_{1..3}.csv -- $G/r528_{1..6}.csv
	bad "--reference: 'maybe' is not one of auto, on, off" compare -r maybe "$F/runs6-480.csv" "$F/runs6-480.csv"
}

@test "compare -f json: reference and each series' share" {
	run --separate-stderr ./bench compare -f json $GR/r480a_{1..3}.csv -- $GR/r528_{1..3}.csv
	[ "$status" -eq 1 ]
	[ "$(jq -r '.metadata.reference' <<<"$output")" = scaled ]
	[ "$(jq -r '.comparisons[0].reference_share' <<<"$output")" = 0.904 ]
}

@test "run.sh compare passes --reference through to bench compare" {
	run ./run.sh compare -r off $GR/r480a_{1..3}.csv -- $GR/r528_{1..3}.csv
	[ "$status" -eq 1 ]
	[[ "$output" == *"reference=raw"* ]]
}

# ---- one bench invocation per run.sh command ----

# wrap_bench: $T/wrap, a bench that logs each call to $T/calls (KSB_BENCH),
# but the metadata's reads (bench show --meta: run.sh's and the plots')
# to $T/meta
wrap_bench() {
	# shellcheck disable=SC2016 # the wrapper's code
	printf '#!/bin/sh\n[ "$1 $2" = "show --meta" ] && log=meta || log=calls\necho "$*" >>"%s/$log"\nexec "%s/bench" "$@"\n' \
		"$T" "$PWD" >"$T/wrap"
	chmod +x "$T/wrap"
	: >"$T/calls"
	: >"$T/meta"
}

@test "run.sh compare and run.sh trend each run bench once, its reports through --also" {
	local i=0 f
	wrap_bench
	KSB_BENCH=$T/wrap KSB_NO_DEPS=1 run ./run.sh compare -s median $G/r480_{1..5}.csv -- "$F/runs6-576.csv"
	[ "$status" -eq 1 ]
	cat "$T/calls"
	[ "$(wc -l <"$T/calls")" -eq 1 ]
	[[ "$(cat "$T/calls")" == "compare --also table="*"/compare.txt --also csv="*" --also runs="*" --also cdf="*" -s median "* ]]
	d=("$T/results"/*)
	# the CDF is bench compare's own, its unit in its first line
	[ "$(head -2 "${d[0]}/compare-cdf.csv")" = "# unit: ns
side,workload,variant,hi,fraction" ]
	[ "$(csv_rows "${d[0]}/compare-cdf.csv" hi side=before workload=irqdesc-alloc variant=old | wc -l)" -gt 5 ]
	[ "$(csv_rows "${d[0]}/compare-cdf.csv" fraction side=after workload=irqdesc-alloc variant=new | tail -1)" = 1 ]
	# the plot asked bench for that unit
	[ "$(cat "$T/meta")" = "show --meta unit ${d[0]}/compare-cdf.csv" ]
	mkdir "$T/h"
	for f in r480a_1 r480a_2 r480a_3 r480b_1 r480b_2 r480b_3 r528_1 r528_2 r528_3; do
		i=$((i + 1))
		sed "2a # timestamp: 2025-01-0${i}T02:00:00Z" "$F/gate-ref/$f.csv" >"$T/h/$f.csv"
	done
	: >"$T/calls"
	KSB_BENCH=$T/wrap KSB_NO_DEPS=1 run ./run.sh trend "$T/h"
	[ "$status" -eq 1 ]
	[ "$(wc -l <"$T/calls")" -eq 1 ]
	[[ "$(cat "$T/calls")" == "trend --also table="*"/trend.txt --also csv="*" --also runs="*" $T/h" ]]
	# what bench printed is what it wrote as the table
	d=("$T/results"/*)
	[ -s "${d[1]}/trend.txt" ]
	[[ "$output" == *"$(cat "${d[1]}/trend.txt")"* ]]
}

@test "run.sh's job: bench doctor with the run's options, then one bench run that writes every file" {
	wrap_bench
	KSB_BENCH=$T/wrap KSB_NO_DEPS=1 run ./run.sh -q -n 16 -c 0
	[ "$status" -eq 0 ]
	cat "$T/calls"
	[ "$(wc -l <"$T/calls")" -eq 2 ]
	[ "$(sed -n 1p "$T/calls")" = "doctor -q -- -q -n 16 -c 0" ]
	local r
	r=$(echo "$T"/results/*)
	[ "$(sed -n 2p "$T/calls")" = "run --runs 6 -o $r/bench.csv --also table=$r/output.txt --also summary=$r/summary.txt --also table:old=$r/table-old.txt --also table:new=$r/table-new.txt -q -n 16 -c 0" ]
	# the metadata run.sh and its plots print, read by bench, never by sed
	grep -qx "show --meta variant_old $r/bench.csv" "$T/meta"
	grep -qx "show --meta possible_cpus $r/bench.csv" "$T/meta"
	[ "$(grep -vc "^show --meta [a-z_]* $r/bench.csv\$" "$T/meta")" -eq 0 ]
	cmp "$r/output.txt" <(./bench show "$r/bench.csv")
	cmp "$r/summary.txt" <(./bench show -f summary "$r/bench.csv")
	# the summary on the terminal, and no temp file of the plots left
	[[ "$output" == *"$(cat "$r/summary.txt")"* ]]
	[ -z "$(find "$r" -name '.tmp.*')" ]
}

@test "bench compare --also: several formats from one run, each file whole; bad input leaves them as they were" {
	run ./bench compare --also csv="$T/c.csv" --also json="$T/c.json" --also cdf="$T/cdf.csv" \
		$G/r480_{1..6}.csv -- $G/r528_{1..6}.csv
	[ "$status" -eq 1 ]
	cmp "$T/c.csv" <(./bench compare -f csv $G/r480_{1..6}.csv -- $G/r528_{1..6}.csv 2>/dev/null)
	[ "$(jq -r .verdict "$T/c.json")" = regression ]
	echo keep >"$T/k.csv"
	run ./bench compare --also csv="$T/k.csv" "$F/aa-before.csv" "$F/aa-after.csv"
	[ "$status" -eq 2 ]
	[ "$(cat "$T/k.csv")" = keep ]
	bad "--also: 'nope' is not a format (see -f in --help)" compare --also nope=x "$F/runs6-480.csv" "$F/runs6-480.csv"
	bad "--also: 'csv' is not FMT=FILE" compare --also csv "$F/runs6-480.csv" "$F/runs6-480.csv"
	bad "--also $T/no/such/x.csv: No such file or directory" compare --also csv="$T/no/such/x.csv" "$F/runs6-480.csv" "$F/runs6-480.csv"
}

@test "run.sh trend --control: two series of different sizes, each with its own panels" {
	# the old path in us, the new in ns: the second series' panels once
	# found no points in the y range the first had set
	mkdir -p "$T/s" "$T/c"
	cp "$F"/gate-ref/r480?_*.csv "$T/s/"
	cp "$F"/gate-ref/r480?_*.csv "$T/c/"
	KSB_NO_DEPS=1 run ./run.sh trend --control "$T/c" "$T/s"
	[ "$status" -eq 0 ]
	d=("$T/results"/*)
	# four rows, 300 px each: per series the two sides and their ratio
	png_ok "${d[0]}/trend.png" 1000 1260
}

@test "run.sh trend --control: subject, control and their ratio with its change point, drawn" {
	/usr/bin/python3 tests/cli/synth_nights.py "$T/n" 40 1 25 10
	KSB_NO_DEPS=1 run ./run.sh trend --control "$T/n/control" "$T/n/subject"
	[ "$status" -eq 0 ]
	d=("$T/results"/*)
	[[ "$output" == *"control=paired"* ]]
	[ "$(head -2 "${d[0]}/trend-runs.csv" | tail -1)" = "workload,variant,index,timestamp,run,tm10,segment_median,subject,control,theta" ]
	# two rows for the one series: 300 px each
	png_ok "${d[0]}/trend.png" 1000 660
	gnuplot -c plots/trend.gp "${d[0]}/trend-runs.csv" "${d[0]}/trend.csv" "$T/t.svg"
	grep -q '>subject<' "$T/t.svg"
	grep -q '>control<' "$T/t.svg"
	grep -q 'tm10 subject/control: 1 change point' "$T/t.svg"
	grep -q '> +10.1%</tspan>' "$T/t.svg"
}
