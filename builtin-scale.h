/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin-scale.h - what builtin-scale.c and builtin-scale-audit.c
 * share: bench scale's audit of a battery's sweep. The report's
 * structure and its writers are lib/report/scalefmt.h's and
 * lib/report/auditfmt.h's.
 */
#ifndef KSB_BUILTIN_SCALE_H
#define KSB_BUILTIN_SCALE_H

#include <stdbool.h>

#include "lib/report/scalefmt.h"

struct auditfmt;

/**
 * scale_audit_fmt - the audit's report (lib/report/auditfmt.h) of @sf,
 * r->audit of its report with its settings, into @c: @c, what sf->audit
 * takes, or NULL when the report holds no audit.
 */
const struct auditfmt *scale_audit_fmt(const struct scalefmt *sf, struct auditfmt *c);

/**
 * scale_audit_compute - @r's series as one battery into r->audit
 * (lib/stats/audit.h), judged by @method (enum audit_method) at the
 * family's level @q, a slope up to @flat ns per CPU flat, a gated entry
 * whose side spreads past @spread (a fraction; 0: no such rule) not
 * repeatable: trace files' "time" series are the candidates, the plugin's
 * funcs files' series the functions each entry's growth is split into
 * (lib/stats/audit.h), every other series an entry. Returns 0, -ENOMEM,
 * -EINVAL, or EXIT_USAGE after one line.
 */
int scale_audit_compute(struct scale_report *r, int method, double q, double flat,
			double spread);

/**
 * scale_audit_func_row - is @row a kernel function of the plugin's
 * (a bench vm --plugin -funcs.csv series: workload the function,
 * variant the entry), which attributes entries and is none itself?
 */
bool scale_audit_func_row(const struct scale_report *r, const struct scale_row *row);

/**
 * scale_audit_files - a file of @r is bench audit's (audit_battery metadata).
 */
bool scale_audit_files(const struct scale_report *r);

/**
 * scale_audit_regression - the audit's gate found an entry that grew, or one not repeatable.
 */
bool scale_audit_regression(const struct scale_report *r);

/**
 * scale_audit_free - r->audit, NULL after.
 */
void scale_audit_free(struct scale_report *r);

#endif /* KSB_BUILTIN_SCALE_H */
