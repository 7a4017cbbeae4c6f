/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counted.h - the rules for exact figures: files measured under bench
 * vm's counted clock (qemu -icount shift=0, lib/kernel/vm.h), whose unit
 * is COUNTED_UNIT, instructions executed by the guest.
 *
 * Such a figure is a count, not a time: the host's speed and its load do
 * not enter it, so a path repeats to a few parts in 10^4 from boot to
 * boot, beside a co-tenant or not. A test of significance then answers
 * the wrong question: the smallest real cost is significant (a cpumask
 * walk costs an instruction per 8 CPUs) and two boots a side can never
 * reach p < 0.05. So a verdict on exact figures is a size:
 *
 *	repeat		each side's spread, max/min - 1 of its per-run
 *			figures, is at most the bound (COUNTED_SPREAD_PCT,
 *			--spread): else "not repeatable", never a pass
 *	separate	the sides' ranges do not overlap: else "~"
 *	size		the change, the median of the after/before ratios,
 *			beyond the threshold (COUNTED_THRESHOLD_PCT): a
 *			regression or an improvement, else "below threshold"
 *
 * and a cost grows with possible CPUs when its slope's interval lies
 * above COUNTED_FLAT instructions per possible CPU: a loop over the CPUs
 * costs several instructions an iteration, a walk of a cpumask's bits
 * one word per 64 of them. docs/measurements.md ("The counted clock")
 * gives the study that chose each default.
 *
 * Pure functions: any thread.
 */
#ifndef KSB_COUNTED_H
#define KSB_COUNTED_H

#include <stdbool.h>

/* the unit of a counted file: instructions the guest executed */
#define COUNTED_UNIT		"insn"
/* the largest spread, max/min - 1 in percent, a side may have and repeat */
#define COUNTED_SPREAD_PCT	0.5
/* bench compare's threshold for exact figures, percent */
#define COUNTED_THRESHOLD_PCT	0.5
/* runs a side needs: two show whether it repeats */
#define COUNTED_MIN_RUNS	2
/* a slope up to this many instructions per possible CPU is flat */
#define COUNTED_FLAT		1.0

/**
 * counted_unit - whether @unit (a file's, "ns" when it says none) is a count.
 */
bool counted_unit(const char *unit);

/**
 * counted_spread - max/min - 1 of the @n figures @x: 0 for fewer than 2,
 * INFINITY when the smallest is not above 0.
 */
double counted_spread(const double *x, unsigned int n);

#endif /* KSB_COUNTED_H */
