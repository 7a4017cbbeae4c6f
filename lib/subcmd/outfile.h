/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - write an output file the way cp, tee and
 * `sed -i --follow-symlinks` treat their targets, and never leave it
 * half-written:
 *
 *   path                      how it is written
 *   a regular file, or none   a mkstemp() temp file beside it, fsync()ed,
 *                             then rename()d over it (OUTFILE_REPLACE);
 *                             the replaced file's mode (and, where we
 *                             may, its owner) is kept; a new one is 0644
 *   a symlink                 resolved once, at open, relative links from
 *                             the link's directory, chains followed; the
 *                             file it names is replaced as above and the
 *                             link stays; a dangling link creates its
 *                             target
 *   a FIFO, a character or    opened and written in place: no temp file,
 *   block device, anything    no rename (OUTFILE_IN_PLACE); opening a FIFO
 *   else not regular          waits for its reader, as the shell's > does
 *   "-"                       standard output (OUTFILE_STDOUT)
 *   a directory, "", "d/"     -EISDIR
 *
 * A /proc magic link (/dev/stdout, /proc/self/fd/N) is written in place
 * too, even onto a regular file: renaming over what it names would not
 * reach the descriptor behind it.
 *
 *	struct outfile o;
 *	if (outfile_open(&o, "r.csv"))	checked before any measuring
 *		...
 *	fprintf(o.f, ...);
 *	outfile_commit(&o);		or outfile_abort(&o) on any error
 *
 * Until commit a replaced target is untouched. Write errors (ENOSPC on a
 * full device, EPIPE when a FIFO's reader left) are kept with their errno
 * and returned by outfile_commit(). One outfile per thread; no shared
 * state.
 */
#ifndef KSB_OUTFILE_H
#define KSB_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

enum outfile_how {
	OUTFILE_REPLACE,		/* temp file, fsync, rename */
	OUTFILE_IN_PLACE,		/* open() the path itself and write */
	OUTFILE_STDOUT,			/* "-": file descriptor 1 */
};

struct outfile {
	char *path;			/* the file written: a symlink's target */
	char *tmp;			/* the temp file beside it, NULL when none */
	FILE *f;			/* write here; open on fd */
	int fd;				/* tmp, path or 1; -1 when closed */
	int err;			/* first write error (errno), 0 = none */
	bool discard;			/* aborting: drop what f still holds */
	enum outfile_how how;		/* chosen by outfile_open() */
	mode_t mode;			/* permission bits for the replacing file */
	uid_t uid;			/* owner of the replaced file, or -1 */
	gid_t gid;			/* its group, or -1 */
};

/**
 * outfile_open - resolve @path and open what will be written (see the
 * table above). Returns 0, or -errno: -EISDIR for a directory, -ELOOP
 * for a symlink chain over 40 links, otherwise the error of opening the
 * path or creating the temp file in its directory (-ENOENT, -EACCES,
 * -ENXIO for a socket). Opening a FIFO blocks until it has a reader;
 * SIGINT, SIGTERM and SIGHUP are unblocked in this thread for that wait
 * only, so that a caller that blocks them can still be stopped there
 * (nothing exists yet that a dying process would leave behind).
 */
int outfile_open(struct outfile *o, const char *path);

/**
 * outfile_target - the file outfile_open(@path) would write: @path with
 * its symlinks followed as the table above follows them (a /proc magic
 * link stays as it is), malloc()ed; NULL with errno set (ELOOP,
 * ENOMEM, or what lstat() or readlink() met). Opens and creates nothing.
 */
char *outfile_target(const char *path);

/**
 * outfile_commit - finish the file: flush; for OUTFILE_REPLACE also
 * fsync, give it the kept mode and owner and rename it over the target.
 * Returns 0, or the first -errno met while writing, flushing, syncing,
 * closing or renaming (a write error is returned even when the caller
 * ignored it); on error a temp file is removed and the target untouched.
 * Standard output is flushed but stays open. @o is reset either way.
 */
int outfile_commit(struct outfile *o);

/**
 * outfile_abort - drop the temp file; the target is untouched. What an
 * in-place file or standard output was already sent stays sent; what
 * was still buffered is dropped. Idempotent; safe on a zeroed @o.
 */
void outfile_abort(struct outfile *o);

#endif /* KSB_OUTFILE_H */
