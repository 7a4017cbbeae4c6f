/* SPDX-License-Identifier: GPL-2.0 */
/*
 * writer.h - the one report writer type of every command, as perf's
 * stat-display is one module for every format and hyperfine's Exporter
 * one trait: a command's formats are a table of struct report_writer,
 * one row per format, each a name, its --help line and a function that
 * writes the whole report of the command's model on a FILE. The models:
 *
 *	table			model			the writers' header
 *	formats[]		struct results		lib/report/format.h
 *	cmpfmt_writers[]	struct cmpfmt		lib/report/cmpfmt.h
 *	trendfmt_writers[]	struct trendfmt		lib/report/trendfmt.h
 *	scalefmt_writers[]	struct scalefmt		lib/report/scalefmt.h
 *	auditfmt_writers[]	struct auditfmt		lib/report/auditfmt.h
 *
 * A table is picked from with -f (OPT_FORMAT, lib/subcmd/options.h) and
 * --also FMT=FILE (lib/subcmd/outset.h), which both hold an index of
 * the table; report_emit() writes the -f report and every --also one.
 *
 *	static int my_table(FILE *f, const void *model)
 *	{
 *		const struct cmpfmt *c = model;
 *		...
 *		return fflush(f) || ferror(f) ? -EIO : 0;
 *	}
 *	const struct report_writer my_writers[] = {
 *		{ "table", "one line per series (default)", my_table },
 *		{ "json", "one JSON document", my_json, REPORT_JSON },
 *		{ NULL },
 *	};
 *
 * A writer prints only to the FILE it is given and returns 0, -EIO when
 * a write failed, or -ENOMEM; it reads its model and nothing else, so
 * that any thread may write any report on its own FILE.
 */
#ifndef KSB_WRITER_H
#define KSB_WRITER_H

#include <stdio.h>

/* report_writer.flags */
#define REPORT_JSON	0x1	/* one JSON document: nothing else may share its stream */
#define REPORT_TESTBED	0x2	/* the report lists the testbed keys that differ itself */
#define REPORT_AUDIT	0x4	/* an audit's alone: its model must hold one (scale's kcidb) */

struct report_writer {
	const char *name;		/* -f NAME, --also NAME=FILE; NULL ends a table */
	const char *help;		/* one line for --help, at most 40 columns */
	/* the whole report of @model on @f: 0, -EIO when a write failed, -ENOMEM */
	int (*write)(FILE *f, const void *model);
	unsigned int flags;		/* REPORT_* */
};

/**
 * report_find - the row of table @t named @name, or NULL.
 */
const struct report_writer *report_find(const struct report_writer *t, const char *name);

/**
 * report_status - what a writer returns once it has written @f: 0, or
 * -EIO when flushing @f failed or an earlier write did.
 */
int report_status(FILE *f);

#endif /* KSB_WRITER_H */
