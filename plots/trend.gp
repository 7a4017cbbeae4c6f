# trend.gp RUNS CHANGES OUT - the picture of ./run.sh trend: per series (one
# row each), every run's figure over time, the median of each segment drawn
# across it, and each change point marked with its change and interval.
# The inputs are what ./run.sh trend writes: trend-runs.csv (bench trend
# -f runs, a "# unit:" line first) and trend.csv (bench trend -f csv).
# Time on the x axis when the runs have timestamps, the run's place if not.
# With a control (bench trend --control: the runs CSV has subject and
# control columns, and theta's), each series gets two rows: the subject's
# and the control's median run per night, then the paired figure
# (subject/control, adjusted by theta) that the change points are found on.
csv = ARG1
changes = ARG2
out = ARG3
load 'plots/common.gp'

key = "$c[\"workload\"] \"/\" $c[\"variant\"]"
series = system(csvawk("!seen[" . key . "]++ { printf \"%s \", " . key . " }", csv))
n = words(series)
# the statistic's column: the one whose name is none of the others'
stat = system(csvawk("END { for (k in c) if (k !~ /^(workload|variant|index|timestamp|run|segment_median|subject|control|theta)$/) print k }", csv))
paired = hascol(csv, "theta")
rows = paired ? 2 * n : n
timed = system(csvawk("$c[\"timestamp\"] != \"\" { print 1; exit }", csv)) eq "1"
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1000,(300 * rows + 60) dynamic enhanced font "sans,11" background rgb "white"
} else {
	set terminal pngcairo size 1000,(300 * rows + 60) enhanced font "sans,10"
}
set output out

is(i) = (strcol("workload") . "/" . strcol("variant") eq word(series, i))
stamp = "%Y-%m-%dT%H:%M:%SZ"
# the x of a run (runs CSV) and of a change point (changes CSV)
xrun(dummy) = timed ? strptime(stamp, strcol("timestamp")) : column("index")
xcp(dummy) = timed ? strptime(stamp, strcol("timestamp")) : column("index")
# the number of change points of series i
nr_cp(i) = int(system(csvawk(key . " == \"" . word(series, i) . "\" { n++ } END { print n + 0 }", changes)))
run_colour = "#7f8c8d"
subject_colour = "#8e44ad"
control_colour = "#16a085"
median_colour = "#2c3e50"
# a change point's colour: red up (a regression: slower), green down
colour(dummy) = column("change_pct") > 0 ? 0xc0392b : 0x1e8449

# each series' range
array lo_y[n]
array hi_y[n]
do for [i = 1:n] {
	stats csv using (is(i) ? column(stat) : NaN) nooutput
	lo_y[i] = STATS_min
	hi_y[i] = STATS_max
}
# seconds on a plain axis, ticked as dates: gnuplot 5.4's time mode (set
# xdata time) cannot draw "with labels" and stats
if (timed) {
	set format x "%Y-%m-%d" timedate
	set xtics rotate by 30 right
}
# the axis ends at the first and last run, not at the next tick
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set multiplot layout rows,1 title sprintf(paired ? \
	"bench trend --control: each night's %s median, subject and control (top), their ratio (dots), each segment's median (line), change points (dashed)" : \
	"bench trend: %s of each run (dots), each segment's median (line), change points (dashed) with their change and 95%% interval", stat) font ",10"
# room on the right for the labels of change points near the end
set rmargin 9
unset key
do for [i = 1:n] {
	# stats keeps to the y range set last, the panel before's: a second
	# series of another size (new's ns after old's us) would have no points
	set autoscale y
	if (paired) {
		stats csv using (is(i) ? column("subject") : NaN) nooutput
		lo_s = STATS_min
		hi_s = STATS_max
		stats csv using (is(i) ? column("control") : NaN) nooutput
		lo_s = STATS_min < lo_s ? STATS_min : lo_s
		hi_s = STATS_max > hi_s ? STATS_max : hi_s
		pad = (hi_s - lo_s) * 0.12 + hi_s * 0.01
		set yrange [lo_s - pad:hi_s + 2 * pad]
		set title sprintf("%s %s: the subject's and the control's own median run per night (the machine's shifts move both)", \
			word(series, i)[:strstrt(word(series, i), "/") - 1], word(series, i)[strstrt(word(series, i), "/") + 1:]) noenhanced
		set xlabel timed ? "" : "night, in time order"
		set ylabel sprintf("%s (%s)", stat, unit)
		set key top left horizontal
		plot csv using (is(i) ? xrun(0) : NaN):(column("subject")) with linespoints pt 7 ps 0.5 lc rgb subject_colour title "subject", \
		     csv using (is(i) ? xrun(0) : NaN):(column("control")) with linespoints pt 7 ps 0.5 lc rgb control_colour title "control"
		unset key
	}
	lo = lo_y[i]
	hi = hi_y[i]
	pad = (hi - lo) * 0.12 + hi * 0.01
	set yrange [lo - pad:hi + 4 * pad]
	k = nr_cp(i)
	set title sprintf("%s %s: %s", word(series, i)[:strstrt(word(series, i), "/") - 1] . " " . \
		word(series, i)[strstrt(word(series, i), "/") + 1:], paired ? stat . " subject/control" : stat, \
		k == 0 ? "no change point" : k == 1 ? "1 change point" : sprintf("%d change points", k)) noenhanced
	set xlabel timed ? "" : paired ? "night, in time order" : "run, in time order"
	set ylabel paired ? "subject / control" : sprintf("%s (%s)", stat, unit)
	# a change point: a dashed line down the panel, its change and interval
	# at the top in two lines, every other one a step lower so that close
	# ones do not overwrite each other. Its rows come through awk: gnuplot
	# 5.4 crashes on "with labels" whose rows are all filtered out as NaN
	cps = "< awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } " . key . \
		" == \"" . word(series, i) . "\"' '" . changes . "'"
	if (k > 0) {
		plot csv using (is(i) ? xrun(0) : NaN):(column(stat)) with points pt 7 ps 0.6 lc rgb run_colour notitle, \
		     csv using (is(i) ? xrun(0) : NaN):(column("segment_median")) with steps lw 2.5 lc rgb median_colour notitle, \
		     cps using (xcp(0)):(lo - pad):(0):(hi + 5 * pad - lo):(colour(0)) \
			with vectors nohead dt 2 lw 1.5 lc rgb variable notitle, \
		     cps using (xcp(0)):(hi + (int(column(0)) % 2 ? 1.3 : 3.1) * pad): \
			(sprintf(" %+.1f%%\n [%+.1f%%, %+.1f%%]", column("change_pct"), column("ci_lo_pct"), column("ci_hi_pct"))):(colour(0)) \
			with labels left font ",9" tc rgb variable notitle
	} else {
		plot csv using (is(i) ? xrun(0) : NaN):(column(stat)) with points pt 7 ps 0.6 lc rgb run_colour notitle, \
		     csv using (is(i) ? xrun(0) : NaN):(column("segment_median")) with steps lw 2.5 lc rgb median_colour notitle
	}
}
unset multiplot
