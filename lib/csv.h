/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv.h - the kstats-bench CSV: "# kstats-bench-csv 1", "# key: value"
 * metadata lines, the column header, then one row per non-empty bucket:
 *
 *	workload,variant,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile
 *	irqdesc-alloc,old,all,-1,49,10240,12288,2214,11493,0.729125
 *
 * cpu is a CPU number or "all" (the merge, node -1); [lo_ns, hi_ns).
 * Stateless; a csv_meta belongs to one thread.
 */
#ifndef KSB_CSV_H
#define KSB_CSV_H

#include <stdio.h>

struct kstats_hist;

#define CSV_MAX_META	64
#define CSV_COLUMNS	"workload,variant,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile"

struct csv_meta {
	unsigned int n;			/* pairs in use */
	struct {
		char key[32];		/* [a-z0-9_]+ */
		char val[1024];		/* one line */
	} kv[CSV_MAX_META];
};

/*
 * csv_meta_set - add key: value (printf-style); newlines in the value
 * become spaces. A full table drops the pair. Returns 0 or -ENOSPC.
 */
int csv_meta_set(struct csv_meta *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* csv_meta_get - the value of @key, or NULL. */
const char *csv_meta_get(const struct csv_meta *m, const char *key);

/* csv_write_header - magic line, metadata, columns. 0 or -EIO. */
int csv_write_header(FILE *f, const struct csv_meta *m);

/*
 * csv_write_hist - the rows of @h, labelled @workload, @variant and
 * @cpu (< 0: "all") on @node. 0 or -EIO.
 */
int csv_write_hist(FILE *f, const char *workload, const char *variant,
		   int cpu, int node, const struct kstats_hist *h);

#endif /* KSB_CSV_H */
