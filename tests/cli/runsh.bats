#!/usr/bin/env bats
# run.sh (the one command), bench compare (the CI gate) on fixture CSVs,
# and every gnuplot script rendered for real.

load common

setup() {
	common_setup
	export KSB_RESULTS=$T/results
}

png_ok() {
	/usr/bin/python3 tests/cli/png_ok.py "$1" 800 500
}

@test "run.sh is shellcheck-clean" {
	command -v shellcheck || skip "shellcheck not installed"
	shellcheck run.sh tests/deps.sh tests/run-all.sh tests/tools.sh tests/vm/vmcheck.sh .ci/run && shellcheck -s sh tests/vm/init
}

@test "run.sh --help exits 0 and names the subcommands" {
	run ./run.sh --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"./run.sh compare"* ]]
	[[ "$output" == *"./run.sh sweep"* ]]
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
	grep -qx '# possible_cpus: 16' "$d/bench.csv"
	grep -qx '# samples_per_variant: 64' "$d/bench.csv"
	grep -qx '# cache: cold' "$d/bench.csv"
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
	png_ok "$d/sweep.png"
}

@test "run.sh sweep rejects a bad range" {
	run ./run.sh sweep --from 100000
	[ "$status" -eq 2 ]
	run ./run.sh sweep --from 512 --to 64
	[ "$status" -eq 2 ]
}

# ---- compare ----

@test "compare: identical CSVs exit 0" {
	run ./run.sh compare "$F/aa-before.csv" "$F/aa-before.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"COMPARE pairs=2 regressions=0"* ]]
}

@test "compare: two independent runs of the same code (A/A) exit 0" {
	run ./bench compare "$F/aa-before.csv" "$F/aa-after.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"verdict=ok"* ]]
}

@test "compare: the new path as before, the old as after, exits 1" {
	# the new path's rows relabelled as "old": before is fast, after slow
	awk -F, -v OFS=, '/^#/ || !h { if (!/^#/) h = 1; print; next } $2 == "new" { $2 = "old"; print }' \
		"$F/aa-before.csv" >"$T/before.csv"
	run ./bench compare "$T/before.csv" "$F/aa-after.csv"
	[ "$status" -eq 1 ]
	[[ "$output" == *"COMPARE pairs=1 regressions=1"* ]]
	[[ "$output" == *": regression"* ]]
	# the other way round it is an improvement, not a failure
	run ./bench compare "$F/aa-after.csv" "$T/before.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"improvements=1"* ]]
}

@test "compare --format csv and --metric" {
	run ./bench compare -f csv -m p99 "$F/aa-before.csv" "$F/aa-after.csv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "workload,variant,metric,before,after,delta_pct,z,p,verdict" ]
	[ "${#lines[@]}" -eq 15 ]
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
	gnuplot -e "set terminal pngcairo size 800,500; set output '$T/blank.png'; unset border; unset tics; plot NaN notitle" 2>/dev/null || true
	run png_ok "$T/blank.png"
	[ "$status" -ne 0 ]
}

@test "the heat map marks the 4 NUMA node boundaries" {
	gnuplot -c plots/heatmap.gp "$F/16cpu-4node.csv" "$T/h.svg"
	# 3 boundaries (before CPUs 4, 8, 12), one dashed path per panel
	dashed=$(grep -o "stroke-dasharray='[^']*'  d='[^']*'" "$T/h.svg")
	[ "$(grep -c . <<<"$dashed")" -eq 2 ]
	[ "$(grep -o ' L' <<<"$dashed" | wc -l)" -eq 6 ]
}
