#!/usr/bin/python3
"""synth_audit.py OUT NAME SEED PLANT [plugin] - a synthetic audit sweep, as bench
vm -p 16,128,255 -B 3 -o OUT NAME=... -- audit writes it: OUT/NAME-pP.csv,
one kstats-bench CSV (format 2, frac_bits 2) per possible-CPU count P with
one series per entry, 3 runs (boots) each, and bench audit's metadata;
and OUT/NAME-trace-FUNC-pP.csv, bench trace's files of the functions
timed in the same boots. Each run is one bucket whose mean is its figure.

The entries: proc-stat read costs 20000 + 1500 P ns (show_stat, timed
under the whole battery, 15000 + 1215 P of it: 81%), fork-exit 90000 +
4 P; the twelve others are flat, the first four the battery's controls.
io-uring is skipped, as a kernel without it skips it. PLANT 1 adds 40 ns
per possible CPU to mount-tmpfs, 36 of them in alloc_vfsmnt (timed under
mount-tmpfs alone). Each run adds 1% noise, seeded: the same arguments,
the same files.

With "plugin", the sweep is counted (unit insn, 0.05% noise) as the
plugin's insns mode writes it, netns grows 2200 a CPU, and OUT/NAME-funcs-pP.csv
holds each boot's instructions by function of each entry's window
(exact, FUNCS): proc-stat's show_stat 900 P (60%), netns's memset_orig
1150 P (52%), fork-exit's memset_orig 5 P beside copy_process's -1 P;
arch_irq_stat_cpu runs in proc-stat at 128 and 255 only."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth_nights  # noqa: E402  (its slot(); importing it runs nothing)

COUNTS = (16, 128, 255)
RUNS = 3
ENTRIES = (
    ("syscall-null", "syscall", 300, 0),
    ("proc-version", "read", 3000, 0),
    ("statfs", "statfs", 2500, 0),
    ("file-nr", "read", 2800, 0),
    ("proc-stat", "read", 20000, 1500),
    ("netns", "netns", 400000, 0),
    ("mount-tmpfs", "mount", 60000, 0),
    ("mntns", "unshare", 70000, 0),
    ("aio", "setup", 12000, 0),
    ("fork-exit", "fork", 90000, 4),
    ("fork-exec", "exec", 500000, 0),
    ("cgroup-mkdir", "mkdir", 80000, 0),
    ("bpf-pcpu-lookup", "lookup", 700, 0),
    ("bpf-prog-info", "info", 5000, 0),
)
CONTROLS = "syscall-null proc-version statfs file-nr"
SKIPPED = ("io-uring", "io_uring_setup: ENOSYS (CONFIG_IO_URING is off)")
TRACED = (("show_stat", 15000, 1215, "/bench audit"),
          ("snmp_fold_field", 800, 0, "/bench audit"),
          ("alloc_vfsmnt", 3000, 0, "/bench run -w mount-tmpfs"))


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


def write(path, name, p, meta, entries, rng, unit="ns", noise=0.01):
    with open(path, "w") as f:
        f.write("# kstats-bench-csv 2\n# timestamp: 2026-01-01T02:00:00Z\n")
        f.write("# vm_name: %s\n# vm_boots: %d\n# possible_cpus: %d\n" % (name, RUNS, p))
        for k, v in meta:
            f.write("# %s: %s\n" % (k, v))
        f.write("# unit: %s\n# frac_bits: 2\n# runs: %d\n" % (unit, RUNS))
        f.write("workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile\n")
        rows = []
        for wl, var, a, b in entries:
            series(f, wl, var,
                   [int((a + b * p) * rng.lognormvariate(0, noise)) for _ in range(RUNS)], rows)
        f.writelines(rows)


# each entry's functions: (function, a, b) of a + b P instructions in its window
FUNCS = {
    "proc-stat": (("show_stat", 9000, 900), ("_find_next_bit", 2000, 300),
                  ("seq_put_decimal_ull", 4000, 300), ("kernel-no-symbol", 5000, 0)),
    "netns": (("memset_orig", 100000, 1150), ("_find_next_bit", 50000, 440),
              ("pcpu_alloc_noprof", 150000, 310), ("__snmp6_fill_stats64", 100000, 300)),
    "fork-exit": (("memset_orig", 50000, 5), ("copy_process", 40000, -1)),
}


def funcs(path, name, p, entries, plant):
    """the plugin's funcs file of count @p: one sample a boot of each function"""
    rng = random.Random(0)
    meta = [("source", "plugin"), ("plugin", "ksbplugin 1, instructions of the guest's marked windows"),
            ("plugin_figure", "funcs"), ("audit_battery", "builtin"), ("vm_clock", "counted")]
    rows = []
    for wl, _var, a, b in entries:
        fs = FUNCS.get(wl, (("do_syscall_64", a, 0),))
        if wl == "mount-tmpfs":
            fs = (("alloc_vfsmnt", 3000, 36 if plant else 0),
                  ("kernel-no-symbol", a - 3000, b - (36 if plant else 0)))
        if wl == "proc-stat" and p > 16:
            fs = fs + (("arch_irq_stat_cpu", 0, 30),)
        rows += [(fn, wl, fa, fb) for fn, fa, fb in fs]
    write(path, name, p, meta, rows, rng, "insn", 0)


def main():
    out, name, seed, plant = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    plugin = len(sys.argv) > 5 and sys.argv[5] == "plugin"
    unit, noise = ("insn", 0.0005) if plugin else ("ns", 0.01)
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    entries = [(wl, var, a, b + (40 if plant and wl == "mount-tmpfs" else 0) +
                (2200 if plugin and wl == "netns" else 0)) for wl, var, a, b in ENTRIES]
    for p in COUNTS:
        write(os.path.join(out, "%s-p%d.csv" % (name, p)), name, p,
              [("source", "run"), ("workload", "audit"), ("audit_battery", "builtin"),
               ("audit_entries", len(ENTRIES) + 1), ("audit_controls", CONTROLS),
               ("audit_skipped", SKIPPED[0]), ("audit_skip_why", "%s: %s" % SKIPPED)],
              entries, rng, unit, noise)
        if plugin:
            funcs(os.path.join(out, "%s-funcs-p%d.csv" % (name, p)), name, p, entries, plant)
            continue
        for fn, a, b, cmd in TRACED:
            b += 36 if plant and fn == "alloc_vfsmnt" else 0
            write(os.path.join(out, "%s-trace-%s-p%d.csv" % (name, fn, p)), name, p,
                  [("source", "trace"), ("function", fn), ("traced_command", cmd)],
                  [(fn, "time", a, b), (fn, "gap", 100, 0)], rng)


main()
