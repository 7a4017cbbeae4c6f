/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin-scale.h - what builtin-scale.c and builtin-scale-audit.c
 * share: bench scale's audit of a battery's sweep. The report's
 * structure and scale's own writers are lib/report/scalefmt.h's.
 */
#ifndef KSB_BUILTIN_SCALE_H
#define KSB_BUILTIN_SCALE_H

#include <stdbool.h>

#include "lib/report/scalefmt.h"
#include "lib/report/writer.h"

/*
 * scale_audit_writers - an audit's writers, row for row
 * scalefmt_writers[] (its format index picks one here), each model a
 * const struct scalefmt whose report holds r->audit: the ranked table,
 * csv, json, markdown and kcidb of the battery; points and sweep are
 * scale's own.
 */
extern const struct report_writer scale_audit_writers[];

/*
 * scale_audit_compute - @r's series as one battery into r->audit
 * (lib/report/audit.h), judged by @method (enum audit_method) at the
 * family's level @q, a slope up to @flat ns per CPU flat: trace files'
 * "time" series are the candidates, every other series an entry.
 * Returns 0, -ENOMEM, -EINVAL, or EXIT_USAGE after one line.
 */
int scale_audit_compute(struct scale_report *r, int method, double q, double flat);

/* scale_audit_files - a file of @r is bench audit's (audit_battery metadata). */
bool scale_audit_files(const struct scale_report *r);

/* scale_audit_regression - the audit's gate found an entry that grew. */
bool scale_audit_regression(const struct scale_report *r);

/* scale_audit_free - r->audit, NULL after. */
void scale_audit_free(struct scale_report *r);

#endif /* KSB_BUILTIN_SCALE_H */
