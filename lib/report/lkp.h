/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkp.h - bench compare -f lkp: the two-column table of 0-day's LKP mails
 * (intel/lkp-tests, lib/stats.rb), with bench's own verdict beside each
 * row. Of the gate fixtures r480_{1..6} -- r528_{1..6}:
 *
 *	before           after
 *	---------------- ---------------------------
 *	         %stddev     %change         %stddev
 *	             \          |                \
 *	     13193 ±  3%     +16.0%      15306 ±  3%  irqdesc-alloc.old.tm10  regression
 *	  +16.4% [+11.7%, +20.2%] p=0.001 n=6+6				(one line)
 *
 * (the header's commits are the sides' --label commit=SHA, cut to 16 and
 * 27 characters as 0-day cuts them, else "before" and "after"; the first
 * two lines end in a space, as 0-day's). Per series, one row: the mean
 * of BEFORE's per-run figures (compare's --stat, in the files' unit), its
 * relative standard deviation over the runs as "± N%" where that rounds
 * to 2% or more (0-day shows no ± on quiet rows), the change of the
 * means, AFTER's mean and ±, the metric WORKLOAD.VARIANT.STAT, then two
 * spaces and bench's verdict: the U test's (cmp_verdict_names), the
 * Hodges-Lehmann change with its 95% interval, p and the runs. 0-day
 * decides by range separation (min_b > mean_a && mean_b > max_a); the
 * verdict here is the gate's, and the table only 0-day's way of showing
 * the figures. Numbers as 0-day prints them: below 1000 with two
 * decimals, below 1e8 as integers, else %.4g.
 */
#ifndef KSB_LKP_H
#define KSB_LKP_H

#include <stddef.h>
#include <stdio.h>

struct cmpfmt;

/**
 * lkp_number - @v as 0-day's table prints it: "0.19", "138055",
 * "7.967e+09". Into @buf, returned.
 */
const char *lkp_number(char *buf, size_t len, double v);

/**
 * lkp_write_compare - the table of @c on @f. 0 or -EIO.
 */
int lkp_write_compare(FILE *f, const struct cmpfmt *c);

#endif /* KSB_LKP_H */
