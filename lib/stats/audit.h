/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit.h - a battery of entry points judged as one family: each entry's
 * slope per possible CPU (lib/stats/scale.h) with an interval widened
 * for the multiplicity of the battery, its cost extrapolated to
 * AUDIT_AT possible CPUs, the ranking by that cost, the kernel function
 * that carries its growth, and the gate of B's slopes against A's.
 *
 *	struct audit a = { .e = entries, .n = n, .nr_sides = 1,
 *			   .method = AUDIT_BH, .q = 0.05 };
 *
 *	if (!audit_run(&a))
 *		for (i = 0; i < a.n; i++)
 *			print(&a.e[a.order[i]]);	the most costly first
 *
 * Why Benjamini-Hochberg by default. With 30 entries each judged at
 * 95%, about 1.5 would read "grows" by chance in every audit. An audit
 * is a screen: what it finds is then attributed and looked at, and a
 * false lead costs a look, while a missed O(possible CPUs) path ships.
 * BH controls the false discovery rate (the expected share of false
 * "grows" among those reported) at q, and keeps its power as the
 * battery grows (Holm's first step is q/m: 0.0017 at 30 entries). When
 * nothing grows, every discovery is false and BH's FDR is its
 * family-wise rate: the gate on an unchanged kernel fails with
 * probability q at most, as Holm's does. BH needs the p-values
 * independent or positively dependent (PRDS, Benjamini and Yekutieli
 * 2001); entries timed in the same boots share that boot's level, which
 * moves them alike: positive dependence. Holm's step-down (family-wise
 * error at q, under any dependence) is there for a gate that must not
 * name a false entry at all; none judges each entry at q alone.
 *
 * The p-values invert the intervals, so that the interval printed and
 * the verdict cannot disagree: p is the smallest alpha whose interval
 * (confidence 1 - alpha, scale_theil_sen_z() at scale_z(alpha)) still
 * excludes [-flat, +flat] (a fit) or 0 (a difference, MOVER's interval
 * of the two fits at that level). It is found by bisection over z up
 * to where Sen's interval spans every pairwise slope (z (m+1)/sigma,
 * Kendall's S at its maximum): beyond it no level widens the interval,
 * and p is the smallest these points can show. The correction then
 * gives each entry its adjusted level (BH: one level, q k/m, k the
 * largest rank with p_(k) <= q k/m, else q/m; Holm: q/(m-i+1) at rank i
 * up to the first entry kept, whose level the rest take; none: q), the
 * intervals are fitted again at confidence 1 - level, and an entry
 * grows (shrinks) when its p is at most its level and its slope is
 * above (below) zero.
 *
 * Attribution: a candidate is a kernel function timed by fentry in the
 * same boots (bench trace's "time" series, per call). Its slope per
 * possible CPU over the entry's is the share of the entry's growth
 * that the function carries, when it runs once per operation of the
 * entry; the candidate with the largest share is named. Only one that
 * grows (its 95% interval above 0) and whose interval does not lie
 * above the entry's qualifies: a function inside the entry cannot pay
 * more per possible CPU than the whole entry does. A candidate that
 * names an entry (audit_cand.entry) is a candidate of that entry
 * only; one that names none, of every entry.
 *
 * Attribution by counted instructions: where the project's QEMU plugin
 * ran in the same boots (bench vm --plugin, docs/plugin.md), each boot's
 * window of an entry is split into the kernel functions that ran in it,
 * a function's points its instructions in those windows (0 where it did
 * not run). Each function's slope (Theil-Sen, 95%) over the sum of its
 * entry's functions' slopes (the window's growth) is its share, and an
 * entry that grows is carried by the fewest functions, the steepest
 * first, whose shares reach half (AUDIT_HALF), at most AUDIT_MAX_CARRY of
 * them. Unlike a candidate, a function needs no call graph: netns's
 * pernet ops, reached through pointers, count as any other. Where no
 * entry's functions are given, the candidates stay the attribution.
 *
 * Pure functions of their arguments, no I/O; audit_run() allocates only
 * the ranking and scratch.
 */
#ifndef KSB_AUDIT_H
#define KSB_AUDIT_H

#include <stdbool.h>

#include "lib/results/meta.h"
#include "lib/stats/scale.h"

/* the extrapolation the ranking sorts by: NR_CPUS's Kconfig maximum */
#define AUDIT_AT	NR_CPUS_MAX
/* the share of an entry's growth its named functions carry at least */
#define AUDIT_HALF	0.5
/* the functions named for one entry, at most */
#define AUDIT_MAX_CARRY	8

enum audit_method {
	AUDIT_BH,			/* Benjamini-Hochberg: the false discovery rate */
	AUDIT_HOLM,			/* Holm's step-down: the family-wise error */
	AUDIT_NONE,			/* each entry at q alone */
};

/* "bh", "holm", "none" */
extern const char *const audit_method_names[];

/* an entry's points on one side (A or B), borrowed */
struct audit_points {
	const double *x, *y;		/* possible CPUs, each run's figure */
	unsigned int n;			/* 0: the side has no such entry */
};

/* the functions that carry one side of an entry's growth (audit.h, by instructions) */
struct audit_carry {
	unsigned int nr;		/* the entry's functions on this side; 0: none given */
	double total;			/* their slopes summed: its windows' growth */
	unsigned int n;			/* named: the fewest whose shares reach AUDIT_HALF */
	unsigned int f[AUDIT_MAX_CARRY]; /* their indices in a->f, the steepest first */
	double share[AUDIT_MAX_CARRY];	/* each one's slope over total */
	bool half;			/* they reach AUDIT_HALF (false: the growth is spread
					 * over more than AUDIT_MAX_CARRY, or total is not > 0) */
};

/* what audit_run() finds of one side of an entry */
struct audit_side {
	struct scale_fit fit;		/* its interval at confidence 1 - level */
	double p;			/* of flat, unadjusted */
	double level;			/* the adjusted alpha */
	enum scale_verdict verdict;	/* grows, flat, shrinks, for the family */
	double spread;			/* its points' scale_spread() */
	double at, at_lo, at_hi;	/* the cost at AUDIT_AT possible CPUs */
	int cand;			/* the carrying candidate, -1 none */
	double share;			/* its slope over the entry's */
	struct audit_carry carry;	/* the functions that carry it, by instructions */
};

struct audit_entry {
	const char *name;		/* the entry, as its series' workload */
	const char *variant;		/* its series' variant */
	struct audit_points pt[2];	/* A's, B's */
	struct audit_side s[2];		/* out: per side */
	bool gated;			/* out: on both sides */
	struct scale_diff diff;		/* out: B - A at the adjusted level */
	double diff_p, diff_level;	/* out: of no change, unadjusted; its alpha */
	double threshold_ns;		/* in: the gate's threshold for it */
	bool control;			/* in: known not to grow with possible CPUs */
	bool regression;		/* out: grew beyond it, for the family */
	bool not_repeatable;		/* out: gated, a side past a->spread */
};

/* a kernel function timed in the same boots */
struct audit_cand {
	const char *func;		/* its name */
	const char *entry;		/* the entry it was timed under, NULL every one */
	struct audit_points pt[2];	/* its per-call times */
	struct scale_fit fit[2];	/* out: at 95% */
	bool has[2];			/* out: fitted */
};

/* a kernel function's instructions in an entry's windows (the plugin's) */
struct audit_func {
	const char *func;		/* its name */
	const char *entry;		/* the entry whose windows they are */
	struct audit_points pt[2];	/* per side: each boot's window, 0 where it did not run */
	struct scale_fit fit[2];	/* out: at 95% */
	bool has[2];			/* out: fitted */
};

struct audit {
	struct audit_entry *e;		/* [n] */
	unsigned int n;
	struct audit_cand *c;		/* [nc] */
	unsigned int nc;
	struct audit_func *f;		/* [nf] */
	unsigned int nf;
	unsigned int nr_sides;		/* 1, or 2 to gate B against A */
	enum audit_method method;
	double q;			/* the family's level, (0, 1) */
	double flat;			/* ns per CPU that count as flat, >= 0 */
	double spread;			/* > 0, counted files (lib/results/counted.h):
					 * a side whose spread passes it is not
					 * repeatable, and its gate never a pass; the
					 * gate is by size (diff.lo > 0, est past the
					 * threshold), not by p; 0: timed files */
	unsigned int *order;		/* out: [n] the ranking, audit_free() frees */
	double level[2];		/* out: per side, the smallest adjusted level */
	double diff_level;		/* out: the gate's smallest */
	unsigned int grows[2];		/* out: entries that grow, per side */
	unsigned int regressions;	/* out */
	unsigned int not_repeatable;	/* out: gated entries not repeatable */
	unsigned int controls_grow;	/* out: controls that grow, on any side */
};

/**
 * audit_adjust - the correction of @method over @n p-values @p at the
 * family's level @q: each one's adjusted alpha into @level[i] and
 * whether it is rejected (p <= level) into @reject[i]. Ties in p keep
 * their index order. Returns 0, -EINVAL for @q outside (0, 1), -ENOMEM.
 */
int audit_adjust(enum audit_method method, const double *p, unsigned int n, double q,
		 double *level, bool *reject);

/**
 * audit_p_fit - @pt's p of flat (the slope within +-@flat) by inverting
 * Sen's interval, as above, into *@p. Returns as scale_theil_sen().
 */
int audit_p_fit(const struct audit_points *pt, double flat, double *p);

/**
 * audit_p_diff - the p of no change between @a's slope and @b's, by
 * inverting MOVER's interval of their difference, into *@p. Returns as
 * scale_theil_sen().
 */
int audit_p_diff(const struct audit_points *a, const struct audit_points *b, double *p);

/**
 * audit_rank - @order[0..n-1] the indices of @cost by cost descending
 * (NaN last), ties by index.
 */
void audit_rank(const double *cost, unsigned int n, unsigned int *order);

/**
 * audit_run - everything above for @a's entries and candidates: the
 * p-values, the correction per side and for the gate, the intervals at
 * the adjusted levels, the verdicts, the extrapolation, the attribution
 * of every entry that grows (to its candidate, and to the functions that
 * carry half of its growth where a->f has its functions), and the
 * ranking by the cost at AUDIT_AT on
 * the last side; with a->spread, each gated entry whose sides' spread
 * passes it is not repeatable, and no regression. Returns 0, -EINVAL
 * (bad @q, or an entry whose points hold fewer than 2 counts: its index
 * in a->n is not reported), -ENOMEM.
 */
int audit_run(struct audit *a);

/**
 * audit_free - what audit_run() allocated (the ranking).
 */
void audit_free(struct audit *a);

#endif /* KSB_AUDIT_H */
