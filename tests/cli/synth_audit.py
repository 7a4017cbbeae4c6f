#!/usr/bin/python3
"""synth_audit.py OUT NAME SEED PLANT - a synthetic audit sweep, as bench
vm -p 16,128,255 -B 3 -o OUT NAME=... -- audit writes it: OUT/NAME-pP.csv,
one kstats-bench CSV (format 2, frac_bits 2) per possible-CPU count P with
one series per entry and 3 runs (boots) each, and OUT/NAME-trace-pP.csv,
bench trace's files of show_stat and snmp_fold_field timed in the same
boots. Each run is one bucket whose mean is its figure.

The entries: proc-stat read costs 20000 + 1500 P ns (show_stat 15000 +
1215 P of it: 81%), fork-exit 90000 + 4 P; the other twelve are flat
controls. PLANT 1 adds 40 ns per possible CPU to tmpfs-mount. Each run
adds 1% noise, seeded: the same arguments, the same files."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth_nights  # noqa: E402  (its slot(); importing it runs nothing)

COUNTS = (16, 128, 255)
RUNS = 3
ENTRIES = (
    ("proc-stat", "read", 20000, 1500),
    ("fork-exit", "fork", 90000, 4),
    ("syscall-null", "call", 300, 0),
    ("statfs", "call", 2500, 0),
    ("netns", "create", 400000, 0),
    ("tmpfs-mount", "mount", 60000, 0),
    ("mntns", "unshare", 70000, 0),
    ("io-uring", "setup", 30000, 0),
    ("aio", "setup", 12000, 0),
    ("fork-exec", "exec", 500000, 0),
    ("cgroup-mkdir", "mkdir", 80000, 0),
    ("bpf-lookup", "lookup", 700, 0),
    ("bpf-info", "info", 5000, 0),
    ("proc-version", "read", 3000, 0),
)
TRACED = (("show_stat", 15000, 1215), ("snmp_fold_field", 800, 0))


def series(f, wl, var, figs, rows):
    """the runs of one series, then its merged rows into @rows' caller"""
    merged = {}
    for run, v in enumerate(figs, 1):
        s, lo, hi = synth_nights.slot(v)
        f.write("%s,%s,%d,all,-1,%d,%d,%d,100,%d,1.000000\n" % (wl, var, run, s, lo, hi, v))
        merged.setdefault(s, [lo, hi, 0, 0])
        merged[s][2] += 100
        merged[s][3] += 100 * v
    total = sum(r[2] for r in merged.values())
    cum = 0
    for s in sorted(merged):
        lo, hi, n, tot = merged[s]
        cum += n
        pct = cum * 10**6 // total
        rows.append("%s,%s,all,all,-1,%d,%d,%d,%d,%d,%d.%06d\n" % (wl, var, s, lo, hi, n, tot // n,
                                                                 pct // 10**6, pct % 10**6))


def write(path, name, p, meta, entries, rng):
    with open(path, "w") as f:
        f.write("# kstats-bench-csv 2\n# timestamp: 2026-01-01T02:00:00Z\n")
        f.write("# vm_name: %s\n# vm_boots: %d\n# possible_cpus: %d\n" % (name, RUNS, p))
        for k, v in meta:
            f.write("# %s: %s\n" % (k, v))
        f.write("# unit: ns\n# frac_bits: 2\n# runs: %d\n" % RUNS)
        f.write("workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile\n")
        rows = []
        for wl, var, a, b in entries:
            series(f, wl, var, [int((a + b * p) * rng.lognormvariate(0, 0.01)) for _ in range(RUNS)],
                   rows)
        f.writelines(rows)


def main():
    out, name, seed, plant = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    entries = [(wl, var, a, b + (40 if plant and wl == "tmpfs-mount" else 0))
               for wl, var, a, b in ENTRIES]
    for p in COUNTS:
        write(os.path.join(out, "%s-p%d.csv" % (name, p)), name, p,
              [("source", "run"), ("audit_skipped", "none")], entries, rng)
        for fn, a, b in TRACED:
            write(os.path.join(out, "%s-trace-%s-p%d.csv" % (name, fn, p)), name, p,
                  [("source", "trace"), ("function", fn), ("traced_command", "/bench audit")],
                  [(fn, "time", a, b), (fn, "gap", 100, 0)], rng)


main()
