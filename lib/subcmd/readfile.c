// SPDX-License-Identifier: GPL-2.0
/*
 * readfile.c - the first line of a small system file, and the bounded
 * lines of any other input (see readfile.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/subcmd/readfile.h"

/* what one fread() asks for at most, beside a line's worth */
#define READFILE_CHUNK	65536

int readfile_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	buf[0] = 0;
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = 0;
		ret = -ENODATA;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ret;
}

void readfile_lines_init(struct readfile_lines *r, FILE *f, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->max = max;
}

/* more of the stream behind what is left: 0, or -errno (r->eof set either way at its end) */
static int readfile_fill(struct readfile_lines *r)
{
	size_t n;

	if (!r->buf) {
		/* a line, its newline, a NUL, and a chunk beside */
		r->cap = r->max + 2 + READFILE_CHUNK;
		r->buf = malloc(r->cap);
		if (!r->buf)
			return -ENOMEM;
	}
	memmove(r->buf, r->buf + r->start, r->end - r->start);
	r->end -= r->start;
	r->start = 0;
	errno = 0;
	n = fread(r->buf + r->end, 1, r->cap - 1 - r->end, r->f);
	r->end += n;
	if (ferror(r->f)) {
		r->eof = true;
		return errno ? -errno : -EIO;
	}
	r->eof = feof(r->f);
	return 0;
}

/* @err: the reader is done, every later call returns 0 */
static int readfile_fail(struct readfile_lines *r, int err)
{
	r->eof = true;
	r->start = r->end;
	return err;
}

int readfile_lines_next(struct readfile_lines *r)
{
	char *nl = NULL;
	size_t stop;
	int ret;

	if (r->eof && r->start == r->end)
		return 0;
	r->no++;
	for (;;) {
		if (r->buf)
			nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl || r->end - r->start > r->max || r->eof)
			break;
		ret = readfile_fill(r);
		if (ret)
			return readfile_fail(r, ret);
	}
	stop = nl ? (size_t)(nl - r->buf) : r->end;
	if (stop - r->start > r->max)
		return readfile_fail(r, -E2BIG);
	if (!nl && r->start == r->end) {
		r->no--;	/* the end, right after the last newline */
		return 0;
	}
	r->line = r->buf + r->start;
	r->len = stop - r->start;
	r->buf[stop] = 0;
	r->start = stop + (nl != NULL);
	return 1;
}

void readfile_lines_free(struct readfile_lines *r)
{
	free(r->buf);
	r->buf = NULL;
	r->start = r->end = 0;
}
