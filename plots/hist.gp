# hist.gp CSV OUT - samples per bucket, old and new overlaid, on a log time
# axis: each bucket is drawn over its own [lo, hi) range.
# gnuplot -c plots/hist.gp results/X/bench.csv hist.png   (or .svg)
csv = ARG1
out = ARG2
load 'plots/common.gp'

wl = meta("workload", csv)
possible = meta("possible_cpus", csv)
cache = meta("cache", csv)

set title sprintf("%s: time per call, old vs new (%s possible CPUs, cache %s)", wl, possible, cache) noenhanced
set xlabel sprintf("time per call (%s), log scale; each box spans its bucket [lo, hi)", unit)
set ylabel "samples per bucket"
eval logtime_axis
set yrange [0:*]
set key top right
set style fill transparent solid 0.55 border

plot csv using (sel("old") ? (column(c_lo) + column(c_hi)) / 2 : NaN):(column(c_samples) / 2):(column(c_lo)):(column(c_hi)):(0):(column(c_samples)) \
	with boxxyerror lc rgb old_colour title "old: with the kstat\\_irqs clear", \
     csv using (sel("new") ? (column(c_lo) + column(c_hi)) / 2 : NaN):(column(c_samples) / 2):(column(c_lo)):(column(c_hi)):(0):(column(c_samples)) \
	with boxxyerror lc rgb new_colour title "new: without it"
