// SPDX-License-Identifier: GPL-2.0
/*
 * bisect.c - a kernel tree and the files of its bisect (bisect.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/kernel/bisect.h"
#include "lib/subcmd/readfile.h"
#include "lib/subcmd/spawn.h"

#define BISECT_GIT_ARGS	12		/* words after git -C TREE */
#define BISECT_LINE	4096		/* bytes of a line of the files read here */
#define BISECT_COLS	32		/* columns of compare's CSV at most */

int bisect_git(const char *tree, char *out, size_t len, ...)
{
	char *argv[BISECT_GIT_ARGS + 4] = { "git", "-C", (char *)tree }, drop[64];
	unsigned int n = 3;
	int null, ret;
	va_list ap;
	char *a;

	va_start(ap, len);
	while ((a = va_arg(ap, char *)) && n < BISECT_GIT_ARGS + 3)
		argv[n++] = a;
	va_end(ap);
	if (a)
		return -E2BIG;
	argv[n] = NULL;
	/* its messages are not ours: the caller says what failed */
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ret = out ? spawn_capture(argv, out, len, null)
		  : spawn_capture(argv, drop, sizeof(drop), null);
	if (null >= 0)
		close(null);
	return ret;
}

/* one line into @why (@len bytes); returns -EINVAL */
static int __attribute__((format(printf, 3, 4)))
bisect_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

bool bisect_going(const char *tree)
{
	char start[PATH_MAX];

	if (bisect_git(tree, start, sizeof(start) - 16, "rev-parse", "--absolute-git-dir", NULL))
		return false;
	strcat(start, "/BISECT_START");
	return !access(start, F_OK);
}

/* rev-parse's commit of @rev into @sha: 0, or git's exit code / -errno */
static int bisect_commit(const char *tree, const char *rev, char *sha, size_t len)
{
	char spec[256];

	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	return bisect_git(tree, sha, len, "rev-parse", "--verify", "-q", spec, NULL);
}

/* the work tree: its top, clean, no bisect going; 0 or -EINVAL with @why */
static int bisect_check_tree(const char *tree, char *why, size_t len)
{
	char out[PATH_MAX + 32];
	int ret;

	ret = bisect_git(tree, out, sizeof(out), "rev-parse", "--is-inside-work-tree", NULL);
	if (ret < 0)
		return ret;
	if (ret || strcmp(out, "true"))
		return bisect_why(why, len, "%s: not a git work tree", tree);
	if (bisect_git(tree, out, sizeof(out), "rev-parse", "--show-toplevel", NULL) ||
	    strcmp(out, tree))
		return bisect_why(why, len, "%s: not the top of its git tree (%s)", tree, out);
	if (bisect_git(tree, out, sizeof(out), "status", "--porcelain",
		       "--untracked-files=no", NULL) || out[0])
		return bisect_why(why, len, "%s: uncommitted changes (git -C %s status); commit or stash them",
				  tree, tree);
	if (bisect_going(tree))
		return bisect_why(why, len, "%s: a bisect is already going (git -C %s bisect reset)",
				  tree, tree);
	return 0;
}

/* the revisions: two commits, GOOD an ancestor of BAD; 0 or -EINVAL with @why */
static int bisect_check_revs(const char *tree, const char *good, const char *bad,
			     char *why, size_t len)
{
	char g[128], b[128];

	if (bisect_commit(tree, good, g, sizeof(g)))
		return bisect_why(why, len, "'%s': no such revision in %s", good, tree);
	if (bisect_commit(tree, bad, b, sizeof(b)))
		return bisect_why(why, len, "'%s': no such revision in %s", bad, tree);
	if (!strcmp(g, b))
		return bisect_why(why, len, "GOOD and BAD are the same commit");
	if (bisect_git(tree, NULL, 0, "merge-base", "--is-ancestor", g, b, NULL))
		return bisect_why(why, len, "'%s' is not an ancestor of '%s'", good, bad);
	return 0;
}

