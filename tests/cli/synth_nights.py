#!/usr/bin/python3
"""synth_nights.py OUT NIGHTS SEED STEP_NIGHT STEP_PCT - a synthetic nightly
history with a control: OUT/subject/nNN.csv and OUT/control/nNN.csv, one
kstats-bench CSV (format 2, frac_bits 2) a night and side, 3 runs each of
one series (synth old), each run one bucket whose mean is the run's figure.

The machine's level moves both sides alike: piecewise constant, a new
level in [0.8, 1.2] every 3 to 8 nights (shifts of up to +-20%); each run
adds 1% noise; the subject alone steps by STEP_PCT from night STEP_NIGHT
(1-based; 0: no step). Seeded: the same arguments, the same files."""
import datetime
import os
import random
import sys

FB = 2


def slot(v):
    """the kstats_hist slot of value v at frac_bits 2, and its [lo, hi)"""
    e = v.bit_length() - 1
    if e < FB:
        return v, v, v + 1
    width = 1 << (e - FB)
    s = (e - FB + 1) * (1 << FB) + (v >> (e - FB)) - (1 << FB)
    lo = (v >> (e - FB)) << (e - FB)
    return s, lo, lo + width


def write(path, night, figures, possible=0):
    """one night's file; possible: its possible_cpus metadata line, 0 none"""
    with open(path, "w") as f:
        f.write("# kstats-bench-csv 2\n")
        day = datetime.date(2025, 1, 1) + datetime.timedelta(days=night - 1)
        f.write("# timestamp: %sT02:00:00Z\n" % day.isoformat())
        if possible:
            f.write("# possible_cpus: %d\n" % possible)
        f.write("# unit: ns\n# frac_bits: 2\n# runs: %d\n" % len(figures))
        f.write("workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile\n")
        rows = {}
        for run, v in enumerate(figures, 1):
            s, lo, hi = slot(v)
            f.write("synth,old,%d,all,-1,%d,%d,%d,100,%d,1.000000\n" % (run, s, lo, hi, v))
            rows.setdefault(s, [lo, hi, 0, 0])
            rows[s][2] += 100
            rows[s][3] += 100 * v
        total = sum(r[2] for r in rows.values())
        cum = 0
        for s in sorted(rows):
            lo, hi, n, tot = rows[s]
            cum += n
            pct = cum * 10**6 // total  # truncated, as bench writes it
            f.write("synth,old,all,all,-1,%d,%d,%d,%d,%d,%d.%06d\n" % (s, lo, hi, n, tot // n, pct // 10**6, pct % 10**6))


def main():
    out, nights, seed, step_night, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        int(sys.argv[4]), float(sys.argv[5]) / 100
    rng = random.Random(seed)
    for side in ("subject", "control"):
        os.makedirs(os.path.join(out, side), exist_ok=True)
    level, left = 1.0, 0
    for n in range(1, nights + 1):
        if left == 0:
            level, left = rng.uniform(0.8, 1.2), rng.randint(3, 8)
        left -= 1
        for side, base in (("subject", 10000), ("control", 9000)):
            k = 1 + step if side == "subject" and step_night and n >= step_night else 1
            figs = [int(base * level * k * rng.lognormvariate(0, 0.01)) for _ in range(3)]
            write(os.path.join(out, side, "n%03d.csv" % n), n, figs)


if __name__ == "__main__":
    main()
