// SPDX-License-Identifier: GPL-2.0
/*
 * dirscan.c - the regular files of a directory a command reads (see
 * dirscan.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/subcmd/dirscan.h"

static int dirscan_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* what a file that is not regular is, for the message */
static const char *dirscan_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	return "not a file";
}

/* @dir/@name, a regular file: 0, or -errno with @why */
static int dirscan_check(const char *dir, const char *name, char *why, size_t len)
{
	struct stat st;
	char *path;
	int ret = 0;
	size_t n = strlen(dir);

	/* "d/" names d/x, not d//x */
	if (asprintf(&path, "%.*s/%s", (int)(n - (n > 1 && dir[n - 1] == '/')), dir, name) < 0)
		return -ENOMEM;
	if (stat(path, &st)) {
		ret = -errno;
		snprintf(why, len, "%s: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(why, len, "%s: not a regular file (%s)", path, dirscan_kind(st.st_mode));
	}
	free(path);
	return ret;
}

/* @name appended to @d: 0 or -ENOMEM */
static int dirscan_add(struct dirscan *d, const char *name)
{
	char **nn = realloc(d->name, (d->n + 1) * sizeof(*nn));

	if (!nn)
		return -ENOMEM;
	d->name = nn;
	d->name[d->n] = strdup(name);
	if (!d->name[d->n])
		return -ENOMEM;
	d->n++;
	return 0;
}

int dirscan(const char *dir, bool (*want)(const char *name), struct dirscan *d, char *why,
	    size_t len)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	if (!dp) {
		ret = -errno;
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return ret;
	}
	while (!ret && (e = readdir(dp)))
		if (e->d_name[0] != '.' && want(e->d_name))
			ret = dirscan_check(dir, e->d_name, why, len) ?: dirscan_add(d, e->d_name);
	closedir(dp);
	if (ret) {
		dirscan_free(d);
		return ret;
	}
	if (d->n)
		qsort(d->name, d->n, sizeof(*d->name), dirscan_cmp);
	return 0;
}

void dirscan_free(struct dirscan *d)
{
	unsigned int i;

	for (i = 0; i < d->n; i++)
		free(d->name[i]);
	free(d->name);
	d->name = NULL;
	d->n = 0;
}
