/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iopath.h - the paths of one invocation that name one file: an output
 * that would replace one of the command's inputs, two outputs that would
 * replace each other, an input given twice (its runs would count twice).
 *
 * Files compare by device and inode (stat(), symlinks followed), so that
 * symlinks, hard links and "./" count; an output that does not exist yet
 * compares by its directory's device and inode and its name, after the
 * symlinks outfile_open() would follow (outfile_target()). Only regular
 * files and files yet to be created take part: "-", FIFOs, devices and
 * directories never clash (writing /dev/null twice loses nothing), and a
 * path that cannot be stat()ed is left to whoever opens it.
 *
 *	const char *in[] = { "a.csv", "b.csv" };
 *	const struct iopath out[] = { { "-o", o.output }, { "--also", "r.md" } };
 *
 *	if (iopath_check(in, 2, out, 2, why, sizeof(why)))
 *		...				exit 2, before reading anything
 *
 * Each call stat()s every path once; no shared state, any thread.
 */
#ifndef KSB_IOPATH_H
#define KSB_IOPATH_H

#include <stddef.h>

struct iopath {
	const char *opt;		/* how it was given: "-o", "--also" */
	const char *path;		/* the path; NULL: not given, skipped */
};

/**
 * iopath_check - refuse an output of @out that names a file of @in, or
 * the file another output names. Returns 0; -EINVAL with one line in
 * @why ("-o a.csv would replace the input ./a.csv", "--also x and -o ./x
 * name one file: one report would replace the other"); -ENOMEM.
 */
int iopath_check(const char *const *in, unsigned int nin, const struct iopath *out,
		 unsigned int nout, char *why, size_t len);

/**
 * iopath_dup - refuse two paths of @in that name one file. Returns 0, or
 * -EINVAL with "a.csv and ./a.csv are one file: its runs would count
 * twice" in @why.
 */
int iopath_dup(const char *const *in, unsigned int nin, char *why, size_t len);

#endif /* KSB_IOPATH_H */
