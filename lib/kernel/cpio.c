// SPDX-License-Identifier: GPL-2.0
/*
 * cpio.c - the newc archive writer of cpio.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/kernel/cpio.h"

#define CPIO_MAGIC	"070701"
#define CPIO_TRAILER	"TRAILER!!!"

void cpio_begin(struct cpio *c, FILE *f)
{
	c->f = f;
	c->ino = 1;
	c->err = 0;
}

/* zeros up to the next multiple of 4 after @len bytes */
static void cpio_pad(struct cpio *c, size_t len)
{
	static const char zero[4];

	if (len % 4)
		fwrite(zero, 1, 4 - len % 4, c->f);
}

/* the header and the name of one entry of @size bytes */
static int cpio_header(struct cpio *c, const char *name, uint32_t mode,
		       uint64_t size, unsigned int major, unsigned int minor)
{
	size_t namesize = strlen(name) + 1;

	if (c->err)
		return c->err;
	if (size > UINT32_MAX)
		return c->err = -EFBIG;
	/* ino mode uid gid nlink mtime filesize devmaj devmin rdevmaj rdevmin namesize check */
	fprintf(c->f, CPIO_MAGIC "%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08zX%08X",
		c->ino++, mode, 0, 0, S_ISDIR(mode) ? 2 : 1, 0, (uint32_t)size,
		0, 0, major, minor, namesize, 0);
	fwrite(name, 1, namesize, c->f);
	cpio_pad(c, 110 + namesize);
	if (ferror(c->f))
		c->err = -EIO;
	return c->err;
}

/* a name the kernel will unpack where it is meant to go */
static int cpio_name_ok(struct cpio *c, const char *name)
{
	if (c->err)
		return c->err;
	if (!*name || *name == '/')
		return c->err = -EINVAL;
	return 0;
}

int cpio_dir(struct cpio *c, const char *name, unsigned int mode)
{
	return cpio_name_ok(c, name) ?: cpio_header(c, name, S_IFDIR | (mode & 07777), 0, 0, 0);
}

int cpio_node(struct cpio *c, const char *name, unsigned int mode,
	      unsigned int major, unsigned int minor)
{
	return cpio_name_ok(c, name) ?:
	       cpio_header(c, name, S_IFCHR | (mode & 07777), 0, major, minor);
}

int cpio_data(struct cpio *c, const char *name, unsigned int mode,
	      const void *buf, size_t len)
{
	if (cpio_name_ok(c, name) || cpio_header(c, name, S_IFREG | (mode & 07777), len, 0, 0))
		return c->err;
	if (fwrite(buf, 1, len, c->f) != len)
		return c->err = -EIO;
	cpio_pad(c, len);
	return 0;
}

/* @fd's @size bytes, copied through */
static int cpio_copy(struct cpio *c, int fd, uint64_t size)
{
	char buf[1 << 16];
	ssize_t n;

	while (size) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return c->err = n ? -errno : -EIO;	/* shrank under us */
		if ((uint64_t)n > size)
			n = (ssize_t)size;
		if (fwrite(buf, 1, (size_t)n, c->f) != (size_t)n)
			return c->err = -EIO;
		size -= (uint64_t)n;
	}
	return 0;
}

int cpio_file(struct cpio *c, const char *name, unsigned int mode,
	      const char *src)
{
	struct stat st;
	int fd;

	if (cpio_name_ok(c, name))
		return c->err;
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return c->err = -errno;
	if (fstat(fd, &st))
		c->err = -errno;
	else if (!S_ISREG(st.st_mode))
		c->err = -EINVAL;
	if (!c->err &&
	    !cpio_header(c, name, S_IFREG | (mode & 07777), (uint64_t)st.st_size, 0, 0) &&
	    !cpio_copy(c, fd, (uint64_t)st.st_size))
		cpio_pad(c, (size_t)st.st_size);
	close(fd);
	return c->err;
}

int cpio_end(struct cpio *c)
{
	c->ino = 0;
	cpio_header(c, CPIO_TRAILER, 0, 0, 0, 0);
	if (!c->err && fflush(c->f))
		c->err = -errno;
	return c->err;
}
