/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bisect.h - what `bench bisect` asks of a kernel tree and of the files
 * its steps leave: the refusals that come before anything is built, git
 * run in the tree, the tree built as each step builds it, and read back
 * what git bisect and bench compare wrote:
 *
 *	bisect_check(tree, "v6.12", "HEAD", why, len);	0, or -EINVAL: why
 *	bisect_git(tree, out, len, "rev-parse", "HEAD", NULL);
 *	bisect_row_find("REV.compare.csv", "regression", &row);
 *	bisect_log_first("bisect.log", sha, len, &steps);
 *
 * Every child goes through the one process runner (lib/subcmd/spawn.h).
 * Nothing here prints; every call returns 0 (or an exit code) or -errno.
 */
#ifndef KSB_BISECT_H
#define KSB_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/report/bisectfmt.h"

/* git bisect run's codes, beside 0 good and 1 bad */
#define BISECT_SKIP	125	/* no verdict: the commit did not build, boot or repeat */
#define BISECT_ABORT	128	/* a mistake of ours, not the commit's: stop the bisect */

/* where a build of the tree leaves the image that a step boots */
#define BISECT_IMAGE	"arch/x86/boot/bzImage"

/**
 * bisect_git - `git -C @tree ARGS...` (the NULL-ended words after @out's
 * size), its stdout without its last newlines into @out (@len bytes;
 * NULL: dropped), its stderr dropped. Returns git's exit code, or -errno
 * of starting it (-ENOENT: no git on $PATH).
 */
int bisect_git(const char *tree, char *out, size_t len, ...)
	__attribute__((sentinel));

/**
 * bisect_going - whether a bisect is going in the git tree @tree (its
 * git directory holds BISECT_START): false too when git cannot say.
 */
bool bisect_going(const char *tree);

/**
 * bisect_check - what must hold of @tree (an absolute path), @good and
 * @bad before anything is built: the top of a git work tree without
 * uncommitted changes, no bisect going, two revisions that are commits,
 * not one, @good an ancestor of @bad, and a .config (the tree's own is
 * built at every step). Returns 0, -EINVAL with one line in @why (@len
 * bytes) naming the tree or the revision, or -ENOENT (no git) with @why.
 */
int bisect_check(const char *tree, const char *good, const char *bad, char *why, size_t len);

/**
 * bisect_row_find - the first row of bench compare's CSV @path whose
 * verdict is @verdict ("regression", "not repeatable", "significant
 * below threshold"), its columns found by their names in the header,
 * into @row (lib/report/bisectfmt.h). Returns 0, -ENOENT when no row has it, -EINVAL when the
 * header lacks a column or a row is not the header's, -E2BIG for a line
 * too long, or -errno of reading @path.
 */
int bisect_row_find(const char *path, const char *verdict, struct bisectfmt_row *row);

/**
 * bisect_log_first - of `git bisect log`'s output @path, the first bad
 * commit ("# first bad commit: [SHA] ...") into @sha (@len bytes) and
 * the steps (its git bisect good, bad and skip lines) into *@steps.
 * Returns 0, -ENOENT when it names no first bad commit, or -errno of
 * reading @path.
 */
int bisect_log_first(const char *path, char *sha, size_t len, unsigned int *steps);

/**
 * bisect_threshold - the threshold that bench compare applied, from the
 * "threshold=" word of the COMPARE line of its report @path ("5%"),
 * into @buf (@len bytes). Returns 0, -ENOENT when there is none, or
 * -errno of reading @path.
 */
int bisect_threshold(const char *path, char *buf, size_t len);

/**
 * bisect_last_line - the last line of the file @path (a build's log,
 * what bench vm said on stderr) into @buf (@len bytes), "" when it is
 * empty or cannot be read: what a step's message quotes of why.
 */
void bisect_last_line(const char *path, char *buf, size_t len);

/**
 * bisect_new_dir - a results directory of its own under @root (made with
 * its parents when missing): @root/STAMP, the UTC time to the second
 * (20250131T020000Z), else STAMP-2, STAMP-3... up to -1000, never one
 * that exists, mode 0755, its path into @dir (@len bytes). Returns 0,
 * -EEXIST when every name is taken, or -errno of mkdir().
 */
int bisect_new_dir(const char *root, char *dir, size_t len);

/**
 * bisect_copy - the regular file @src copied to @dst (created 0644, or
 * truncated): the good kernel's image kept. Returns 0 or -errno.
 */
int bisect_copy(const char *src, const char *dst);

/**
 * bisect_read - the file @path whole into *@text (malloc()ed, NUL-ended;
 * the caller frees it), at most @max bytes: a table a step kept. Returns
 * 0, -EFBIG when it is longer, -ENOMEM, or -errno of reading it.
 */
int bisect_read(const char *path, size_t max, char **text);

#endif /* KSB_BISECT_H */
