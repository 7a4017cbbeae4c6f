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

/* ---- reading ---- */

struct csv_row;

/* one (workload, variant, cpu) histogram of a file */
struct csv_series {
	char workload[64];		/* e.g. irqdesc-alloc */
	char variant[32];		/* old, new, ... */
	int cpu;			/* CPU number, -1 for "all" */
	int node;			/* its node, -1 for "all" */
	struct kstats_hist *h;		/* rebuilt: AVG * samples per bucket */
	struct csv_row *rows;		/* parse state: the rows, for checks */
	unsigned int nr_rows;		/* rows in use */
	unsigned int cap_rows;		/* rows allocated */
};

struct csv_file {
	struct csv_meta meta;		/* the "# key: value" lines */
	unsigned int frac_bits;		/* from "# frac_bits:", one per file */
	unsigned int n;			/* series */
	struct csv_series *s;		/* [n], in order of first row */
};

/*
 * csv_read - parse a whole kstats-bench CSV and rebuild its histograms.
 * Every row is checked: 10 columns, the bucket's [lo, hi) for the file's
 * frac_bits, avg inside the bucket, samples > 0, buckets ascending in a
 * series, and every percentile equal to its cumulative count / total.
 * Returns 0; or -EINVAL with *@line the line at fault (0: the file as a
 * whole) and *@why what is wrong; or -ENOMEM, or a read's -errno.
 * On error @cf holds nothing to free.
 */
int csv_read(FILE *f, struct csv_file *cf, unsigned long *line,
	     char *why, size_t why_len);

/* csv_file_free - release what csv_read() built; safe on a zeroed one. */
void csv_file_free(struct csv_file *cf);

/* csv_find - the series (@workload, @variant, @cpu or -1), or NULL. */
struct csv_series *csv_find(const struct csv_file *cf, const char *workload,
			    const char *variant, int cpu);

#endif /* KSB_CSV_H */
