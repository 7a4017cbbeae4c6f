/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv.h - the kstats-bench CSV: "# kstats-bench-csv 2", "# key: value"
 * metadata lines, the column header, then one row per non-empty bucket:
 *
 *	workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile
 *	irqdesc-alloc,old,all,all,-1,49,10240,12288,2214,11493,0.729125
 *	irqdesc-alloc,old,3,all,-1,49,10240,12288,371,11480,0.731002
 *
 * run is a run number (1..R: the rows of that run) or "all" (merged over
 * the runs; "# runs: R" says how many); cpu is a CPU number or "all" (the
 * merge over CPUs, node -1); [lo_ns, hi_ns). Every (workload, variant,
 * run, cpu) is a histogram of its own, percentiles included.
 *
 * Format 1 (no run column, "# kstats-bench-csv 1") is still read: its
 * rows are one run, labelled "all".
 * Stateless; a csv_meta belongs to one thread.
 */
#ifndef KSB_CSV_H
#define KSB_CSV_H

#include <stdio.h>

struct kstats_hist;

#define CSV_MAX_META	64
/* the version on the first line, "# kstats-bench-csv N" */
enum csv_format {
	CSV_FORMAT_1 = 1,	/* before --runs: no run column, read as one run */
	CSV_FORMAT_2 = 2,	/* a run column after variant; what is written */
};
#define CSV_FORMAT	CSV_FORMAT_2
#define CSV_COLUMNS	"workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile"
#define CSV_COLUMNS_1	"workload,variant,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile"
#define CSV_RUN_ALL	0	/* run "all": merged over the runs */
#define CSV_MAX_RUNS	1000	/* bench run --runs at most */

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
 * csv_write_hist - the rows of @h, labelled @workload, @variant, @run
 * (CSV_RUN_ALL: "all") and @cpu (< 0: "all") on @node. 0 or -EIO.
 */
int csv_write_hist(FILE *f, const char *workload, const char *variant,
		   unsigned int run, int cpu, int node,
		   const struct kstats_hist *h);

/* ---- reading ---- */

struct csv_row;

/* one (workload, variant, cpu) histogram of a file */
struct csv_series {
	char workload[64];		/* e.g. irqdesc-alloc */
	char variant[32];		/* old, new, ... */
	unsigned int run;		/* run number, CSV_RUN_ALL for "all" */
	int cpu;			/* CPU number, -1 for "all" */
	int node;			/* its node, -1 for "all" */
	struct kstats_hist *h;		/* rebuilt: AVG * samples per bucket */
	struct csv_row *rows;		/* parse state: the rows, for checks */
	unsigned int nr_rows;		/* rows in use */
	unsigned int cap_rows;		/* rows allocated */
};

struct csv_file {
	struct csv_meta meta;		/* the "# key: value" lines */
	enum csv_format format;		/* from the first line */
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

/*
 * csv_find - the series (@workload, @variant, @run or CSV_RUN_ALL, @cpu
 * or -1), or NULL.
 */
struct csv_series *csv_find(const struct csv_file *cf, const char *workload,
			    const char *variant, unsigned int run, int cpu);

/*
 * csv_nr_runs - the runs of (@workload, @variant) in @cf: the number of
 * merged-over-CPUs series with a run number, or 1 when it has only the
 * "all" one (format 1, or a one-run file). 0 when the pair is absent.
 * csv_run_hist - the merged-over-CPUs histogram of run @i (0-based) of
 * those, or NULL.
 */
unsigned int csv_nr_runs(const struct csv_file *cf, const char *workload,
			 const char *variant);
const struct kstats_hist *csv_run_hist(const struct csv_file *cf,
				       const char *workload,
				       const char *variant, unsigned int i);

#endif /* KSB_CSV_H */
