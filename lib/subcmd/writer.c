// SPDX-License-Identifier: GPL-2.0
/*
 * writer.c - what every table of report writers shares (writer.h).
 */
#include <errno.h>
#include <string.h>

#include "lib/subcmd/writer.h"

const struct report_writer *report_find(const struct report_writer *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

int report_status(FILE *f)
{
	return fflush(f) || ferror(f) ? -EIO : 0;
}
