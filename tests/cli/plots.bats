#!/usr/bin/env bats
# needs: python3
# plots/heatmap.gp: both panels, old and new, on one colour scale;
# plots/scale.gp: names as they are, not as enhanced text; every plot
# reads its files' columns by name, so that another order of the columns
# draws the same picture.

load common

setup() {
	common_setup
}

# bar_tick_y SVG TEXT: the y of each colour bar's tick label TEXT, in
# order; the bars' labels are the ones right of each panel (x > 300 and
# x > 700), where no axis of CPUs or buckets has a label
bar_tick_y() {
	grep -B1 "> $2</tspan>" "$1" |
		sed -n 's/.*translate(\([0-9.]*\),\([0-9.]*\)).*/\1 \2/p' |
		awk '($1 > 300 && $1 < 400) || $1 > 700 { print $2 }'
}

@test "the heat map's two panels share one colour scale, up to the larger panel's count" {
	# old's counts doubled (to 1870 per CPU and bucket at most), new's cut
	# to a tenth: with a scale per panel, each bar's 100 sat at its own
	# height (233 and 74 px)
	awk -F, -v OFS=, -v v="$(csv_index "$F/16cpu-4node.csv" variant)" -v n="$(csv_index "$F/16cpu-4node.csv" samples)" \
		'!/^#/ && $v == "old" { $n *= 2 } !/^#/ && $v == "new" { $n = int($n / 10) + 1 } 1' \
		"$F/16cpu-4node.csv" >"$T/h.csv"
	gnuplot -c plots/heatmap.gp "$T/h.csv" "$T/h.svg"
	run bar_tick_y "$T/h.svg" 100
	echo "the bars' 100 at y ${lines[*]}"
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "${lines[1]}" ]
	# both reach old's 1870: a 1000 on each bar, though new's top is 94
	[ "$(bar_tick_y "$T/h.svg" 1000 | wc -l)" -eq 2 ]
}

# a function's name as its workload, and a group, with underscores: in
# gnuplot's enhanced text "_s" would be a subscript (show_stat read
# "show" and a small "s", then "tat")
@test "scale.gp prints workload and group names as they are, underscores included" {
	cat >"$T/p.csv" <<'CSV'
# unit: ns
group,file,run,possible_cpus,workload,variant,tm10
base_k,a-p64.csv,1,64,__irq_alloc_descs,time,1000
base_k,a-p128.csv,1,128,__irq_alloc_descs,time,2000
base_k,a-p255.csv,1,255,__irq_alloc_descs,time,4000
CSV
	cat >"$T/f.csv" <<'CSV'
kind,group,workload,variant,stat,points,counts,x_min,x_max,slope,slope_lo,slope_hi,intercept,intercept_at_slope_lo,intercept_at_slope_hi,verdict,threshold,spread_pct,repeats
fit,base_k,__irq_alloc_descs,time,tm10,3,3,64,255,15.7,15.6,15.8,0,0,0,grows,0,0,yes
CSV
	gnuplot -c plots/scale.gp "$T/p.csv" "$T/f.csv" "$T/s.svg"
	grep -qF '<text>__irq_alloc_descs time</text>' "$T/s.svg"
	grep -qF '<text>base_k: +15.7 ns/CPU [+15.6, +15.8], grows</text>' "$T/s.svg"
}

# rev_csv FILE: FILE with its columns in reverse order, its "#" lines
# (metadata, "# unit") as they are
rev_csv() {
	awk -F, '/^#/ { print; next } { for (i = NF; i >= 1; i--) printf "%s%s", $i, (i > 1 ? "," : "\n") }' "$1"
}

# scale.gp reads both files by column name: the same fit and points with
# their columns in another order draw the same picture
@test "scale.gp reads its columns by name: another order, the same picture" {
	./bench scale -f csv "$F"/scale/again-p*.csv >"$T/f.csv"
	./bench scale -f points "$F"/scale/again-p*.csv >"$T/p.csv"
	# reversed columns; the points' "# unit" line kept first
	rev_csv "$T/f.csv" >"$T/f2.csv"
	rev_csv "$T/p.csv" >"$T/p2.csv"
	[ "$(head -c 7 "$T/f2.csv")" = "repeats" ]
	gnuplot -c plots/scale.gp "$T/p.csv" "$T/f.csv" "$T/a.svg"
	gnuplot -c plots/scale.gp "$T/p2.csv" "$T/f2.csv" "$T/b.svg"
	grep -qF 'stock: +10 ns/CPU [+9.948, +10.05], grows' "$T/a.svg"
	cmp "$T/a.svg" "$T/b.svg"
}

