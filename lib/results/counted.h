/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counted.h - the rules for exact figures: files measured under bench
 * vm's counted clock (qemu -icount shift=0, lib/kernel/vm.h), whose unit
 * is COUNTED_UNIT, instructions executed by the guest; and the counts of
 * the project's QEMU plugin in the same boots (bench vm --plugin,
 * docs/plugin.md), each in a unit of its own:
 *
 *	insn		the guest's instructions (the counted clock, or the
 *			plugin's count of a window)
 *	misses		lines a modelled cache missed: the plugin's model
 *			(per-vCPU L1d, shared LLC), never hardware's
 *	accesses	loads and stores of RAM the plugin counted
 *	est-cycles	an estimate from those counts: instructions plus a
 *			latency per miss at each level (bench vm --plugin-opt)
 *
 * Each unit is a count the host cannot move: the same rules judge all.
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
 * above the unit's flat slope (counted_flat()): COUNTED_FLAT instructions
 * per possible CPU, as a loop over the CPUs costs several instructions
 * an iteration and a walk of a cpumask's bits one word per 64 of them;
 * COUNTED_FLAT_LINES misses or accesses, as a loop that touches each
 * CPU's own line misses one a CPU and even a walk of the per-CPU offsets
 * (8 a line) 0.125, while a cpumask's bits miss a line per 512 CPUs.
 * docs/measurements.md ("The counted clock", "The plugin") gives the
 * studies that chose each default.
 *
 * Pure functions: any thread.
 */
#ifndef KSB_COUNTED_H
#define KSB_COUNTED_H

#include <stdbool.h>

/* the unit of a counted file: instructions the guest executed */
#define COUNTED_UNIT		"insn"
/* the plugin's units (bench vm --plugin): lines missed, accesses, an estimate */
#define COUNTED_MISSES		"misses"
#define COUNTED_ACCESSES	"accesses"
#define COUNTED_CYCLES		"est-cycles"
/* the largest spread, max/min - 1 in percent, a side may have and repeat */
#define COUNTED_SPREAD_PCT	0.5
/* bench compare's threshold for exact figures, percent */
#define COUNTED_THRESHOLD_PCT	0.5
/* runs a side needs: two show whether it repeats */
#define COUNTED_MIN_RUNS	2
/* a slope up to this many instructions (or estimated cycles) per possible CPU is flat */
#define COUNTED_FLAT		1.0
/* the same in misses or accesses: a line every 10 CPUs */
#define COUNTED_FLAT_LINES	0.1

/**
 * counted_unit - whether @unit (a file's, "ns" when it says none) is a
 * count: one of the four above.
 */
bool counted_unit(const char *unit);

/**
 * counted_flat - the slope per possible CPU up to which a series in
 * counted @unit is flat (COUNTED_FLAT, COUNTED_FLAT_LINES); 0 for a
 * unit that is no count.
 */
double counted_flat(const char *unit);

/**
 * counted_what - what a count in @unit is, one line for the reports
 * ("the guest's instructions, counted by qemu ..."); NULL for a unit
 * that is no count.
 */
const char *counted_what(const char *unit);

/**
 * counted_noun - what counted @unit counts, as a plural noun
 * ("instructions", "misses"); NULL for a unit that is no count.
 */
const char *counted_noun(const char *unit);

/**
 * counted_suffix - the words after a figure in counted @unit, by its
 * power of 1000 @k (0..3): " insn", "k insn", "M insn", "G insn"; NULL
 * for a unit that is no count.
 */
const char *counted_suffix(const char *unit, unsigned int k);

/**
 * counted_spread - max/min - 1 of the @n figures @x: 0 for fewer than 2,
 * INFINITY when the smallest is not above 0.
 */
double counted_spread(const double *x, unsigned int n);

#endif /* KSB_COUNTED_H */
