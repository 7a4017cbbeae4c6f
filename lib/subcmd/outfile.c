// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c - replace a regular file through a temp file and rename,
 * write anything else in place (see outfile.h for the rules).
 *
 * f is a fopencookie() stream over fd so that the errno of the first
 * failed write survives until outfile_commit(): stdio keeps only a flag.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "lib/subcmd/outfile.h"

#define OUTFILE_MAX_LINKS	40	/* as the kernel's MAXSYMLINKS */
#define OUTFILE_TMP_NAME	".kstats-bench.XXXXXX"

static ssize_t outfile_cookie_write(void *cookie, const char *buf, size_t len)
{
	struct outfile *o = cookie;
	size_t done = 0;
	ssize_t n;

	if (o->discard)
		return (ssize_t)len;
	while (done < len) {
		n = write(o->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? errno : EIO;
			errno = o->err;
			return 0;	/* stdio's "error" for a cookie */
		}
		done += (size_t)n;
	}
	return (ssize_t)len;
}

static int outfile_cookie_close(void *cookie)
{
	struct outfile *o = cookie;
	int fd = o->fd;

	o->fd = -1;
	if (o->how == OUTFILE_STDOUT || fd < 0)
		return 0;
	if (close(fd) && !o->err) {
		o->err = errno;
		return -1;
	}
	return 0;
}

/* the stream over o->fd; closes fd itself when that fails */
static int outfile_stream(struct outfile *o)
{
	static const cookie_io_functions_t io = {
		.write = outfile_cookie_write,
		.close = outfile_cookie_close,
	};

	o->f = fopencookie(o, "w", io);
	if (o->f)
		return 0;
	if (o->how != OUTFILE_STDOUT)
		close(o->fd);
	o->fd = -1;
	return -ENOMEM;
}

/*
 * A malloc()ed copy of the target of symlink @link, relative to its
 * directory; NULL with errno set.
 */
static char *outfile_readlink(const char *link, size_t size)
{
	const char *slash = strrchr(link, '/');
	size_t dlen = slash ? (size_t)(slash - link) + 1 : 0;
	char *buf;
	ssize_t n;

	if (!size || size > PATH_MAX)
		size = PATH_MAX;	/* /proc links report 0 */
	buf = malloc(dlen + size + 1);
	if (!buf)
		return NULL;
	n = readlink(link, buf + dlen, size + 1);
	if (n < 0 || (size_t)n > size) {
		if (n >= 0)
			errno = ENAMETOOLONG;
		free(buf);
		return NULL;
	}
	buf[dlen + (size_t)n] = '\0';
	if (buf[dlen] == '/')
		memmove(buf, buf + dlen, (size_t)n + 1);
	else
		memcpy(buf, link, dlen);
	return buf;
}

/* is symlink @link one of /proc's, which name open files by magic? */
static bool outfile_magic(const char *link)
{
	const char *slash = strrchr(link, '/');
	struct statfs sfs;
	char *dir;
	bool magic;

	if (!slash)
		return !statfs(".", &sfs) && sfs.f_type == PROC_SUPER_MAGIC;
	dir = strndup(link, (size_t)(slash - link) + 1);
	magic = dir && !statfs(dir, &sfs) && sfs.f_type == PROC_SUPER_MAGIC;
	free(dir);
	return magic;
}

/*
 * Follow @o->path's symlinks, once, to the file to create or replace;
 * @st is lstat() of the result (st_mode 0 when it does not exist).
 * Returns 0, 1 at a /proc magic link (o->path is then that link), or
 * -errno.
 */
static int outfile_resolve(struct outfile *o, struct stat *st)
{
	unsigned int hops;
	char *next;

	for (hops = 0; ; hops++) {
		if (lstat(o->path, st)) {
			if (errno != ENOENT)
				return -errno;
			st->st_mode = 0;
			return 0;
		}
		if (!S_ISLNK(st->st_mode))
			return 0;
		if (hops == OUTFILE_MAX_LINKS)
			return -ELOOP;
		if (outfile_magic(o->path))
			return 1;
		next = outfile_readlink(o->path, (size_t)st->st_size);
		if (!next)
			return -errno;
		free(o->path);
		o->path = next;
	}
}

/*
 * Open a non-regular file (or a magic link) in place. A FIFO waits for
 * its reader; let the signals that end a waiting user's patience in.
 */
