# cdf.gp CSV OUT - cumulative fraction against time, old and new, with
# p50 and p99 marked. gnuplot -c plots/cdf.gp bench.csv cdf.png
csv = ARG1
out = ARG2
load 'plots/common.gp'

wl = meta("workload", csv)

# pN: the upper bound of the first bucket whose percentile reaches N
stats csv using (sel("old") && column(c_pct) >= 0.5 ? column(c_hi) : 1e300) nooutput
old50 = STATS_min
stats csv using (sel("old") && column(c_pct) >= 0.99 ? column(c_hi) : 1e300) nooutput
old99 = STATS_min
stats csv using (sel("new") && column(c_pct) >= 0.5 ? column(c_hi) : 1e300) nooutput
new50 = STATS_min
stats csv using (sel("new") && column(c_pct) >= 0.99 ? column(c_hi) : 1e300) nooutput
new99 = STATS_min

set title sprintf("%s: cumulative distribution of the time per call", wl) noenhanced
set xlabel sprintf("time per call (%s), log scale", unit)
set ylabel "fraction of calls at or below"
eval logtime_axis
set yrange [0:1.02]
set key bottom right
set arrow from graph 0, first 0.5 to graph 1, first 0.5 nohead dt 3 lc rgb "#888888"
set arrow from graph 0, first 0.99 to graph 1, first 0.99 nohead dt 3 lc rgb "#888888"
set label sprintf("old p50 %s", nice(old50)) at first old50, first 0.5 offset 1,-1 tc rgb old_colour
set label sprintf("old p99 %s", nice(old99)) at first old99, first 0.99 offset 1,-1 tc rgb old_colour
set label sprintf("new p50 %s", nice(new50)) at first new50, first 0.5 offset 1,1 tc rgb new_colour
set label sprintf("new p99 %s", nice(new99)) at first new99, first 0.99 offset 1,-1.5 tc rgb new_colour
set object circle at first old50, first 0.5 radius char 0.4 fc rgb old_colour fs solid
set object circle at first old99, first 0.99 radius char 0.4 fc rgb old_colour fs solid
set object circle at first new50, first 0.5 radius char 0.4 fc rgb new_colour fs solid
set object circle at first new99, first 0.99 radius char 0.4 fc rgb new_colour fs solid

plot csv using (sel("old") ? column(c_hi) : NaN):(column(c_pct)) with steps lw 2 lc rgb old_colour title "old", \
     csv using (sel("new") ? column(c_hi) : NaN):(column(c_pct)) with steps lw 2 lc rgb new_colour title "new"
