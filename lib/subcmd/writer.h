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
 *	bisectfmt_writers[]	struct bisectfmt	lib/report/bisectfmt.h
 *
 * A table is picked from with -f (OPT_FORMAT, lib/subcmd/options.h) and
 * --also FMT=FILE (lib/subcmd/outset.h), which both hold an index of
 * the table; report_emit() writes the -f report and every --also one.
 *
 * A writer takes its model typed, and REPORT_TABLE() builds the table
 * from an X-macro of rows, so that a writer of another model fails the
 * build instead of reading the wrong struct:
 *
 *	static int my_table(FILE *f, const struct cmpfmt *c)
 *	{
 *		...
 *		return report_status(f);
 *	}
 *	#define MY_ROWS(X, M)						\
 *		X(M, "table", "one line per series (default)", my_table, 0) \
 *		X(M, "json", "one JSON document", my_json, REPORT_JSON)
 *	REPORT_TABLE(my_writers, struct cmpfmt, MY_ROWS);
 *
 * A writer prints only to the FILE it is given and returns 0, -EIO when
 * a write failed, or -ENOMEM; it reads its model and nothing else, so
 * that any thread may write any report on its own FILE.
 */
#ifndef KSB_WRITER_H
#define KSB_WRITER_H

#include <stdio.h>

/* report_writer.flags */
#define REPORT_JSON	0x1	/* the report is JSON (the tests parse it) */
#define REPORT_TESTBED	0x2	/* the report lists the testbed keys that differ itself */
#define REPORT_AUDIT	0x4	/* an audit's alone: its model must hold one (scale's kcidb) */
/*
 * one document: two reports on one stream are not one report of the
 * format (csv, json), where two of a stream format's are (kcidb, the
 * tables); bench vm, which writes a report per command, refuses those
 */
#define REPORT_ONE_DOC	0x8

struct report_writer {
	const char *name;		/* -f NAME, --also NAME=FILE; NULL ends a table */
	const char *help;		/* one line for --help, at most 40 columns */
	/* the whole report of @model on @f: 0, -EIO when a write failed, -ENOMEM */
	int (*write)(FILE *f, const void *model);
	unsigned int flags;		/* REPORT_* */
};

/* REPORT_TABLE()'s pieces: a row's const void * thunk, and its row */
#define REPORT_THUNK_(model, name, help, fn, flags)			\
	_Static_assert(__builtin_types_compatible_p(typeof(fn),		\
			int (FILE *, const model *)),			\
		       #fn " is not a writer of " #model);		\
	static int fn##_write_(FILE *f, const void *m)			\
	{								\
		const model *p = m;					\
									\
		return fn(f, p);					\
	}
#define REPORT_ROW_(model, name, help, fn, flags) { name, help, fn##_write_, flags },

/**
 * REPORT_TABLE - define const struct report_writer @table[], ended by a
 * NULL row, from @ROWS, an X-macro whose every row is X(@model, name,
 * help, fn, flags) with fn an int fn(FILE *, const @model *), or the
 * build stops at a static assertion that names fn and @model. Each row
 * gets a thunk that hands fn its model typed.
 */
#define REPORT_TABLE(table, model, ROWS)				\
	ROWS(REPORT_THUNK_, model)					\
	const struct report_writer table[] = {				\
		ROWS(REPORT_ROW_, model)				\
		{ NULL, NULL, NULL, 0 },				\
	}

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
