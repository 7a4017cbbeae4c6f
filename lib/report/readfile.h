/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readfile.h - the first line of a small system file (/proc, /sys), for
 * metadata and for the messages that name why the system refused.
 * Stateless: any thread.
 */
#ifndef KSB_READFILE_H
#define KSB_READFILE_H

#include <stddef.h>

/*
 * readfile_line - the first line of @path without its newline into @buf
 * (@len bytes, cut there). Returns 0, or -errno when @path cannot be
 * opened or is empty (-ENODATA); @buf is "" then.
 */
int readfile_line(const char *path, char *buf, size_t len);

#endif /* KSB_READFILE_H */
