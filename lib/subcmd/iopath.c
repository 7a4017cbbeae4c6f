// SPDX-License-Identifier: GPL-2.0
/*
 * iopath.c - paths that name one file, by device and inode (iopath.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/subcmd/iopath.h"
#include "lib/subcmd/outfile.h"

/* what a path names: a file, or a name yet to be created in a directory */
struct iopath_id {
	dev_t dev;			/* the file's, or its directory's */
	ino_t ino;
	const char *name;		/* NULL: the file itself; else in buf */
	char *buf;			/* outfile_target()'s copy, freed */
	bool valid;			/* false: takes no part */
};

/* an input: a regular file that exists */
static void iopath_in_id(const char *path, struct iopath_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode)) {
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->valid = true;
	}
}

/* a file yet to be created: its directory and its name; 0 or -ENOMEM */
static int iopath_new_id(const char *path, struct iopath_id *id)
{
	char *t = outfile_target(path), *slash;
	const char *dir = ".";
	struct stat st;

	if (!t)
		return errno == ENOMEM ? -ENOMEM : 0;
	id->name = t;
	slash = strrchr(t, '/');
	if (slash) {
		*slash = '\0';
		dir = slash == t ? "/" : t;
		id->name = slash + 1;
	}
	if (!*id->name || stat(dir, &st)) {
		free(t);
		id->name = NULL;
		return 0;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->buf = t;
	id->valid = true;
	return 0;
}

/* an output: a regular file, or one that does not exist yet; 0 or -ENOMEM */
static int iopath_out_id(const char *path, struct iopath_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (!path || !*path || !strcmp(path, "-"))
		return 0;
	if (!stat(path, &st)) {
		if (S_ISREG(st.st_mode)) {
			id->dev = st.st_dev;
			id->ino = st.st_ino;
			id->valid = true;
		}
		return 0;
	}
	return errno == ENOENT ? iopath_new_id(path, id) : 0;
}

static bool iopath_same(const struct iopath_id *a, const struct iopath_id *b)
{
	if (!a->valid || !b->valid || a->dev != b->dev || a->ino != b->ino)
		return false;
	if (!a->name || !b->name)
		return !a->name && !b->name;
	return !strcmp(a->name, b->name);
}

static void iopath_free(struct iopath_id *id, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		free(id[i].buf);
	free(id);
}

/* the first of @out that is an input, or that an earlier output names */
static int iopath_clash(const char *const *in, unsigned int nin, const struct iopath *out,
			unsigned int nout, const struct iopath_id *id, char *why, size_t len)
{
	struct iopath_id a;
	unsigned int i, j;

	for (i = 0; i < nin; i++) {
		iopath_in_id(in[i], &a);
		for (j = 0; j < nout; j++) {
			if (iopath_same(&a, &id[j])) {
				snprintf(why, len, "%s %s would replace the input %s", out[j].opt,
					 out[j].path, in[i]);
				return -EINVAL;
			}
		}
	}
	for (j = 0; j < nout; j++) {
		for (i = 0; i < j; i++) {
			if (iopath_same(&id[i], &id[j])) {
				snprintf(why, len, "%s %s and %s %s name one file: one report would replace the other",
					 out[i].opt, out[i].path, out[j].opt, out[j].path);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int iopath_check(const char *const *in, unsigned int nin, const struct iopath *out,
		 unsigned int nout, char *why, size_t len)
{
	struct iopath_id *id = calloc(nout ? nout : 1, sizeof(*id));
	unsigned int j;
	int ret = 0;

	if (!id)
		return -ENOMEM;
	for (j = 0; j < nout && !ret; j++)
		ret = iopath_out_id(out[j].path, &id[j]);
	if (!ret)
		ret = iopath_clash(in, nin, out, nout, id, why, len);
	iopath_free(id, nout);
	return ret;
}

int iopath_dup(const char *const *in, unsigned int nin, char *why, size_t len)
{
	struct iopath_id *id = calloc(nin ? nin : 1, sizeof(*id));
	unsigned int i, j;
	int ret = 0;

	if (!id)
		return -ENOMEM;
	for (i = 0; i < nin && !ret; i++) {
		iopath_in_id(in[i], &id[i]);
		for (j = 0; j < i && !ret; j++) {
			if (iopath_same(&id[j], &id[i])) {
				snprintf(why, len, "%s and %s are one file: its runs would count twice",
					 in[j], in[i]);
				ret = -EINVAL;
			}
		}
	}
	iopath_free(id, nin);
	return ret;
}
