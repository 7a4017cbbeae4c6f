/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outset.h - the extra reports of one invocation: `--also FMT=FILE`,
 * repeatable, each FMT a row of a command's writer table (lib/report/cmpfmt.h,
 * lib/report/trendfmt.h) and each FILE written through lib/report/outfile.h, so that
 * no report is ever seen half-written and a failed command leaves every
 * FILE as it was.
 *
 *	struct outset also = OUTSET_INIT(cmpfmt_writers);
 *	OPT_CALL(0, "also", &also, outset_opt, "FMT=FILE", "..."),
 *	...
 *	if (outset_open(&also, why, sizeof(why)))	before any work
 *		...
 *	for (i = 0; i < also.n; i++)
 *		cmpfmt_writers[also.a[i].fmt].write(also.a[i].o.f, &c);
 *	outset_commit(&also, why, sizeof(why));		or outset_abort(&also)
 *
 * One outset per thread; no shared state.
 */
#ifndef KSB_OUTSET_H
#define KSB_OUTSET_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/report/options.h"
#include "lib/report/outfile.h"

/* --also options one invocation takes at most */
#define OUTSET_MAX	8

struct outset_file {
	int fmt;			/* the writer: an index into the table */
	const char *path;		/* FILE, in argv */
	struct outfile o;		/* open between outset_open() and commit */
};

struct outset {
	const char *const *names;	/* the table's first name */
	size_t stride;			/* bytes from one row's name to the next */
	struct outset_file a[OUTSET_MAX]; /* [n] in the order given */
	unsigned int n;			/* in use */
};

/* OUTSET_INIT - an empty set over writer table @t (rows begin with a name) */
#define OUTSET_INIT(t)	{ .names = &(t)[0].name, .stride = sizeof((t)[0]) }

/*
 * outset_opt - OPT_CALL's parser of "FMT=FILE" into the struct outset
 * o->value: 0, or -EINVAL with one line in @why (no '=', an empty FILE,
 * a FMT not in the table, more than OUTSET_MAX).
 */
int outset_opt(const struct opt *o, const char *arg, char *why, size_t len);

/*
 * outset_open - outfile_open() every FILE of @s, in order. Returns 0, or
 * the first -errno with "FILE: why" in @why; then none is left open.
 */
int outset_open(struct outset *s, char *why, size_t len);

/*
 * outset_commit - outfile_commit() every FILE of @s. Returns 0, or the
 * first -errno with "FILE: why" in @why (the others are committed).
 */
int outset_commit(struct outset *s, char *why, size_t len);

/* outset_abort - outfile_abort() every open FILE: each target as it was. */
void outset_abort(struct outset *s);

#endif /* KSB_OUTSET_H */
