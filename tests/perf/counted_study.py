#!/usr/bin/env python3
"""counted_study.py BENCH DIR - the tables of tests/perf/counted-study.sh.

Reads the files counted-study.sh left in DIR through BENCH (bench scale
-f points for every per-boot figure, -f csv for the slopes, bench compare
-f csv for the plant's verdicts) and prints docs/measurements.md's
tables in markdown. A cell is one entry at one possible-CPU count; its
spread is max/min - 1 of its per-boot figures; a shift is the ratio of
two cells' medians, less 1.
"""
import csv
import glob
import io
import os
import re
import statistics
import subprocess
import sys
import tempfile

BENCH, DIR = sys.argv[1], sys.argv[2]
STATS = ("min", "tm10")


def bench(*args, ok=(0,)):
    p = subprocess.run([BENCH, *args], capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit(f"counted_study.py: bench {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def rows(text):
    """the CSV rows of @text, its '#' lines skipped"""
    return list(csv.DictReader(io.StringIO("".join(l for l in text.splitlines(True) if not l.startswith("#")))))


TMP = tempfile.mkdtemp(prefix="counted-study.")


def files(cond):
    """the condition's CSVs; those of the 2-vCPU boots (qemu-counted:
    timed by their metadata, counted in fact) as copies in insn"""
    fs = sorted(glob.glob(os.path.join(DIR, cond, "*.csv")))
    if not cond.endswith("-c2"):
        return fs
    out = []
    for f in fs:
        dst = os.path.join(TMP, cond + "-" + os.path.basename(f))
        with open(f) as i, open(dst, "w") as o:
            for line in i:
                o.write("# unit: insn\n" if line == "# unit: ns\n" else line)
        out.append(dst)
    return out


def meta(f, key):
    for line in open(f):
        if line.startswith("# " + key + ": "):
            return line.split(": ", 1)[1].strip()
    return None


def cells(cond, stat):
    """{(workload, variant, possible): [per-boot figure]}: a sweep's points
    as bench scale takes them (-f points), a single count's runs as bench
    compare does (-f runs, counted files: 2 runs a side are enough)"""
    out = {}
    fs = files(cond)
    if len({meta(f, "possible_cpus") for f in fs}) > 1:
        for r in rows(bench("scale", "-s", stat, "-f", "points", *fs)):
            key = (r["workload"], r["variant"], int(r["possible_cpus"]))
            out.setdefault(key, []).append(float(r[stat]))
        return out
    for f in fs:
        p = int(meta(f, "possible_cpus"))
        for r in rows(bench("compare", "-s", stat, "-f", "runs", f, "--", f, ok=(0, 1))):
            if r["side"] == "before":
                out.setdefault((r["workload"], r["variant"], p), []).append(float(r[stat]))
    return out


def spread(v):
    return max(v) / min(v) - 1 if min(v) > 0 else float("inf")


def pct(x, d=2):
    return f"{100 * x:.{d}f}%"


def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]


def boot_seconds(cond):
    s = []
    for f in files(cond):
        for line in open(f):
            m = re.match(r"# vm_boot_seconds: (.*)", line)
            if m:
                s += [float(p.split(":")[1]) for p in m.group(1).split()]
                break
    return s


def slope(cond, wl, unit):
    fs = files(cond)
    if not fs:
        return "-"
    for r in rows(bench("scale", "-f", "csv", *fs, ok=(0, 1))):
        if r["kind"] == "fit" and r["workload"] == wl:
            return f"{float(r['slope']):+.4g} [{float(r['slope_lo']):+.4g}, {float(r['slope_hi']):+.4g}] {unit}/CPU"
    return "-"


AUDIT = [
    ("6.12 timed, idle", "audit-d612-timed", "ns"),
    ("6.12 counted, idle", "audit-d612-counted", "insn"),
    ("6.12 timed, busy", "audit-d612-timed-busy", "ns"),
    ("6.12 counted, busy", "audit-d612-counted-busy", "insn"),
    ("6.12 counted, 2 vCPUs", "audit-d612-counted-c2", "insn"),
    ("6.1 timed, idle", "audit-d61-timed", "ns"),
    ("6.1 counted, idle", "audit-d61-counted", "insn"),
]


def audit_table():
    print("| condition | cells | spread, median / 90th pct / max (min) | median (tm10) | cells within 0.05% (min) | entries past 0.5% at a count (min) | /proc/stat slope | cpu.stat slope | boot wall s, median |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, cond, unit in AUDIT:
        c = cells(cond, "min")
        if not c:
            continue
        sp = [spread(v) for v in c.values()]
        tm = [spread(v) for v in cells(cond, "tm10").values()]
        wide = sorted({k[0] for k, v in c.items() if spread(v) > 0.005})
        secs = boot_seconds(cond)
        print(f"| {name} | {len(sp)} | {pct(statistics.median(sp))} / {pct(q(sp, 0.9))} / {pct(max(sp))} "
              f"| {pct(statistics.median(tm))} | {sum(x <= 0.0005 for x in sp)} of {len(sp)} "
              f"| {', '.join(wide) or 'none'} | {slope(cond, 'proc-stat', unit)} | {slope(cond, 'cpu-stat', unit)} "
              f"| {statistics.median(secs):.1f} |")


def shift_table():
    print()
    print("| clock | busy against idle: shift of each cell's median, median / 90th pct / max of its size | cells whose idle spread is under 0.1% | of them, within 0.5% busy |")
    print("|---|---|---|---|")
    for clock in ("timed", "counted"):
        idle, busy = cells(f"audit-d612-{clock}", "min"), cells(f"audit-d612-{clock}-busy", "min")
        keys = sorted(set(idle) & set(busy))
        if not keys:
            continue
        sh = [statistics.median(busy[k]) / statistics.median(idle[k]) - 1 for k in keys]
        quiet = [k for k in keys if spread(idle[k]) < 0.001]
        agree = [k for k in quiet if abs(statistics.median(busy[k]) / statistics.median(idle[k]) - 1) <= 0.005]
        a = [abs(x) for x in sh]
        print(f"| {clock} | {pct(statistics.median(sh), 3)} / {pct(q(a, 0.9), 2)} / {pct(max(a), 2)} "
              f"| {len(quiet)} of {len(keys)} | {len(agree)} |")


def c2_table():
    print()
    print("| 2 vCPUs against 1, counted | cells | spread with 1 / 2 vCPUs, median (min) | level shift, median / range |")
    print("|---|---|---|---|")
    for name, one, two in (("6.12 audit", "audit-d612-counted", "audit-d612-counted-c2"),
                           ("kernel-irq-alloc on stock, 255", "patch-c1", "patch-c2")):
        a, b = cells(one, "tm10" if "patch" in one else "min"), cells(two, "tm10" if "patch" in two else "min")
        keys = sorted(set(a) & set(b))
        if not keys:
            continue
        sh = [statistics.median(b[k]) / statistics.median(a[k]) - 1 for k in keys]
        print(f"| {name} | {len(keys)} | {pct(statistics.median([spread(a[k]) for k in keys]))} / "
              f"{pct(statistics.median([spread(b[k]) for k in keys]))} | {pct(statistics.median(sh))} / "
              f"[{pct(min(sh))}, {pct(max(sh))}] |")


def slopes_table():
    print()
    print("| entry | 6.12 counted, insn/CPU [95%] | 6.1 counted, insn/CPU [95%] |")
    print("|---|---|---|")
    fits = {}
    for cond in ("audit-d612-counted", "audit-d61-counted"):
        fs = files(cond)
        for r in rows(bench("scale", "-f", "csv", *fs)) if fs else []:
            if r["kind"] == "fit":
                fits.setdefault(r["workload"], {})[cond] = r
    for wl in sorted(fits, key=lambda w: -float(fits[w].get("audit-d612-counted", {"slope": 0})["slope"])):
        cols = []
        for cond in ("audit-d612-counted", "audit-d61-counted"):
            r = fits[wl].get(cond)
            cols.append(f"{float(r['slope']):+.4g} [{float(r['slope_lo']):+.4g}, {float(r['slope_hi']):+.4g}]" if r else "-")
        print(f"| {wl} | {cols[0]} | {cols[1]} |")


def patch_table():
    fs = files("patch")
    if not fs:
        return
    print()
    print("| kernel | alloc, insn/CPU [95%] | free, insn/CPU [95%] |")
    print("|---|---|---|")
    for k in ("stock", "patched", "percpu"):
        kf = [f for f in fs if os.path.basename(f).startswith(k + "-")]
        got = {r["variant"]: r for r in rows(bench("scale", "-s", "tm10", "-f", "csv", *kf)) if r["kind"] == "fit"}
        print(f"| {k} | " + " | ".join(
            f"{float(got[v]['slope']):+.2f} [{float(got[v]['slope_lo']):+.2f}, {float(got[v]['slope_hi']):+.2f}]"
            if v in got else "-" for v in ("alloc", "free")) + " |")


def plant_table():
    reps = sorted(glob.glob(os.path.join(DIR, "plant", "r*")), key=lambda p: int(p.rsplit("r", 1)[1]))
    if not reps:
        return
    print()
    print("| pair, 2 boots a side at 255, counted | flagged | change of alloc, range over the repetitions | spreads of a side, max |")
    print("|---|---|---|---|")
    for name, after in (("stock -- planted (irq_plant_ns, ~1%)", "planted"), ("stock -- stock (A/A)", "again")):
        flagged, ch, sp = 0, [], []
        for r in reps:
            out = rows(bench("compare", "-f", "csv", os.path.join(r, "stock.csv"), os.path.join(r, after + ".csv"), ok=(0, 1)))
            for row in out:
                if row["variant"] != "alloc":
                    continue
                flagged += row["verdict"] in ("regression", "improvement", "not repeatable")
                ch.append(float(row["change_pct"]))
                sp += [float(row["before_spread_pct"]), float(row["after_spread_pct"])]
        print(f"| {name} | {flagged} of {len(reps)} | [{min(ch):+.2f}%, {max(ch):+.2f}%] | {max(sp):.2f}% |")


def load():
    path = os.path.join(DIR, "load")
    if os.path.exists(path):
        print()
        print("Load average (1, 5, 15 min) at each sweep's start: " +
              "; ".join(" ".join(l.split()) for l in open(path)))


audit_table()
shift_table()
c2_table()
slopes_table()
patch_table()
plant_table()
load()
