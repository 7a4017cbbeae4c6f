/* SPDX-License-Identifier: GPL-2.0 */
/*
 * auditfmt.h - the ranked report of an audit (lib/stats/audit.h) in
 * table, csv, json, markdown and kcidb, one writer per format over one
 * structure, picked from one table, auditfmt_writers[]: every entry
 * ranked by its cost at AUDIT_AT possible CPUs, with its slope and
 * interval at the adjusted level, its verdict for the battery, the
 * function that carries its growth, and with two sides the gate of B
 * against A. bench scale writes them when its report holds an audit
 * (lib/report/scalefmt.h picks the row of the same name here).
 *
 *	struct auditfmt c = { .a = &a, .group = { "d612" }, .unit = "ns",
 *			      .stat = "min", .meta = &first_file->meta };
 *
 *	report_find(auditfmt_writers, "table")->write(stdout, &c);
 *
 * Each writer writes only to the FILE it is given and returns 0, -EIO
 * when a write failed, or -EINVAL when the JSON's nesting broke.
 */
#ifndef KSB_AUDITFMT_H
#define KSB_AUDITFMT_H

#include <stdio.h>

#include "lib/stats/audit.h"
#include "lib/subcmd/writer.h"

struct meta;

/* what the writers print about the audit besides its entries */
struct auditfmt {
	const struct audit *a;		/* after audit_run() */
	const char *group[2];		/* the sides' names */
	const char *unit;		/* "ns" or "cycles" */
	const char *stat;		/* the per-run figure, "min", "tm10" */
	double threshold;		/* the gate's, as given */
	bool threshold_pct;		/* a percent of A's slope */
	const struct meta *meta;	/* the last side's first file, for kcidb */
	const char *origin;		/* kcidb's, NULL: KCIDB_ORIGIN */
	const char *skipped;		/* the battery's skipped entries and why, or NULL */
	unsigned int nr_cands;		/* candidate functions timed */
};

/*
 * auditfmt_writers - the table (lib/subcmd/writer.h), each writer's
 * model a const struct auditfmt: table, csv, json, markdown, kcidb,
 * ended by a NULL name
 */
extern const struct report_writer auditfmt_writers[];

/**
 * auditfmt_method - @m in words with why: "Benjamini-Hochberg (false
 * discovery rate)", "Holm (family-wise error)", "none (per entry)".
 */
const char *auditfmt_method(enum audit_method m);

#endif /* KSB_AUDITFMT_H */