@test "compare.gp reads its three files by column name: another order, the same picture" {
	local G=$F/gate f
	run ./bench compare --also csv="$T/c.csv" --also runs="$T/r.csv" --also cdf="$T/d.csv" \
		"$G"/r480_{1..6}.csv -- "$G"/r528_{1..6}.csv
	[ "$status" -eq 1 ]
	for f in c r d; do rev_csv "$T/$f.csv" >"$T/${f}2.csv"; done
	[ "$(head -c 7 "$T/c2.csv")" = "verdict" ]
	[ "$(sed -n 2p "$T/d2.csv")" = "fraction,hi,variant,workload,side" ]
	gnuplot -c plots/compare.gp "$T/d.csv" "$T/r.csv" "$T/c.csv" "$T/a.svg"
	gnuplot -c plots/compare.gp "$T/d2.csv" "$T/r2.csv" "$T/c2.csv" "$T/b.svg"
	grep -qF 'tm10 per run: +16.4% [+11.7%, +20.2%] n=6+6 regression' "$T/a.svg"
	cmp "$T/a.svg" "$T/b.svg"
}

@test "trend.gp reads its files by column name, alone and with a control: another order, the same picture" {
	gate_ref_history "$T/h"
	run ./bench trend --also csv="$T/c.csv" --also runs="$T/r.csv" "$T/h"
	[ "$status" -eq 1 ]
	/usr/bin/python3 tests/cli/synth_nights.py "$T/n" 40 1 25 10
	run ./bench trend --control "$T/n/control" --also csv="$T/pc.csv" --also runs="$T/pr.csv" "$T/n/subject"
	[ "$status" -eq 0 ]
	for f in c r pc pr; do rev_csv "$T/$f.csv" >"$T/${f}2.csv"; done
	[ "$(sed -n 2p "$T/pr2.csv")" = "theta,control,subject,segment_median,tm10,run,timestamp,index,variant,workload" ]
	gnuplot -c plots/trend.gp "$T/r.csv" "$T/c.csv" "$T/a.svg"
	gnuplot -c plots/trend.gp "$T/r2.csv" "$T/c2.csv" "$T/b.svg"
	grep -q '> +15.0%</tspan>' "$T/a.svg"
	cmp "$T/a.svg" "$T/b.svg"
	gnuplot -c plots/trend.gp "$T/pr.csv" "$T/pc.csv" "$T/pa.svg"
	gnuplot -c plots/trend.gp "$T/pr2.csv" "$T/pc2.csv" "$T/pb.svg"
	grep -q '>subject<' "$T/pa.svg"
	cmp "$T/pa.svg" "$T/pb.svg"
}

@test "sweep.gp, hist.gp, cdf.gp and heatmap.gp read columns by name: another order, the same picture" {
	local p
	printf '# unit: ns\npossible_cpus,old_mean,new_mean,old_p50,new_p50,old_p99,new_p99\n64,700,180,639,191,1535,383\n512,15000,190,16383,191,24575,383\n4096,120000,240,131071,223,163839,447\n' >"$T/s.csv"
	rev_csv "$T/s.csv" >"$T/s2.csv"
	gnuplot -c plots/sweep.gp "$T/s.csv" "$T/a.svg"
	gnuplot -c plots/sweep.gp "$T/s2.csv" "$T/b.svg"
	cmp "$T/a.svg" "$T/b.svg"
	# a result file of each format: runs (format 2) and none (format 1)
	for f in runs6-480 16cpu-4node; do
		rev_csv "$F/$f.csv" >"$T/$f.csv"
		[ "$(csv_index "$T/$f.csv" percentile)" = 1 ]
		for p in hist cdf heatmap; do
			gnuplot -c "plots/$p.gp" "$F/$f.csv" "$T/a.svg"
			gnuplot -c "plots/$p.gp" "$T/$f.csv" "$T/b.svg"
			cmp "$T/a.svg" "$T/b.svg" || { echo "$p.gp: $f reversed draws another picture"; false; }
		done
	done
}
