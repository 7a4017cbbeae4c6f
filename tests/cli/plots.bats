#!/usr/bin/env bats
# needs: -
# plots/heatmap.gp: both panels, old and new, on one colour scale;
# plots/scale.gp: names as they are, not as enhanced text.

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
	awk -F, -v OFS=, '!/^#/ && $2 == "old" { $8 *= 2 } !/^#/ && $2 == "new" { $8 = int($8 / 10) + 1 } 1' \
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
kind,group,workload,variant,stat,points,counts,x_min,x_max,slope,slope_lo,slope_hi,intercept,intercept_at_slope_lo,intercept_at_slope_hi,verdict,threshold
fit,base_k,__irq_alloc_descs,time,tm10,3,3,64,255,15.7,15.6,15.8,0,0,0,grows,0
CSV
	gnuplot -c plots/scale.gp "$T/p.csv" "$T/f.csv" "$T/s.svg"
	grep -qF '<text>__irq_alloc_descs time</text>' "$T/s.svg"
	grep -qF '<text>base_k: +15.7 ns/CPU [+15.6, +15.8], grows</text>' "$T/s.svg"
}

# scale.gp reads both files by column name: the same fit and points with
# their columns in another order draw the same picture
@test "scale.gp reads its columns by name: another order, the same picture" {
	./bench scale -f csv "$F"/scale/again-p*.csv >"$T/f.csv"
	./bench scale -f points "$F"/scale/again-p*.csv >"$T/p.csv"
	# reversed columns; the points' "# unit" line kept first
	rev_csv() { awk -F, -v OFS=, '/^#/ { print; next } { for (i = NF; i > 1; i--) printf "%s,", $i; print $1 }' "$1"; }
	rev_csv "$T/f.csv" >"$T/f2.csv"
	rev_csv "$T/p.csv" >"$T/p2.csv"
	[ "$(head -c 7 "$T/f2.csv")" = "thresho" ]
	gnuplot -c plots/scale.gp "$T/p.csv" "$T/f.csv" "$T/a.svg"
	gnuplot -c plots/scale.gp "$T/p2.csv" "$T/f2.csv" "$T/b.svg"
	grep -qF 'stock: +10 ns/CPU [+9.948, +10.05], grows' "$T/a.svg"
	cmp "$T/a.svg" "$T/b.svg"
}
