// SPDX-License-Identifier: GPL-2.0
/*
 * bisectfmt.c - the report of a kernel bisect (bisectfmt.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/report/bisectfmt.h"

/* the row's "WORKLOAD.VARIANT" and "+29.6%": "." and "+0.0%" without one */
static void bf_series(const struct bisectfmt *b, char *name, size_t nlen, char *ch, size_t clen)
{
	const struct bisectfmt_row *r = b->row;

	snprintf(name, nlen, "%s.%s", r ? r->workload : "", r ? r->variant : "");
	snprintf(ch, clen, "%+.1f%%", r ? r->change_pct : 0.0);
}

/* the subsystem: @subject up to its first ':', else "unknown" */
static void bf_subsystem(const char *subject, char *buf, size_t len)
{
	const char *colon = strchr(subject, ':');

	if (colon)
		snprintf(buf, len, "%.*s", (int)(colon - subject), subject);
	else
		snprintf(buf, len, "unknown");
}

/* the subject, the commit and the testbed */
static void bf_head(FILE *f, const struct bisectfmt *b)
{
	const char *s = b->first.subject;
	char name[160], ch[32], sys[256];

	bf_series(b, name, sizeof(name), ch, sizeof(ch));
	bf_subsystem(s, sys, sizeof(sys));
	fprintf(f, "Subject: [%s] [%s] %s: %s %s regression\n\n", b->repo, sys, b->first.abbrev,
		name, ch);
	fprintf(f, "kstats-bench noticed a %s regression of %s on:\n\n", ch, name);
	fprintf(f, "commit: %s (\"%s\")\n\n", b->first.sha, s);
	fprintf(f, "testbed: bench vm on %s (%s), %lu boots a kernel at %lu possible CPUs, %lu CPUs\n",
		b->host, b->cpu_model ? b->cpu_model : "unknown CPU", (unsigned long)b->boots,
		(unsigned long)b->possible_cpus, (unsigned long)b->cpus);
	fprintf(f, "parameters:\n\n");
	fprintf(f, "\tcommand: bench %s\n", b->command);
	fprintf(f, "\tboots: %lu\n", (unsigned long)b->boots);
	fprintf(f, "\tpossible_cpus: %lu\n", (unsigned long)b->possible_cpus);
	fprintf(f, "\tcpus: %lu\n", (unsigned long)b->cpus);
	fprintf(f, "\tthreshold: %s\n\n", b->threshold ? b->threshold : "?");
}

/* the commands that reproduce the verdict, as the step ran them */
static void bf_reproduce(FILE *f, const struct bisectfmt *b)
{
	fprintf(f, "To reproduce, in %s (the good kernel as bench bisect keeps it):\n\n", b->tree);
	fprintf(f, "\tgit checkout %s\n", b->first.sha);
	fprintf(f, "\tmake olddefconfig && make bzImage modules\n");
	fprintf(f, "\tbench vm %s -o . --module %s/good/kstats_bench.ko good-%s=%s/good/bzImage %s=. -- %s\n",
		b->vm_options, b->dir, b->rev, b->dir, b->rev, b->command);
	fprintf(f, "\tbench compare %s%sgood-%s.csv -- %s.csv\n\n", b->compare_options,
		*b->compare_options ? " " : "", b->rev, b->rev);
}

/* the two commits, and 0-day's table with them heading its columns */
static void bf_table(FILE *f, const struct bisectfmt *b)
{
	const char *rows = b->lkp ? strchr(b->lkp, '\n') : NULL;
	size_t n = rows ? strlen(rows + 1) : 0;

	fprintf(f, "commit: \n  %s (\"%s\")\n  %s (\"%s\")\n\n", b->good.abbrev, b->good.subject,
		b->first.abbrev, b->first.subject);
	fprintf(f, "%-16.16s %-27.27s \n", b->good.sha, b->first.sha);
	/* the table less its own header line (the sides' labels), one newline at its end */
	while (n && rows[n] == '\n')
		n--;
	if (n)
		fprintf(f, "%.*s\n", (int)n, rows + 1);
	fprintf(f, "\n#regzbot introduced: %s\n\n", b->first.abbrev);
}

/* the lines that close it: the commit, what condemned it, BISECT */
static void bf_close(FILE *f, const struct bisectfmt *b)
{
	const struct bisectfmt_row *r = b->row;

	fprintf(f, "first bad commit: %s %s\n", b->rev, b->first.subject);
	if (!r)
		fprintf(f, "condemned by: (its compare: %s/%s.compare.txt)\n", b->dir, b->rev);
	else if (b->exact)
		fprintf(f, "condemned by: %s.%s.%s %+.2f%% regression, exact, n=%u+%u\n",
			r->workload, r->variant, r->stat, r->change_pct, r->n_before, r->n_after);
	else
		fprintf(f, "condemned by: %s.%s.%s %+.1f%% regression, p=%s, n=%u+%u\n",
			r->workload, r->variant, r->stat, r->change_pct, r->p, r->n_before,
			r->n_after);
	fprintf(f, "BISECT first_bad=%s steps=%u boots=%lu possible=%lu seconds=%ld results=%s\n",
		b->first.sha, b->steps, (unsigned long)b->boots, (unsigned long)b->possible_cpus,
		b->seconds, b->dir);
}

static int bf_text(FILE *f, const struct bisectfmt *b)
{
	bf_head(f, b);
	bf_reproduce(f, b);
	bf_table(f, b);
	bf_close(f, b);
	return report_status(f);
}

#define BISECTFMT_ROWS(X, M) \
	X(M, "text", "the 0-day report and the verdict's lines", bf_text, 0)
REPORT_TABLE(bisectfmt_writers, struct bisectfmt, BISECTFMT_ROWS);
