# heatmap.gp CSV OUT - per-CPU heat map of the old path (left) and the new
# (right): CPU against bucket, colour = samples; dashed lines mark where
# the NUMA node changes. gnuplot -c plots/heatmap.gp bench.csv heat.png
csv = ARG1
out = ARG2
load 'plots/common.gp'

wl = meta("workload", csv)

cpurow(dummy) = (merged_runs(0) && strcol(c_cpu) ne "all")
stats csv using (cpurow(0) ? column(c_cpu) : NaN) nooutput
cpu_min = STATS_min
cpu_max = STATS_max
stats csv using (cpurow(0) ? column(c_node) : NaN) nooutput
node_max = STATS_max
stats csv using (cpurow(0) ? column(c_bucket) : NaN) nooutput
b_min = STATS_min
b_max = STATS_max
# one colour scale for both panels, up to the largest count of either:
# with a scale per panel the same colour meant different counts side by
# side (old topped out at 10000 samples, new at 5000)
stats csv using ((percpu("old") || percpu("new")) ? column(c_samples) : NaN) nooutput
s_max = STATS_max < 2 ? 2 : STATS_max

# a dashed line below the first CPU of every node but the lowest
do for [n = 1:node_max] {
	stats csv using (cpurow(0) && column(c_node) == n ? column(c_cpu) : 1e9) nooutput
	if (STATS_min < 1e9 && STATS_min > cpu_min) {
		set arrow from graph 0, first STATS_min - 0.5 to graph 1, first STATS_min - 0.5 nohead dt 2 lw 1.5 lc rgb "black" front
	}
}

set multiplot layout 1,2 title sprintf("%s: samples per CPU and bucket (dashed: NUMA node boundary)", wl) noenhanced
set palette defined (0 "#fff5eb", 1 "#fdae6b", 2 "#e6550d", 3 "#7f2704")
set logscale cb
set cbrange [1:s_max]
set cblabel "samples"
set xlabel sprintf("bucket (log2 of time in %s, 4 per power of two)", unit)
set ylabel "CPU"
set xrange [b_min - 1:b_max + 1]
set yrange [cpu_min - 0.5:cpu_max + 0.5]
set ytics 1
if (cpu_max - cpu_min > 32) set ytics autofreq
unset grid
# Fixed margins: with automatic ones each panel's colour bar and its
# "samples" label ran into the next panel's "CPU" label (and off the
# image on the right) once the counts had five digits.
set lmargin at screen 0.08
set rmargin at screen 0.37
set title "old"
plot csv using (percpu("old") ? column(c_bucket) : NaN):(column(c_cpu)):(0.5):(0.5):(column(c_samples)) with boxxyerror fs solid fc palette notitle
set lmargin at screen 0.58
set rmargin at screen 0.87
set title "new"
plot csv using (percpu("new") ? column(c_bucket) : NaN):(column(c_cpu)):(0.5):(0.5):(column(c_samples)) with boxxyerror fs solid fc palette notitle
unset multiplot
