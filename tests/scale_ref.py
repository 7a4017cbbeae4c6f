#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""scale_ref.py - an independent reference for bench scale's fits:
scipy.stats.theilslopes(y, x, 0.95, method='joint') (Debian's
python3-scipy) on the points bench scale itself fitted.

  bench scale -f points FILE... > points.csv
  tests/scale_ref.py points.csv

Prints, per (group, workload, variant) in the order first seen, the
columns of bench scale -f csv's fit rows that scipy computes:

  group,workload,variant,points,slope,slope_lo,slope_hi,intercept

(%.9g, as bench scale prints them), so that tests/cli/scale.bats can
compare the two line for line. The points carry every digit (%.17g), so
both fit the same doubles.
"""
import csv
import sys

import numpy as np
from scipy.stats import theilslopes


def main(argv):
    path = argv[1]
    series = {}
    with open(path, newline="") as f:
        # the "# unit:" line and any other comment before the header
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            key = (row["group"], row["workload"], row["variant"])
            stat = list(row.keys())[-1]
            series.setdefault(key, ([], []))
            series[key][0].append(float(row["possible_cpus"]))
            series[key][1].append(float(row[stat]))
    for key, (x, y) in series.items():
        r = theilslopes(np.array(y), np.array(x), 0.95, method="joint")
        print("%s,%s,%s,%d,%.9g,%.9g,%.9g,%.9g" % (key + (len(x), r[0], r[2], r[3], r[1])))


if __name__ == "__main__":
    main(sys.argv)
