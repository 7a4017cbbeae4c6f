/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outset.h - the extra reports of one invocation: `--also FMT=FILE`,
 * repeatable, each FMT a row of a command's writer table (struct
 * report_writer, lib/subcmd/writer.h) and each FILE written through
 * lib/subcmd/outfile.h, so that no report is ever seen half-written and
 * a failed command leaves every FILE as it was.
 *
 *	struct outset also = OUTSET_INIT(cmpfmt_writers);
 *	OPT_ALSO(&also),				its option row
 *	...
 *	if (outset_open(&also, why, sizeof(why)))	before any work
 *		...
 *	outset_write(&also, &c, why, sizeof(why));	every report, committed
 *	(or outset_abort(&also) when the command fails before)
 *
 * One outset per thread; no shared state.
 */
#ifndef KSB_OUTSET_H
#define KSB_OUTSET_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/subcmd/options.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/writer.h"

/* --also options one invocation takes at most */
#define OUTSET_MAX	8

struct outset_file {
	int fmt;			/* the writer: an index into the table */
	char pick[64];			/* FMT:PICK's PICK, or "" */
	const char *path;		/* FILE, in argv */
	struct outfile o;		/* open between outset_open() and commit */
};

struct outset {
	const struct report_writer *t;	/* the command's writers, FMT a row */
	bool pick;			/* FMT:PICK=FILE taken (the caller says what PICK picks) */
	struct outset_file a[OUTSET_MAX]; /* [n] in the order given */
	unsigned int n;			/* in use */
};

/**
 * OUTSET_INIT - an empty set over the writer table @tab; OUTSET_INIT_PICK
 * also takes FMT:PICK=FILE, a part of the report (a variant: what
 * bench_report() picks)
 */
#define OUTSET_INIT(tab)	{ .t = (tab) }
#define OUTSET_INIT_PICK(tab)	{ .t = (tab), .pick = true }

/**
 * OPT_ALSO - the --also option of a command, its outset *@s
 */
#define OPT_ALSO(s) \
	OPT_CALL(0, "also", (s), outset_opt, "FMT=FILE", \
		 "also write format FMT to FILE, atomically\n" \
		 "(repeatable: one run, several reports)")
#define OPT_ALSO_PICK(s) \
	OPT_CALL(0, "also", (s), outset_opt, "FMT[:V]=FILE", \
		 "also write format FMT to FILE, atomically,\n" \
		 "with :V variant V's table alone, as show -v V\n" \
		 "(repeatable: one run, several reports)")

/**
 * outset_opt - OPT_CALL's parser of "FMT=FILE" into the struct outset
 * o->value: 0, or -EINVAL with one line in @why (no '=', an empty FILE,
 * a FMT not in the table, a :PICK where the set takes none or an empty
 * or over-long one, more than OUTSET_MAX).
 */
int outset_opt(const struct opt *o, const char *arg, char *why, size_t len);

/**
 * outset_open - outfile_open() every FILE of @s, in order. Returns 0, or
 * the first -errno with "FILE: why" in @why; then none is left open.
 */
int outset_open(struct outset *s, char *why, size_t len);

/**
 * outset_commit - outfile_commit() every FILE of @s. Returns 0, or the
 * first -errno with "FILE: why" in @why (the others are committed).
 */
int outset_commit(struct outset *s, char *why, size_t len);

/**
 * outset_write - the report of @model (the model of s->t's writers) in
 * every FMT of @s on its FILE, in order, then outset_commit(). Returns 0;
 * a writer's -errno (-EIO, -ENOMEM), the first, after which no FILE is
 * written and each is as it was; or a commit's -errno. Either way with
 * "FILE: why" in @why, and @s closed.
 */
int outset_write(struct outset *s, const void *model, char *why, size_t len);

/**
 * outset_write_each - outset_write(), file i's model @model[i].
 */
int outset_write_each(struct outset *s, const void *const *model, char *why, size_t len);

/**
 * outset_abort - outfile_abort() every open FILE: each target as it was.
 */
void outset_abort(struct outset *s);

#endif /* KSB_OUTSET_H */
