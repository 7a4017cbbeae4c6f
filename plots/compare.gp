# compare.gp CDF RUNS VERDICTS OUT - the picture of ./run.sh compare:
# per series (one row each), both sides' pooled CDFs overlaid (left), and
# every run's figure as a dot, before and after, with the change and its
# 95% interval (right). The three inputs are what ./run.sh compare writes:
# compare-cdf.csv (side,workload,variant,hi,fraction), compare-runs.csv
# (bench compare -f runs) and compare.csv (bench compare -f csv).
csv = ARG1
runs = ARG2
verdicts = ARG3
out = ARG4
load 'plots/common.gp'

series = system(csvawk("{ printf \"%s/%s \", $c[\"workload\"], $c[\"variant\"] }", verdicts))
n = words(series)
stat = system(csvawk("{ print $c[\"stat\"]; exit }", verdicts))
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1000,(320 * n + 40) dynamic enhanced font "sans,11" background rgb "white"
} else {
	set terminal pngcairo size 1000,(320 * n + 40) enhanced font "sans,10"
}
set output out

# "+16.4% [+11.7%, +20.2%] p=0.001 n=6+6 regression" for series i
verdict(i) = system(csvawk("$c[\"workload\"] \"/\" $c[\"variant\"] == \"" . word(series, i) . \
	"\" { printf \"%+.1f%% [%+.1f%%, %+.1f%%] n=%s+%s %s\", $c[\"change_pct\"], $c[\"ci_lo_pct\"], " . \
	"$c[\"ci_hi_pct\"], $c[\"n_before\"], $c[\"n_after\"], $c[\"verdict\"] }", verdicts))
is(i) = (strcol("workload") . "/" . strcol("variant") eq word(series, i))
before_colour = "#7f8c8d"
after_colour = "#8e44ad"

set multiplot layout n,2 title "bench compare: the pooled distributions (left) and the figure the gate tests, one dot per run (right)"
do for [i = 1:n] {
	set title sprintf("%s: pooled CDF", word(series, i)) noenhanced
	set xlabel sprintf("time per call (%s), log scale", unit)
	set ylabel "fraction at or below"
	eval logtime_axis
	set yrange [0:1.02]
	set xrange [*:*]
	set key bottom right
	plot csv using (is(i) && strcol("side") eq "before" ? column("hi") : NaN):(column("fraction")) with steps lw 2 lc rgb before_colour title "before", \
	     csv using (is(i) && strcol("side") eq "after" ? column("hi") : NaN):(column("fraction")) with steps lw 2 lc rgb after_colour title "after"
	unset logscale x
	set xtics ("before" 1, "after" 2)
	set xrange [0.5:2.5]
	set yrange [*:*]
	set autoscale y
	set title sprintf("%s per run: %s", stat, verdict(i)) noenhanced
	set xlabel ""
	set ylabel sprintf("%s (%s)", stat, unit)
	set key off
	plot runs using (is(i) && strcol("side") eq "before" ? 1 + 0.04 * (column("run") - 3.5) : NaN):(column(stat)) with points pt 7 ps 1.2 lc rgb before_colour, \
	     runs using (is(i) && strcol("side") eq "after" ? 2 + 0.04 * (column("run") - 3.5) : NaN):(column(stat)) with points pt 7 ps 1.2 lc rgb after_colour
	set xtics autofreq
}
unset multiplot
