#!/usr/bin/env bats
# needs: -
# plots/heatmap.gp: both panels, old and new, on one colour scale.

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
