# scale.gp POINTS FITS OUT [UNIT] - the picture of ./run.sh scale: per
# series (one panel each), every run's figure against its possible CPUs
# (dots, one colour per group: A blue, B red), the Theil-Sen line of each
# group, and the band between the lines of its slope interval's ends
# (each through the middle of the points: what --at extrapolates), the
# slope [95% interval] and the verdict in the key.
# The inputs are what ./run.sh scale writes: scale-points.csv (bench
# scale -f points) and scale.csv (bench scale -f csv). UNIT: the points'
# "# unit:" line unless given, else ns.
pts = ARG1
fits = ARG2
out = ARG3
if (!exists("bench")) bench = "./bench"
unit = ARGC >= 4 && ARG4 ne "" ? ARG4 : \
	system(sprintf("'%s' show --meta unit '%s' 2>/dev/null", bench, pts))
if (unit eq "") unit = "ns"

# the fit rows of FITS, their columns by name (c["slope"]) from its header
awkfit = "awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next } $c[\"kind\"] == \"fit\""
series = system(sprintf("%s && !seen[$c[\"workload\"] \"/\" $c[\"variant\"]]++ { printf \"%%s/%%s \", $c[\"workload\"], $c[\"variant\"] }' '%s'", awkfit, fits))
groups = system(sprintf("%s && !seen[$c[\"group\"]]++ { printf \"%%s \", $c[\"group\"] }' '%s'", awkfit, fits))
stat = system(sprintf("%s { print $c[\"stat\"]; exit }' '%s'", awkfit, fits))
ns = words(series)
ng = words(groups)

if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1000,(380 * ns + 60) dynamic enhanced font "sans,11" background rgb "white"
} else {
	set terminal pngcairo size 1000,(380 * ns + 60) enhanced font "sans,10"
}
set output out
set datafile separator ","
set datafile columnheaders
set grid xtics ytics lc rgb "#dddddd"
set border 3
set tics nomirror

# column NAME of the fit row of series i in group g ("" when the group lacks it)
fitcol(i, g, name) = system(sprintf("%s && $c[\"group\"] == \"%s\" && $c[\"workload\"] \"/\" $c[\"variant\"] == \"%s\" { print $c[\"%s\"]; exit }' '%s'", \
	awkfit, word(groups, g), word(series, i), name, fits))
array colour[2] = [0x2471a3, 0xc0392b]
array b[2]
array lo[2]
array hi[2]
array a[2]
array alo[2]
array ahi[2]
array has[2]
array txt[2]

wl(i) = word(series, i)[:strstrt(word(series, i), "/") - 1]
var(i) = word(series, i)[strstrt(word(series, i), "/") + 1:]
is(i, g) = strcol("group") eq word(groups, g) && strcol("workload") eq wl(i) && strcol("variant") eq var(i)

xmin = real(system(sprintf("%s { print $c[\"x_min\"] }' '%s' | sort -g | head -1", awkfit, fits)))
xmax = real(system(sprintf("%s { print $c[\"x_max\"] }' '%s' | sort -g | tail -1", awkfit, fits)))
pad = (xmax - xmin) * 0.05
set xrange [xmin - pad:xmax + pad]
set samples 200
# room above and below the points, so that none sits on the frame
set offsets 0, 0, graph 0.06, graph 0.06
set key top left font ",9" box opaque
set multiplot layout ns,1 title sprintf("bench scale: %s of each run against possible CPUs, Theil-Sen line and the band of its 95%% slope interval", stat) font ",10"
do for [i = 1:ns] {
	do for [g = 1:ng] {
		v = fitcol(i, g, "slope")
		has[g] = v ne ""
		if (has[g]) {
			b[g] = real(v)
			lo[g] = real(fitcol(i, g, "slope_lo"))
			hi[g] = real(fitcol(i, g, "slope_hi"))
			a[g] = real(fitcol(i, g, "intercept"))
			alo[g] = real(fitcol(i, g, "intercept_at_slope_lo"))
			ahi[g] = real(fitcol(i, g, "intercept_at_slope_hi"))
			txt[g] = sprintf("%s: %+.4g %s/CPU [%+.4g, %+.4g], %s", word(groups, g), b[g], \
				unit, lo[g], hi[g], fitcol(i, g, "verdict"))
		}
	}
	set title sprintf("%s %s", wl(i), var(i)) noenhanced
	set xlabel "possible CPUs"
	set ylabel sprintf("%s per run (%s)", stat, unit)
	plot for [g = 1:ng] '+' using 1:(has[g] ? alo[g] + lo[g] * $1 : NaN): \
		(has[g] ? ahi[g] + hi[g] * $1 : NaN) with filledcurves fs transparent solid 0.18 noborder \
		lc rgb colour[g] notitle, \
	     for [g = 1:ng] '+' using 1:(has[g] ? a[g] + b[g] * $1 : NaN) with lines lw 2 \
		lc rgb colour[g] title (has[g] ? txt[g] : "") noenhanced, \
	     for [g = 1:ng] pts using (is(i, g) ? column("possible_cpus") : NaN):(column(stat)) with points pt 7 ps 0.7 \
		lc rgb colour[g] notitle
}
unset multiplot
