#!/usr/bin/python3
"""synth_sweeps.py OUT NIGHTS SEED STEP_NIGHT STEP_PCT - a synthetic nightly
history of sweeps, as bench vm -p 64,128,256,480 -o OUT/nNN/ writes it:
OUT/nNN/stock-pP.csv, one kstats-bench CSV (format 2, frac_bits 2) per
possible-CPU count P with its possible_cpus metadata, 3 runs each of one
series (synth old), each run one bucket whose mean is its figure.

A run's figure is 2000 ns + 20 ns per possible CPU, times 1% noise; from
night STEP_NIGHT on (1-based; 0: never) the per-CPU part grows by
STEP_PCT: the slope steps, the figure at 64 CPUs barely moves. Seeded:
the same arguments, the same files."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth_nights  # noqa: E402  (its writer; importing it runs nothing)

COUNTS = (64, 128, 256, 480)


def main():
    out, nights, seed, step_night, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        int(sys.argv[4]), float(sys.argv[5]) / 100
    rng = random.Random(seed)
    for n in range(1, nights + 1):
        d = os.path.join(out, "n%03d" % n)
        os.makedirs(d, exist_ok=True)
        k = 1 + step if step_night and n >= step_night else 1
        for p in COUNTS:
            figs = [int((2000 + 20 * k * p) * rng.lognormvariate(0, 0.01)) for _ in range(3)]
            synth_nights.write(os.path.join(d, "stock-p%d.csv" % p), n, figs, p)


main()
