// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c - temp file, fsync, rename (see outfile.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

int outfile_open(struct outfile *o, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!*path || (slash && !slash[1]) ||
	    (!stat(path, &st) && S_ISDIR(st.st_mode)))
		return -EISDIR;
	o->path = strdup(path);
	o->tmp = malloc(dlen + sizeof(".kstats-bench.XXXXXX"));
	if (!o->path || !o->tmp)
		goto out_nomem;
	memcpy(o->tmp, path, dlen);
	strcpy(o->tmp + dlen, ".kstats-bench.XXXXXX");
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		fd = -errno;
		free(o->tmp);
		o->tmp = NULL;
		outfile_abort(o);
		return fd;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		goto out_nomem;
	}
	return 0;
out_nomem:
	outfile_abort(o);
	return -ENOMEM;
}

int outfile_commit(struct outfile *o)
{
	int ret = 0;

	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f)) ||
	    fchmod(fileno(o->f), 0644))
		ret = -errno ? -errno : -EIO;
	if (fclose(o->f) && !ret)
		ret = -errno;
	o->f = NULL;
	if (!ret && rename(o->tmp, o->path))
		ret = -errno;
	if (ret) {
		outfile_abort(o);
		return ret;
	}
	free(o->tmp);
	o->tmp = NULL;
	outfile_abort(o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}
