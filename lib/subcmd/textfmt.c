// SPDX-License-Identifier: GPL-2.0
/*
 * textfmt.c - markdown cells and CSV fields for every report (textfmt.h).
 */
#include <string.h>

#include "lib/subcmd/textfmt.h"

void tf_md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\|*_~`<[]", *s))
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

void tf_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
