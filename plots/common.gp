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

# Columns are read by their names in the header (columnheaders), never
# by position. csvawk(prog, file): the command that runs the awk program
# prog over the rows of file, "#" lines skipped, $c["name"] a column by
# name. Built by concatenation: gnuplot 5.4's sprintf doubles a "%%"
# that follows a long substitution.
# meta(key, file): the value of file's metadata key as bench reads it
# (bench show --meta), or "": never sed on its "#" lines. bench is the one
# run.sh names (gnuplot -e "bench='...'"), else the checkout's ./bench
if (!exists("bench")) bench = "./bench"
meta(key, file) = system(sprintf("'%s' show --meta %s '%s' 2>/dev/null", bench, key, file))
csvawk(prog, file) = "awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next } " . \
	prog . "' '" . file . "'"
# hascol(file, name): 1 when the header of file has the column name
hascol(file, name) = int(system(csvawk("END { print (\"" . name . "\" in c) ? 1 : 0 }", file)))
c_cpu = "cpu"
c_node = "node"
c_bucket = "bucket"
c_lo = "lo_ns"
c_hi = "hi_ns"
c_samples = "samples"
c_pct = "percentile"
# a result of bench run --runs has a run column; the plots draw the rows
# merged over the runs. A file of format 1 has none.
has_run = hascol(csv, "run")
merged_runs(dummy) = (!has_run || strcol("run") eq "all")
# the merge over CPUs (and runs) of variant v; per-CPU rows of v
sel(v) = (strcol("variant") eq v && merged_runs(0) && strcol(c_cpu) eq "all")
percpu(v) = (strcol("variant") eq v && merged_runs(0) && strcol(c_cpu) ne "all")

# the CSV's unit ("ns", "cycles", or "insn": bench vm's counted clock,
# instructions), from its metadata
unit = meta("unit", csv)
if (unit ne "cycles" && unit ne "insn") unit = "ns"

# 16384 -> "16.4 us" (or "16.4k" cycles, "16.4k insn"): readable bucket bounds
count(v) = v >= 1e6 ? sprintf("%.3gM", v / 1e6) : v >= 1e3 ? sprintf("%.3gk", v / 1e3) : sprintf("%.0f", v)
nice(v) = unit eq "cycles" ? count(v) : unit eq "insn" ? count(v) . " insn" : \
	(v >= 1e6 ? sprintf("%.3g ms", v / 1e6) : v >= 1e3 ? sprintf("%.3g us", v / 1e3) : sprintf("%.0f ns", v))

# log2 time axis ticked at every other power of two, which are bucket
# bounds for every frac_bits
logtime_axis = "set logscale x 2; set xtics (); set for [k = 0:62:2] xtics add (nice(2.0**k) 2.0**k)"
