# common.gp - shared by every plot: the terminal from the output's
# extension (800x500, readable), CSV input, tick labels in ns/us/ms.
# Call as: load 'plots/common.gp' after setting out.

if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 800,500 dynamic enhanced font "sans,11" background rgb "white"
} else {
	set terminal pngcairo size 800,500 enhanced font "sans,10"
}
set output out
set datafile separator ","
set datafile columnheaders
set grid xtics ytics mxtics lc rgb "#dddddd"
set border 3
set tics nomirror
old_colour = "#c0392b"
new_colour = "#2471a3"

# CSV format 2 (bench run --runs) has a run column after variant; the
# plots draw the rows merged over the runs. Format 1 has no run column.
csvfmt = system(sprintf("head -1 '%s' | sed -n 's/^# kstats-bench-csv //p'", csv))
o = (csvfmt eq "1") ? 0 : 1
c_cpu = 3 + o
c_node = 4 + o
c_bucket = 5 + o
c_lo = 6 + o
c_hi = 7 + o
c_samples = 8 + o
c_pct = 10 + o
merged_runs(dummy) = (o == 0 || strcol(3) eq "all")
# the merge over CPUs (and runs) of variant v; per-CPU rows of v
sel(v) = (strcol(2) eq v && merged_runs(0) && strcol(c_cpu) eq "all")
percpu(v) = (strcol(2) eq v && merged_runs(0) && strcol(c_cpu) ne "all")

# the CSV's unit ("ns" or "cycles"), from its metadata
unit = system(sprintf("sed -n 's/^# unit: //p' '%s' | head -1", csv))
if (unit ne "cycles") unit = "ns"

# 16384 -> "16.4 us" (or "16.4k cycles"): readable bucket bounds
nice(v) = unit eq "cycles" ? \
	(v >= 1e6 ? sprintf("%.3gM", v / 1e6) : v >= 1e3 ? sprintf("%.3gk", v / 1e3) : sprintf("%.0f", v)) : \
	(v >= 1e6 ? sprintf("%.3g ms", v / 1e6) : v >= 1e3 ? sprintf("%.3g us", v / 1e3) : sprintf("%.0f ns", v))

# log2 time axis ticked at every other power of two, which are bucket
# bounds for every frac_bits
logtime_axis = "set logscale x 2; set xtics (); set for [k = 0:62:2] xtics add (nice(2.0**k) 2.0**k)"
