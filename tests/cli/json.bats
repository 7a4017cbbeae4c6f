#!/usr/bin/env bats
# needs: python3 jq
# -f json of bench hist, show and run: valid for jq and python3's json,
# and the exact figures of the patch's fixture.

load common

setup() {
	common_setup
	command -v jq >/dev/null || skip "jq not installed (make deps)"
}

@test "hist -f json: valid JSON with the patch's buckets and summary" {
	./bench hist -f json "$F/patch_samples.txt" >"$T/h.json"
	python3 -m json.tool "$T/h.json" >/dev/null
	run jq -c '.histograms[0].buckets[] | select(.bucket == 49)' "$T/h.json"
	[ "$output" = '{"bucket":49,"lo":10240,"hi":12288,"samples":2214,"avg":11493,"percentile":0.729125}' ]
	run jq -c '[.format, .version, .metadata.frac_bits, .metadata.source, (.histograms | length)]' "$T/h.json"
	[ "$output" = '["kstats-bench-json",1,"2","tests/fixtures/patch_samples.txt",1]' ]
	run jq -c '.histograms[0] | [.workload, .variant, .cpu, .node, .unit, .summary]' "$T/h.json"
	[ "$output" = '["hist","input","all",-1,"input",{"samples":8192,"min":2432,"p50":12287,"p90":14335,"p99":20479,"p99_9":24575,"max":37253,"mean":9988.8}]' ]
	# the same rows as the table, and the last percentile is 1
	[ "$(jq '.histograms[0].buckets | length' "$T/h.json")" -eq 17 ]
	[ "$(jq '[.histograms[0].buckets[].samples] | add' "$T/h.json")" -eq 8192 ]
	[ "$(jq '.histograms[0].buckets[-1].percentile' "$T/h.json")" = 1 ]
	jq -r '.histograms[0].buckets[] | "\(.bucket) \(.samples) \(.avg)"' "$T/h.json" >"$T/rows"
	awk 'NR > 2 { print $1, $2, $3 }' "$F/patch_table.txt" | cmp - "$T/rows"
}

@test "hist -f json escapes a file name with quotes, backslashes and control bytes" {
	name=$T/$'we"ird\\na\tme\001'
	cp "$F/patch_samples.txt" "$name"
	./bench hist -f json "$name" >"$T/h.json"
	python3 -m json.tool "$T/h.json" >/dev/null
	[ "$(jq -r .metadata.source "$T/h.json")" = "$name" ]
}

@test "show -f json: the series asked for, with the CSV's metadata" {
	./bench show -f json -v new -c 5 "$F/16cpu-4node.csv" >"$T/s.json"
	python3 -m json.tool "$T/s.json" >/dev/null
	run jq -c '.histograms[0] | [.variant, .cpu, .node, .unit, .summary.samples]' "$T/s.json"
	[ "$output" = "$(printf '["new",5,%s,"ns",%s]' \
		"$(csv_col "$F/16cpu-4node.csv" node variant=new cpu=5)" \
		"$(csv_sum "$F/16cpu-4node.csv" samples variant=new cpu=5)")" ]
	[ "$(jq -r .metadata.possible_cpus "$T/s.json")" = "$(csv_meta "$F/16cpu-4node.csv" possible_cpus)" ]
	# bucket rows equal the CSV's
	jq -r '.histograms[0].buckets[] | "\(.bucket),\(.lo),\(.hi),\(.samples),\(.avg)"' "$T/s.json" >"$T/rows"
	cmp <(csv_rows "$F/16cpu-4node.csv" bucket lo_ns hi_ns samples avg_ns variant=new cpu=5) "$T/rows"
}

@test "run -f json: merged and per-CPU histograms of both variants (then the reference, cold)" {
	./bench run -q -n 64 -f json >"$T/r.json"
	python3 -m json.tool "$T/r.json" >/dev/null
	run jq -c '[.histograms[] | select(.cpu == "all") | [.variant, .summary.samples]]' "$T/r.json"
	[ "$output" = '[["old",64],["new",64]]' ]
	./bench run -q -n 64 -C cold -f json >"$T/c.json"
	run jq -c '[.histograms[] | select(.cpu == "all") | .variant]' "$T/c.json"
	[ "$output" = '["old","new","reference"]' ]
	# per-CPU ones add up to the merged one
	[ "$(jq '[.histograms[] | select(.variant == "old" and .cpu != "all") | .summary.samples] | add' "$T/r.json")" -eq 64 ]
	[ "$(jq -r '.metadata.samples_per_variant' "$T/r.json")" = 64 ]
	[ "$(jq -r '.metadata.partial' "$T/r.json")" = no ]
}

@test "-f json is listed in --help of run, show and hist" {
	for c in run show hist compare; do
		run ./bench "$c" --help
		[ "$status" -eq 0 ]
		[[ "$output" == *json* ]]
	done
}

@test "compare -f json: verdicts with their intervals and every run's figure" {
	G=tests/fixtures/gate
	run --separate-stderr ./bench compare -f json $G/r480_{1..6}.csv -- $G/r528_{1..6}.csv
	[ "$status" -eq 1 ]
	python3 -m json.tool <<<"$output" >/dev/null
	run jq -c '.comparisons[0] | [.workload, .variant, .stat, .before.runs, .after.runs,
		(.change_pct * 10 | round), (.ci_lo_pct * 10 | round), (.ci_hi_pct * 10 | round),
		.p, .exact, .verdict]' <<<"$output"
	[ "$output" = '["irqdesc-alloc","old","tm10",6,6,164,117,202,0.001082,true,"regression"]' ]
	run ./bench compare -f json $G/r480_{1..6}.csv -- $G/r528_{1..6}.csv
	[ "$(jq -c '[.verdict, .regressions, .metadata.alpha, (.comparisons[1].after.values | length)]' <<<"$output")" = '["regression",2,"0.05",6]' ]
}

@test "run --runs -f json: the merge over the runs, then each run" {
	./bench run -q --runs 2 -n 32 -f json >"$T/r.json"
	python3 -m json.tool "$T/r.json" >/dev/null
	[ "$(jq -c '[.histograms[] | select(.cpu == "all") | [.run, .variant, .summary.samples]]' "$T/r.json")" = \
		'[["all","old",64],["all","new",64],[1,"old",32],[1,"new",32],[2,"old",32],[2,"new",32]]' ]
	[ "$(jq -r .metadata.runs "$T/r.json")" = 2 ]
}

@test "hist -f csv | show -f json -: the samples' exact min, max and mean" {
	printf '5\n1030\n1100\n1200\n77777\n77800\n' >"$T/s.txt"
	./bench hist -f csv "$T/s.txt" >"$T/s.csv"
	./bench show -f json - <"$T/s.csv" >"$T/s.json"
	# 158912 / 6 = 26485.33; format 2 gave back max 77789 and mean 26485.5
	[ "$(jq -c '.histograms[0].summary | [.samples, .min, .max, .mean]' "$T/s.json")" = '[6,5,77800,26485.3]' ]
	# and the table, byte for byte
	./bench hist "$T/s.txt" >"$T/t1"
	./bench show "$T/s.csv" >"$T/t2"
	cmp "$T/t1" "$T/t2"
}
