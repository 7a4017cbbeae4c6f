/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history.h - a history of results for bench trend: its files, the runs
 * of every (workload, variant) read from them as compare takes them
 * (cmp_run_figures()), put in time order, scaled by the reference loop,
 * and, with a control, paired night by night.
 *
 *	struct hist h = { 0 };
 *
 *	hist_add_dir(&h, "nightly/");			every *.csv, by name
 *	for (i = 0; i < h.nf; i++) {
 *		bench_load_csv(h.f[i].path, &cf);	the caller reads the file
 *		hist_read(&h, i, cf, CMP_STAT_TM10, why, sizeof(why));
 *		results_free(cf);			only the figures are kept
 *	}
 *	hist_sort(&h);			timestamp order, when every file has one
 *	hist_decide_ref(&h, CMP_REF_AUTO, why, sizeof(why));
 *	for (k = 0; k < h.ns; k++)
 *		hist_figures(&h, &h.s[k]);	s->x: the figures to detect on
 *	hist_free(&h);
 *
 * With a control (a second history, read the same way, of a pinned
 * baseline measured beside the subject every night): hist_pair(&subject,
 * &control, ...) turns each subject series into one figure per night,
 * the ratio of the subject's median run to the control's, which a level
 * shift of the machine shared by both cancels out of; the subject's and
 * the control's own medians are kept beside it. Night i of the subject
 * is night i of the control, each side in its own order (timestamp order
 * when every file of the side has one, else the order given).
 *
 * Nothing here prints; errors are -errno with one line in @why where
 * there is a file or run to name. One history per thread.
 */
#ifndef KSB_HISTORY_H
#define KSB_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "lib/report/compare.h"
#include "lib/report/results.h"
#include "lib/report/trend.h"

/* two files of one night, subject and control, taken at most this far apart */
#define HIST_PAIR_SKEW	(12 * 3600)

/* one file of the history */
struct hist_file {
	char *path;			/* as given, or DIR/NAME; owned */
	char stamp[32];			/* its timestamp metadata, "" when none */
	time_t t;			/* the timestamp, parsed */
	unsigned int given;		/* its place in the order given */
	char **label;			/* [nr_labels] "KEY=VALUE" of its label_KEY metadata */
	unsigned int nr_labels;		/* (bench run --label: commit, branch, build) */
	bool partial;			/* "partial: yes": interrupted */
	double possible;		/* its possible_cpus metadata, 0 when none */
};

/* one run of a series (with a control: one night) */
struct hist_run {
	unsigned int file;		/* index in the files, in time order once sorted */
	unsigned int run;		/* its number in that file, 1-based (paired: runs) */
	double x;			/* the figure (the stat asked for) */
	double ref;			/* the reference loop's tm10, 0: none */
};

/* one (workload, variant) over the whole history */
struct hist_series {
	char workload[64];		/* e.g. irqdesc-alloc */
	char variant[32];		/* old, new */
	struct hist_run *r;		/* [n] its runs, in time order once sorted */
	unsigned int n, cap;		/* in use, allocated */
	double *x;			/* [n] figures in time order, scaled when decided */
	double share;			/* reference: cmp_ref_share_groups(), 0 raw */
	double ref_at;			/* reference: the median reference, scaled to */
	double *subject;		/* paired: [n] the subject's median run per night */
	double *control;		/* paired: [n] the control's, NULL unpaired */
	struct trend_cp *cp;		/* [nr_cp] change points, in order (the caller's) */
	unsigned int nr_cp;		/* how many */
};

struct hist {
	struct hist_file *f;		/* [nf] the files */
	unsigned int nf, capf;		/* in use, allocated */
	struct hist_series *s;		/* [ns] the series, in order of first appearance */
	unsigned int ns, caps;		/* in use, allocated */
	char unit[16];			/* ns or cycles, the same in every file */
	unsigned int frac_bits;		/* the same in every file */
	bool by_time;			/* every file has a timestamp: sorted by it */
	bool scaled;			/* figures scaled by the reference: decided */
	bool paired;			/* hist_pair(): one figure per night, a ratio */
	bool slope;			/* hist_slope(): one figure per night, ns per CPU */
};

