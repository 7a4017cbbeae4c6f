/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readfile.h - the two ways bench reads text: the first line of a small
 * system file (/proc, /sys), for metadata and for the messages that name
 * why the system refused; and the lines of any other input (a results
 * CSV, a battery, a list of samples, what a guest sent), each at most a
 * given length, so that no input (/dev/zero, a file without a newline)
 * grows a line without bound:
 *
 *	struct readfile_lines lr;
 *
 *	readfile_lines_init(&lr, f, CSV_MAX_LINE);
 *	while ((ret = readfile_lines_next(&lr)) > 0)
 *		use lr.line, lr.len bytes		(a NUL inside counts)
 *	readfile_lines_free(&lr);
 *	ret: 0 at the end, -E2BIG for a longer line, -ENOMEM, a read's -errno
 *
 * Stateless but for the reader's struct: any thread, one reader a struct.
 */
#ifndef KSB_READFILE_H
#define KSB_READFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/**
 * readfile_line - the first line of @path without its newline into @buf
 * (@len bytes, cut there). Returns 0, or -errno when @path cannot be
 * opened or is empty (-ENODATA); @buf is "" then.
 */
int readfile_line(const char *path, char *buf, size_t len);

/* a reader of @f's lines, each at most @max bytes: readfile_lines_init() */
struct readfile_lines {
	FILE *f;			/* read from */
	size_t max;			/* bytes of a line at most, its newline aside */
	char *buf;			/* what was read; NULL until the first line */
	size_t cap;			/* bytes of buf */
	size_t start, end;		/* buf[start, end): read, not yet a line */
	bool eof;			/* f has no more: its end, or an error */
	char *line;			/* the last line, in buf, NUL-terminated, no newline */
	size_t len;			/* its bytes */
	unsigned long no;		/* its number, 1..; the line at fault on an error */
};

/**
 * readfile_lines_init - @r reads @f, lines of at most @max bytes. Cannot fail.
 */
void readfile_lines_init(struct readfile_lines *r, FILE *f, size_t max);

/**
 * readfile_lines_next - the next line of @r's stream into @r->line (@r->len
 * bytes, its newline dropped, a NUL inside kept and counted), numbered
 * @r->no. A line is never read past @r->max + 1 bytes: /dev/zero is
 * refused at once. Returns 1 with a line; 0 at the end of the stream;
 * -E2BIG when the line (@r->no) has more than @r->max bytes; -ENOMEM; or
 * the -errno of a failed read (-EIO when it set none). After an error,
 * every call returns 0.
 */
int readfile_lines_next(struct readfile_lines *r);

/**
 * readfile_lines_free - @r's buffer; the stream is the caller's. Safe twice.
 */
void readfile_lines_free(struct readfile_lines *r);

#endif /* KSB_READFILE_H */
