// SPDX-License-Identifier: GPL-2.0
/*
 * readfile.c - the first line of a small system file (see readfile.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/report/readfile.h"

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