/*
 * hist_add_file - append the file @name (under @dir when not NULL) to
 * @h, in the order given. Returns 0 or -ENOMEM.
 */
int hist_add_file(struct hist *h, const char *dir, const char *name);

/*
 * hist_add_dir - append every *.csv of @dir that is not hidden (temp
 * files start with a dot), by name. Returns 0, -ENODATA when there is
 * none, -ENOMEM, or scandir()'s -errno.
 */
int hist_add_dir(struct hist *h, const char *dir);

/*
 * hist_add_nights - for a @dir without *.csv of its own: the *.csv of
 * each of its subdirectories that is not hidden (a night of a sweep, as
 * bench vm -p A,B,... -o DIR/NIGHT writes it), subdirectories and files
 * by name. Returns 0, -ENODATA when no subdirectory has one, -ENOMEM, or
 * scandir()'s -errno.
 */
int hist_add_nights(struct hist *h, const char *dir);

/*
 * hist_read - take file @fi's runs from @cf, its contents: every run's
 * figure @stat of every (workload, variant), its timestamp, labels and
 * partial flag; the unit and frac_bits must be the first file's. @cf can
 * be freed afterwards. Returns 0, -ENOMEM, or -EINVAL with one line in
 * @why (units differ, a bad timestamp, a run whose figure is 0).
 */
int hist_read(struct hist *h, unsigned int fi, const struct results *cf, enum cmp_stat stat,
	      char *why, size_t len);

/*
 * hist_sort - time order when every file has a timestamp (equal ones
 * keep the order given; h->by_time), else the order given; each
 * series' runs follow their files. Returns 0 or -ENOMEM.
 */
int hist_sort(struct hist *h);

/* hist_missing_stamps - the files of @h without a timestamp. */
unsigned int hist_missing_stamps(const struct hist *h);

/*
 * hist_decide_ref - h->scaled: @ref on or auto and every run of every
 * series has a reference figure. Returns 0, or (@ref on) -EINVAL naming
 * the first run without one in @why.
 */
int hist_decide_ref(struct hist *h, enum cmp_ref ref, char *why, size_t len);

/*
 * hist_figures - @s->x, the figures to detect change points on: each
 * run's, at the median reference speed by the series' share of the
 * reference's movement fitted within each file when h->scaled (a change
 * between nightlies does not enter the fit). Returns 0 or -ENOMEM.
 */
int hist_figures(const struct hist *h, struct hist_series *s);

/*
 * hist_pair - with @ctl, the control's history (sorted, its figures
 * made), turn every series of @h (likewise) into one figure per night:
 * the subject's median run of night i over the control's, night i being
 * the i-th file of each side; s->subject and s->control keep the two
 * medians. Returns 0, -ENOMEM, or -EINVAL with one line in @why (a
 * different number of files, a night whose files are more than
 * HIST_PAIR_SKEW apart, a series or night the control lacks).
 */
int hist_pair(struct hist *h, const struct hist *ctl, char *why, size_t len);

/*
 * hist_slope - turn every series of @h (sorted, its figures made) into
 * one figure per night, a night being the files of one directory (a
 * bench vm -p sweep's output, or one bench scale input): the Theil-Sen
 * slope (lib/report/scale.h) of its runs' figures against their files'
 * possible_cpus. The files become the nights, in the order of each
 * night's first file: the directory as path, its first file's timestamp
 * and labels; a run's number is the night's runs. Call before
 * hist_pair(): a control's slopes pair as figures do. Returns 0,
 * -ENOMEM, or -EINVAL with one line in @why (a file without
 * possible_cpus, a night whose runs are at one count, a slope not
 * above 0, more than SCALE_MAX_POINTS runs in a night).
 */
int hist_slope(struct hist *h, char *why, size_t len);

/*
 * hist_median - the median of @v[lo, hi) and its 95% spread (a fraction
 * of it, cmp_median_spread()); 0 out of memory.
 */
double hist_median(const double *v, unsigned int lo, unsigned int hi, double *spread);

/* hist_free - everything @h holds; @h can be reused zeroed. */
void hist_free(struct hist *h);

#endif /* KSB_HISTORY_H */