int bisect_check(const char *tree, const char *good, const char *bad, char *why, size_t len)
{
	char config[PATH_MAX];
	int ret = bisect_check_tree(tree, why, len);

	if (ret == -ENOENT)
		snprintf(why, len, "git: not found on $PATH (install git)");
	if (!ret)
		ret = bisect_check_revs(tree, good, bad, why, len);
	if (ret)
		return ret;
	snprintf(config, sizeof(config), "%s/.config", tree);
	if (access(config, F_OK))
		return bisect_why(why, len, "%s: no .config (the tree's own is built at every step)",
				  tree);
	return 0;
}

/* @line split at its commas into @f (at most BISECT_COLS); the count */
static unsigned int bisect_fields(char *line, char **f)
{
	unsigned int n = 0;
	char *p = line;

	while (n < BISECT_COLS) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = 0;
	}
	return n;
}

/* the columns read of compare's CSV, as bisect_row_fill() takes them, and the verdict */
static const char *const bisect_cols[] = {
	"workload", "variant", "stat", "p", "change_pct", "n_before", "n_after", "verdict",
};
#define BISECT_NR_COLS	(sizeof(bisect_cols) / sizeof(bisect_cols[0]))

/* @hdr's index of each of bisect_cols into @ix: 0, or -EINVAL for one missing */
static int bisect_header(char **hdr, unsigned int n, unsigned int *ix)
{
	unsigned int c, i;

	for (c = 0; c < BISECT_NR_COLS; c++) {
		for (i = 0; i < n && strcmp(hdr[i], bisect_cols[c]); i++)
			;
		if (i == n)
			return -EINVAL;
		ix[c] = i;
	}
	return 0;
}

/* a row's fields @f, by the header's @ix, into @row */
static void bisect_row_fill(char **f, const unsigned int *ix, struct bisectfmt_row *row)
{
	snprintf(row->workload, sizeof(row->workload), "%s", f[ix[0]]);
	snprintf(row->variant, sizeof(row->variant), "%s", f[ix[1]]);
	snprintf(row->stat, sizeof(row->stat), "%s", f[ix[2]]);
	snprintf(row->p, sizeof(row->p), "%s", f[ix[3]]);
	row->change_pct = strtod(f[ix[4]], NULL);
	row->n_before = (unsigned int)strtoul(f[ix[5]], NULL, 10);
	row->n_after = (unsigned int)strtoul(f[ix[6]], NULL, 10);
}

/*
 * each line of @path to @fn(@line, @arg) until it returns non-zero:
 * that, 0 at the end, or -errno of reading
 */
static int bisect_each_line(const char *path, int (*fn)(const char *line, void *arg), void *arg)
{
	struct readfile_lines r;
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return -errno;
	readfile_lines_init(&r, f, BISECT_LINE);
	while ((ret = readfile_lines_next(&r)) > 0 && !(ret = fn(r.line, arg)))
		;
	readfile_lines_free(&r);
	fclose(f);
	return ret;
}

/* what bisect_row_find() reads into */
struct bisect_find {
	const char *verdict;
	struct bisectfmt_row *row;
	unsigned int ix[BISECT_NR_COLS];	/* the header's index of each of bisect_cols */
	unsigned int ncol;			/* the header's columns, 0: none yet */
};

/* a line of compare's CSV: 1 when it is the row, -EINVAL when it breaks the header's shape */
static int bisect_row_line(const char *line, void *arg)
{
	struct bisect_find *b = arg;
	char copy[BISECT_LINE + 1], *f[BISECT_COLS];
	unsigned int n;

	if (line[0] == '#')
		return 0;
	snprintf(copy, sizeof(copy), "%s", line);
	n = bisect_fields(copy, f);
	if (!b->ncol) {
		b->ncol = n;
		return bisect_header(f, n, b->ix);
	}
	if (n != b->ncol)
		return -EINVAL;
	if (strcmp(f[b->ix[BISECT_NR_COLS - 1]], b->verdict))
		return 0;
	bisect_row_fill(f, b->ix, b->row);
	return 1;
}

int bisect_row_find(const char *path, const char *verdict, struct bisectfmt_row *row)
{
	struct bisect_find b = { .verdict = verdict, .row = row };
	int ret = bisect_each_line(path, bisect_row_line, &b);

	if (ret < 0)
		return ret;
	return ret ? 0 : b.ncol ? -ENOENT : -EINVAL;
}