static int outfile_open_in_place(struct outfile *o, const char *path, bool fifo)
{
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC;
	sigset_t stop, old;
	int err = 0;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	if (fifo)
		pthread_sigmask(SIG_UNBLOCK, &stop, &old);
	o->fd = open(path, flags | (fifo ? 0 : O_TRUNC));
	if (o->fd < 0)
		err = -errno;
	if (fifo)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return err;
	o->how = OUTFILE_IN_PLACE;
	return outfile_stream(o);
}

/* the temp file beside o->path; @st: the file it replaces, if any */
static int outfile_open_replace(struct outfile *o, const struct stat *st)
{
	const char *slash = strrchr(o->path, '/');
	size_t dlen = slash ? (size_t)(slash - o->path) + 1 : 0;

	o->how = OUTFILE_REPLACE;
	o->mode = S_ISREG(st->st_mode) ? st->st_mode & 07777 : 0644;
	o->uid = S_ISREG(st->st_mode) ? st->st_uid : (uid_t)-1;
	o->gid = S_ISREG(st->st_mode) ? st->st_gid : (gid_t)-1;
	o->tmp = malloc(dlen + sizeof(OUTFILE_TMP_NAME));
	if (!o->tmp)
		return -ENOMEM;
	memcpy(o->tmp, o->path, dlen);
	strcpy(o->tmp + dlen, OUTFILE_TMP_NAME);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return -errno;
	}
	return outfile_stream(o);
}

static int outfile_choose(struct outfile *o, const char *path)
{
	struct stat st, lst;
	bool found;
	int ret;

	if (!strcmp(path, "-")) {
		o->how = OUTFILE_STDOUT;
		o->fd = STDOUT_FILENO;
		return outfile_stream(o);
	}
	found = !stat(path, &st);
	if (found && S_ISDIR(st.st_mode))
		return -EISDIR;
	if (found && !S_ISREG(st.st_mode))
		return outfile_open_in_place(o, path, S_ISFIFO(st.st_mode));
	ret = outfile_resolve(o, &lst);
	if (ret < 0)
		return ret;
	/* /dev/stdout onto a file: renaming would not reach the descriptor */
	if (ret)
		return outfile_open_in_place(o, path, false);
	/* a new file, or the target a dangling link names */
	if (!found && !lst.st_mode)
		return outfile_open_replace(o, &lst);
	if (found && S_ISREG(lst.st_mode) && lst.st_dev == st.st_dev &&
	    lst.st_ino == st.st_ino)
		return outfile_open_replace(o, &lst);
	/* changed under us: whatever it is now, never rename over it */
	return outfile_open_in_place(o, path, false);
}

char *outfile_target(const char *path)
{
	struct outfile o = { .path = strdup(path) };
	struct stat st;
	int ret;

	if (!o.path)
		return NULL;
	ret = outfile_resolve(&o, &st);
	if (ret < 0) {
		free(o.path);
		errno = -ret;
		return NULL;
	}
	return o.path;
}

int outfile_open(struct outfile *o, const char *path)
{
	size_t len = strlen(path);
	int ret;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!len || path[len - 1] == '/')
		return -EISDIR;
	o->path = strdup(path);
	if (!o->path)
		return -ENOMEM;
	ret = outfile_choose(o, path);
	if (ret)
		outfile_abort(o);
	return ret;
}

/* keep the replaced file's owner where we may (root), then its mode */
static int outfile_keep_mode(struct outfile *o)
{
	bool give = (o->uid != (uid_t)-1 && o->uid != geteuid()) ||
		    (o->gid != (gid_t)-1 && o->gid != getegid());

	/* best effort: only root may give a file away */
	if (give && fchown(o->fd, o->uid, o->gid))
		errno = 0;
	return fchmod(o->fd, o->mode) ? -errno : 0;
}

int outfile_commit(struct outfile *o)
{
	int ret = 0;

	if (fflush(o->f) || ferror(o->f))
		ret = -(o->err ? o->err : EIO);
	else if (o->how == OUTFILE_REPLACE)
		ret = fsync(o->fd) ? -errno : outfile_keep_mode(o);
	o->discard = ret != 0;
	if (fclose(o->f) && !ret)
		ret = -(o->err ? o->err : EIO);
	o->f = NULL;
	if (!ret && o->how == OUTFILE_REPLACE && rename(o->tmp, o->path))
		ret = -errno;
	if (!ret) {
		free(o->tmp);
		o->tmp = NULL;
	}
	outfile_abort(o);
	return ret;
}

void outfile_abort(struct outfile *o)
{
	if (o->f) {
		o->discard = true;
		fclose(o->f);
	}
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}
