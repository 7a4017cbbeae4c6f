/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - write a file so that it is never seen half-written:
 * a mkstemp() temp file in the same directory, fsync()ed, mode 0644,
 * then rename()d over the target. Until commit the target is untouched.
 *
 *	struct outfile o;
 *	if (outfile_open(&o, "r.csv"))	checked before any measuring
 *		...
 *	fprintf(o.f, ...);
 *	outfile_commit(&o);		or outfile_abort(&o) on any error
 *
 * One outfile per thread; no shared state.
 */
#ifndef KSB_OUTFILE_H
#define KSB_OUTFILE_H

#include <stdio.h>

struct outfile {
	char *path;			/* the target */
	char *tmp;			/* the temp file beside it, NULL when none */
	FILE *f;			/* open on tmp */
};

/*
 * outfile_open - create the temp file for @path. Returns 0, or -errno
 * (-EISDIR when @path is a directory; the directory's own errors).
 */
int outfile_open(struct outfile *o, const char *path);

/*
 * outfile_commit - flush, fsync, chmod 0644 and rename over the target.
 * Returns 0, or -errno, in which case the temp file is gone too.
 */
int outfile_commit(struct outfile *o);

/* outfile_abort - drop the temp file; the target is untouched. Idempotent. */
void outfile_abort(struct outfile *o);

#endif /* KSB_OUTFILE_H */