/* what bisect_log_first() reads into */
struct bisect_log {
	char *sha;
	size_t len;
	unsigned int steps;
	int found;
};

static int bisect_log_line(const char *line, void *arg)
{
	static const char first[] = "# first bad commit: [";
	struct bisect_log *l = arg;
	size_t n;

	if (!strncmp(line, "git bisect good ", 16) || !strncmp(line, "git bisect bad ", 15) ||
	    !strncmp(line, "git bisect skip ", 16))
		l->steps++;
	if (strncmp(line, first, sizeof(first) - 1) || l->found)
		return 0;
	line += sizeof(first) - 1;
	n = strcspn(line, "]");
	if (!line[n] || !n)
		return 0;
	snprintf(l->sha, l->len, "%.*s", (int)n, line);
	l->found = 1;
	return 0;
}

int bisect_log_first(const char *path, char *sha, size_t len, unsigned int *steps)
{
	struct bisect_log l = { .sha = sha, .len = len };
	int ret = bisect_each_line(path, bisect_log_line, &l);

	*steps = l.steps;
	if (ret < 0)
		return ret;
	return l.found ? 0 : -ENOENT;
}

/* what bisect_threshold() reads into */
struct bisect_word {
	char *buf;
	size_t len;
};

static int bisect_threshold_line(const char *line, void *arg)
{
	struct bisect_word *w = arg;
	const char *t;

	if (strncmp(line, "COMPARE ", 8) || !(t = strstr(line, " threshold=")))
		return 0;
	t += strlen(" threshold=");
	snprintf(w->buf, w->len, "%.*s", (int)strcspn(t, " "), t);
	return 1;
}

int bisect_threshold(const char *path, char *buf, size_t len)
{
	struct bisect_word w = { buf, len };
	int ret = bisect_each_line(path, bisect_threshold_line, &w);

	return ret < 0 ? ret : ret ? 0 : -ENOENT;
}

static int bisect_keep_line(const char *line, void *arg)
{
	struct bisect_word *w = arg;

	snprintf(w->buf, w->len, "%s", line);
	return 0;
}

void bisect_last_line(const char *path, char *buf, size_t len)
{
	struct bisect_word w = { buf, len };

	buf[0] = 0;
	bisect_each_line(path, bisect_keep_line, &w);
}

/* mkdir -p @path (mode 0755): 0 or -errno */
static int bisect_mkdirs(const char *path)
{
	char p[PATH_MAX], *s;

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	for (s = p + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		if (mkdir(p, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdir(p, 0755) && errno != EEXIST ? -errno : 0;
}

int bisect_new_dir(const char *root, char *dir, size_t len)
{
	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;
	int n, ret = bisect_mkdirs(root);

	if (ret)
		return ret;
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm))
		return -EINVAL;
	for (n = 1; n <= 1000; n++) {
		if (n == 1)
			snprintf(dir, len, "%s/%s", root, stamp);
		else
			snprintf(dir, len, "%s/%s-%d", root, stamp, n);
		if (!mkdir(dir, 0755))
			return chmod(dir, 0755) ? -errno : 0;	/* whatever the umask */
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int bisect_copy(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out, ret = 0;
	char buf[65536];
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		ret = -errno;
		goto out_in;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ret = errno ? -errno : -EIO;
			break;
		}
	if (n < 0 && !ret)
		ret = -errno;
	if (close(out) && !ret)
		ret = -errno;
out_in:
	close(in);
	return ret;
}

int bisect_read(const char *path, size_t max, char **text)
{
	FILE *f = fopen(path, "r");
	size_t n;
	char *t;
	int ret = 0;

	*text = NULL;
	if (!f)
		return -errno;
	t = malloc(max + 1);
	if (!t) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(t, 1, max + 1, f);
	if (ferror(f))
		ret = -EIO;
	else if (n > max)
		ret = -EFBIG;
	fclose(f);
	if (ret) {
		free(t);
		return ret;
	}
	t[n] = 0;
	*text = t;
	return 0;
}
