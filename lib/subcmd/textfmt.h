/* SPDX-License-Identifier: GPL-2.0 */
/*
 * textfmt.h - the text escaping every report shares: one markdown table
 * cell escaper and one RFC 4180 CSV field quoter, so that bench compare's
 * and bench trend's reports (lib/report/cmpfmt.c, lib/report/trendfmt.c) escape a name
 * the same way.
 *
 *	tf_md_cell(f, "a|b_c");		a\|b\_c
 *	tf_csv_field(f, "x, \"y\"");	"x, ""y"""
 *
 * Pure: any thread, on its own FILE.
 */
#ifndef KSB_TEXTFMT_H
#define KSB_TEXTFMT_H

#include <stdio.h>

/**
 * tf_md_cell - @s as the text of a GitHub-flavoured markdown table cell:
 * a backslash before each ASCII punctuation character GFM could read as
 * markup (\ | * _ ~ ` < [ ]), a newline as a space (a cell is one line).
 */
void tf_md_cell(FILE *f, const char *s);

/**
 * tf_csv_field - @s as one RFC 4180 field: as it is, or in double quotes
 * with each quote doubled when it holds a comma, a quote, CR or LF.
 */
void tf_csv_field(FILE *f, const char *s);

#endif /* KSB_TEXTFMT_H */
