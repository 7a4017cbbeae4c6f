# sweep.gp SWEEP_CSV OUT - old and new mean against the number of possible
# CPUs, log-log: the O(nr_possible_cpus) loop beside the flat new path.
# gnuplot -c plots/sweep.gp results/X/sweep.csv sweep.png
csv = ARG1
out = ARG2
load 'plots/common.gp'

set title "desc\\_set\\_defaults(): mean time per call against possible CPUs"
set xlabel "possible CPUs (log scale)"
set ylabel sprintf("mean time per call (%s, log scale)", unit)
set logscale xy 2
set xtics format "%.0f"
set ytics ()
set for [k = 0:62:2] ytics add (nice(2.0**k) 2.0**k)
set key top left
plot csv using (column("possible_cpus")):(column("old_mean")) with linespoints lw 2 pt 7 lc rgb old_colour title "old: with the for\\_each\\_possible\\_cpu clear", \
     csv using (column("possible_cpus")):(column("new_mean")) with linespoints lw 2 pt 5 lc rgb new_colour title "new: without it"
