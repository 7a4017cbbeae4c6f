/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dirscan.h - the files of a directory that a command reads (bench
 * merge's shards, bench trend's history): the names a filter wants, not
 * hidden (temp files start with a dot), in strcmp() order, each a
 * regular file, links followed. A wanted name that is anything else is
 * refused before anything is read, named: a FIFO would block its reader
 * for ever, a directory or a device holds no results.
 *
 *	struct dirscan d;
 *
 *	if (dirscan(dir, want_csv, &d, why, sizeof(why)))
 *		...				exit 2 with why
 *	for (i = 0; i < d.n; i++)
 *		read dir/d.name[i]
 *	dirscan_free(&d);
 *
 * No state of its own: any thread.
 */
#ifndef KSB_DIRSCAN_H
#define KSB_DIRSCAN_H

#include <stdbool.h>
#include <stddef.h>

struct dirscan {
	char **name;			/* [n] the names, malloc()ed, sorted */
	unsigned int n;			/* how many */
};

/**
 * dirscan - the names of @dir that @want accepts and that do not start
 * with a dot into @d (empty on an error). Returns 0; -EINVAL with "DIR/NAME:
 * not a regular file (a FIFO)" in @why for one that is not; -ENOMEM; or
 * the -errno of opening @dir (or of a stat() of a wanted name), with
 * "DIR: why" in @why.
 */
int dirscan(const char *dir, bool (*want)(const char *name), struct dirscan *d, char *why,
	    size_t len);

/**
 * dirscan_free - @d's names; @d empty afterwards. Safe twice.
 */
void dirscan_free(struct dirscan *d);

#endif /* KSB_DIRSCAN_H */
