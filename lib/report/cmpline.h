/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmpline.h - bench compare's model, struct cmpfmt, and the text of its
 * parts that more than one report prints: a figure with its unit, a
 * change in percent, a series' line of the table, what a testbed key's
 * sides hold. The writers of lib/report/cmpfmt.h read the model, and so
 * do the two that live apart (lib/report/kcidb.h, lib/report/lkp.h);
 * those include this header and not cmpfmt.h, whose table names them.
 *
 *	char v[32], line[512];
 *
 *	cmpline_value(v, sizeof(v), 13150.2, "ns");	"13.15us"
 *	cmpline_line(line, sizeof(line), &c, &c.s[0]);	the table's line
 *
 * Each function writes into the caller's buffer, cut to @len, and
 * nothing else. Pure: any thread.
 */
#ifndef KSB_CMPLINE_H
#define KSB_CMPLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/stats/compare.h"

struct busy_count;
struct meta;
struct tb_diff;

/* the whole compare: what every report of bench compare reads */
struct cmpfmt {
	const struct cmp_series *s;	/* [n], in compare's order */
	unsigned int n;			/* series */
	const char *stat;		/* the per-run figure: "tm10" */
	const char *unit;		/* "ns", "cycles", or a counted unit (insn, misses...): exact */
	double alpha;			/* the one-sided test's level */
	double threshold_pct;		/* a significant change counts above it, % */
	double spread_pct;		/* exact figures: a side's largest spread, % */
	bool scaled;			/* figures adjusted by the reference loop */
	const struct tb_diff *diff;	/* keys that differ (testbed_diff()), or NULL */
	unsigned int nr_diff;		/* how many */
	const char *const *path[2];	/* each side's file names; NULL: "file N" */
	const struct meta *meta[2];	/* each side's first file's metadata, or NULL */
	const char *origin;		/* kcidb: the CI system's name; NULL: KCIDB_ORIGIN */
	const struct busy_count *busy;	/* [2] each side's runs the host disturbed, or NULL */
};

/**
 * cmpline_exact - whether @c's figures are counted ones, judged by
 * lib/results/counted.h's rules (c->unit a counted one: counted_unit()).
 */
bool cmpline_exact(const struct cmpfmt *c);

/**
 * cmpline_fails - whether @r's verdict fails the gate: a regression, or
 * exact figures that do not repeat.
 */
bool cmpline_fails(const struct cmp_result *r);

/**
 * cmpline_value - @v in @unit ("ns", "cycles", a counted unit; anything
 * else as cycles) scaled to three or four digits: 13150.2 -> "13.15us",
 * cycles "13.15k", instructions "13.15k insn", misses "13.15k misses"
 * (counted_suffix()). @buf.
 */
const char *cmpline_value(char *buf, size_t len, double v, const char *unit);

/**
 * cmpline_unit - @unit as it follows a number: "ns", "cycles", " insn",
 * " misses" (a count reads "+96.26 insn/CPU", a time "+7.7ns/CPU").
 */
const char *cmpline_unit(const char *unit);

/**
 * cmpline_spread - a side's spread, a fraction, as "4%" (exact figures:
 * "0.19%", two decimals, max/min - 1), for a "+-" or "±" before it. @buf.
 */
const char *cmpline_spread(char *buf, size_t len, const struct cmpfmt *c, double spread);

/**
 * cmpline_test - the test's word: cmpline_p() of r->p after @name, or
 * "exact" for exact figures, which no p judges. @buf.
 */
const char *cmpline_test(char *buf, size_t len, const struct cmpfmt *c,
			 const struct cmp_result *r, const char *name);

/**
 * cmpline_pct - a fraction as a signed percentage: "+16.4%", "-inf". @buf.
 */
const char *cmpline_pct(char *buf, size_t len, double frac);

/**
 * cmpline_p - @p with three decimals after @name and "=": "p=0.004", or
 * "p<0.001" below what three decimals show; @name "": "0.004". @buf.
 */
const char *cmpline_p(char *buf, size_t len, double p, const char *name);

/**
 * cmpline_change - the change and its interval: "+16.4% [+11.7%, +20.2%]"
 * (exact figures, two decimals: "+1.04% [+0.90%, +1.14%]"). @buf.
 */
const char *cmpline_change(char *buf, size_t len, const struct cmpfmt *c,
			   const struct cmp_result *r);

/**
 * cmpline_line - the series' line of bench compare's table, into @buf:
 * irqdesc-alloc old tm10  13.15us +-4% -> 15.33us +-5%  +16.4% [+11.7%, +20.2%]
 * p=0.001 n=6+6  regression (one line, two spaces between the groups)
 */
void cmpline_line(char *buf, size_t len, const struct cmpfmt *c, const struct cmp_series *s);

/**
 * cmpline_diff_text - what differs in @d, into @buf: BEFORE's value ->
 * AFTER's, of their first files, each followed by the first file of that
 * side that disagrees: "performance -> performance (a2.csv: powersave)".
 */
void cmpline_diff_text(char *buf, size_t len, const struct cmpfmt *c, const struct tb_diff *d);

#endif /* KSB_CMPLINE_H */
