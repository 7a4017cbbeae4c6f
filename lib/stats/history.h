/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history.h - a history of results for bench trend: its files, the runs
 * of every (workload, variant) read from them as compare takes them
 * (cmp_run_figures()), put in time order, scaled by the reference loop,
 * and, with a control, paired night by night.
 *
 *	struct history h = { 0 };
 *
 *	history_add_dir(&h, "nightly/", why, len);		every *.csv, by name
 *	for (i = 0; i < h.nf; i++) {
 *		bench_load_file(&fs, h.f[i].path, 0, &cf);	the caller reads it,
 *							fileset's rules checking it
 *		history_read(&h, i, cf, CMP_STAT_TM10, why, sizeof(why));
 *		results_free(cf);			only the figures are kept
 *	}
 *	history_sort(&h);			timestamp order, when every file has one
 *	history_decide_ref(&h, CMP_REF_AUTO, why, sizeof(why));
 *	for (k = 0; k < h.ns; k++)
 *		history_figures(&h, &h.s[k]);	s->x: the figures to detect on
 *	history_free(&h);
 *
 * With a control (a second history, read the same way, of a pinned
 * baseline measured beside the subject every night): history_pair(&subject,
 * &control, ...) turns each subject series into one figure per night,
 * the subject's runs' pseudo-median over the control's (the median of
 * every pair's mean, Hodges-Lehmann's one-sample estimate: from 3
 * runs about the mean's noise, not the median's, and a run 20% high
 * moves it 5% where it moves the mean 6.7%); history_fit_detect() then
 * takes the control only as far as the two move together: regression
 * adjustment (CUPED: Deng, Xu, Kohavi and Walker, WSDM 2013) by theta,
 * the Theil-Sen slope of the subject's log nightly median on the
 * control's within the segments between change points, bounded to
 * [0, 1] (history_theta()). A level shift of the machine shared by both (theta
 * near 1) cancels out; a control that only adds its own noise (theta
 * near 0) is left out. The subject's and the control's own medians are
 * kept beside it. Night i of the subject is night i of the control, each
 * side in its own order (timestamp order when every file of the side has
 * one, else the order given).
 *
 * Nothing here prints; errors are -errno with one line in @why where
 * there is a file or run to name. One history per thread.
 */
#ifndef KSB_HISTORY_H
#define KSB_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "lib/results/busy.h"
#include "lib/stats/compare.h"
#include "lib/results/results.h"
#include "lib/stats/trend.h"

/* two files of one night, subject and control, taken at most this far apart */
#define HISTORY_PAIR_SKEW	(12 * 3600)

/* one file of the history */
struct history_file {
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
struct history_run {
	unsigned int file;		/* index in the files, in time order once sorted */
	unsigned int run;		/* its number in that file, 1-based (paired: runs) */
	double x;			/* the figure (the stat asked for) */
	double ref;			/* the reference loop's tm10, 0: none */
};

/* one (workload, variant) over the whole history */
struct history_series {
	char workload[64];		/* e.g. irqdesc-alloc */
	char variant[32];		/* old, new */
	struct history_run *r;		/* [n] its runs, in time order once sorted */
	unsigned int n, cap;		/* in use, allocated */
	double *x;			/* [n] figures in time order, scaled when decided */
	double share;			/* reference: cmp_ref_share_groups(), 0 raw */
	double ref_at;			/* reference: the median reference, scaled to */
	double *subject;		/* paired: [n] the subject's pseudo-median per night */
	double *control;		/* paired: [n] the control's, NULL unpaired */
	double theta;			/* paired: the control's coefficient, [0, 1] */
	struct trend_cp *cp;		/* [nr_cp] change points, in order (the caller's) */
	unsigned int nr_cp;		/* how many */
};

struct history {
	struct history_file *f;		/* [nf] the files */
	unsigned int nf, capf;		/* in use, allocated */
	struct history_series *s;		/* [ns] the series, in order of first appearance */
	unsigned int ns, caps;		/* in use, allocated */
	char unit[16];			/* ns or cycles, the same in every file */
	unsigned int frac_bits;		/* the same in every file */
	bool by_time;			/* every file has a timestamp: sorted by it */
	bool scaled;			/* figures scaled by the reference: decided */
	bool paired;			/* history_pair(): one figure per night, a ratio */
	bool slope;			/* history_slope(): one figure per night, ns per CPU */
	struct busy_count busy;		/* the files' runs the host disturbed (busy.h) */
};

/**
 * history_add_file - append the file @name (under @dir when not NULL) to
 * @h, in the order given. Returns 0 or -ENOMEM.
 */
int history_add_file(struct history *h, const char *dir, const char *name);

/**
 * history_add_dir - append every *.csv of @dir that is not hidden (temp
 * files start with a dot), by name, each a regular file
 * (lib/subcmd/dirscan.h). Returns 0; -ENODATA when there is none;
 * -EINVAL for one that is not a regular file (a FIFO would block the
 * reader); -ENOMEM; or the -errno of reading @dir: each but -ENOMEM with
 * one line in @why naming the directory or the file.
 */
int history_add_dir(struct history *h, const char *dir, char *why, size_t len);

/**
 * history_add_nights - for a @dir without *.csv of its own: the *.csv of
 * each of its subdirectories that is not hidden (a night of a sweep, as
 * bench vm -p A,B,... -o DIR/NIGHT writes it), subdirectories and files
 * by name. Returns as history_add_dir(), -ENODATA when no subdirectory has
 * one.
 */
int history_add_nights(struct history *h, const char *dir, char *why, size_t len);

/**
 * history_read - take file @fi's runs from @cf, its contents: every run's
 * figure @stat of every (workload, variant), its timestamp, labels and
 * partial flag. @cf was read through one fileset with the history's
 * other files (lib/results/fileset.h), whose rules hold its unit and
 * frac_bits to the first file's; the first file's are h->unit and
 * h->frac_bits. @cf can be freed afterwards. Returns 0, -ENOMEM, or
 * -EINVAL with one line in @why (a bad timestamp, a run whose figure is 0).
 */
int history_read(struct history *h, unsigned int fi, const struct results *cf, enum cmp_stat stat,
	      char *why, size_t len);

/**
 * history_sort - time order when every file has a timestamp (equal ones
 * keep the order given; h->by_time), else the order given; each
 * series' runs follow their files. Returns 0 or -ENOMEM.
 */
int history_sort(struct history *h);

/**
 * history_missing_stamps - the files of @h without a timestamp.
 */
unsigned int history_missing_stamps(const struct history *h);

/**
 * history_decide_ref - h->scaled: @ref on or auto and every run of every
 * series has a reference figure. Returns 0, or (@ref on) -EINVAL naming
 * the first run without one in @why.
 */
int history_decide_ref(struct history *h, enum cmp_ref ref, char *why, size_t len);

/**
 * history_figures - @s->x, the figures to detect change points on: each
 * run's, at the median reference speed by the series' share of the
 * reference's movement fitted within each file when h->scaled (a change
 * between nightlies does not enter the fit). Returns 0 or -ENOMEM.
 */
int history_figures(const struct history *h, struct history_series *s);

/* history_theta() fits the last this many nights at most (C(1024, 2) slopes, 4 MB) */
#define HISTORY_THETA_NIGHTS	1024
/* history_fit_detect(): fits of theta at most after the first detection */
#define HISTORY_FIT_PASSES		4

/**
 * history_theta - the coefficient of the control: the median slope of log
 * @sub on log @con over every pair of nights (@n nights, each > 0; the
 * last HISTORY_THETA_NIGHTS when more) that no change point of @cp (@nr_cp,
 * in order) separates, bounded to [0, 1], into *@theta; 0 when no pair
 * differs in @con. Returns 0 or -ENOMEM.
 *
 * Why the median of pairwise slopes (Theil-Sen): a night that met a
 * co-tenant on one side only is an outlier, and the median stands until
 * about 29% of the nights are such (its breakdown point); least squares
 * moves without bound. Why not across a change point: a step of the
 * subject alone gives the pairs across it the slope 1 + step / dx, and
 * when the machine's level after the step happens to differ from before
 * (dx of one sign) those pairs pull theta away from its value (a +10%
 * step at night 25 of a synthetic history with shared shifts: 0.64 over
 * every pair, 1 within the segments). Why [0, 1]: 1 is the plain ratio,
 * the whole of a shift shared by both; past it the figure moves against
 * the control, and below 0 the two would move apart, which a shared
 * machine does not do.
 */
int history_theta(const double *sub, const double *con, unsigned int n, const struct trend_cp *cp,
	       unsigned int nr_cp, double *theta);

/**
 * history_fit_detect - a paired series' theta and change points (into
 * s->theta, s->x, s->cp and s->nr_cp; free s->cp): the change points of
 * the plain ratio (theta 1) first, then theta fitted within their
 * segments and the change points of that adjusted figure, again until
 * theta holds, at most HISTORY_FIT_PASSES fits. The ratio first: where the
 * machine shifts, it is the figure that places the subject's step, and
 * where it holds still the pairs across a step that the ratio missed do
 * not bias theta (the control has no level of its own to differ by).
 * Returns 0, or trend_detect()'s -EINVAL or -ENOMEM.
 */
int history_fit_detect(struct history_series *s, const struct trend_cfg *cfg);

/**
 * history_pair - with @ctl, the control's history (sorted, its figures
 * made), turn every series of @h (likewise) into one figure per night,
 * night i being the i-th file of each side: sub_i / (con_i^theta
 * g^(1 - theta)), sub_i and con_i the two sides' runs' pseudo-medians, g the
 * geometric mean of con, s->theta 1 (history_fit_detect() fits it); in
 * logs, the subject's y_i - theta (x_i - mean x), over the control's
 * typical level, so theta 1 is the ratio sub_i / con_i. s->subject and
 * s->control keep the two medians. The two sides measure in one unit:
 * the caller's filesets hold them to it (fileset_check_unit(),
 * lib/results/fileset.h). Returns 0, -ENOMEM, or -EINVAL with one line in
 * @why (a different number of files, a night whose files are more than
 * HISTORY_PAIR_SKEW apart, a series or night the control lacks).
 */
int history_pair(struct history *h, const struct history *ctl, char *why, size_t len);

/**
 * history_slope - turn every series of @h (sorted, its figures made) into
 * one figure per night, a night being the files of one directory (a
 * bench vm -p sweep's output, or one bench scale input): the Theil-Sen
 * slope (lib/stats/scale.h) of its runs' figures against their files'
 * possible_cpus. The files become the nights, in the order of each
 * night's first file: the directory as path, its first file's timestamp
 * and labels; a run's number is the night's runs. Call before
 * history_pair(): a control's slopes pair as figures do. Returns 0,
 * -ENOMEM, or -EINVAL with one line in @why (a file without
 * possible_cpus, a night whose runs are at one count, a slope not
 * above 0, more than SCALE_MAX_POINTS runs in a night).
 */
int history_slope(struct history *h, char *why, size_t len);

/**
 * history_median - the median of @v[lo, hi) and its 95% spread (a fraction
 * of it, cmp_median_spread()); 0 out of memory.
 */
double history_median(const double *v, unsigned int lo, unsigned int hi, double *spread);

/**
 * history_shared_file - a file of @a that is a file of @b, by device and
 * inode (links and "./" count): 1 with their indexes in *@ia and *@ib,
 * 0 when none (a file that cannot be stat()ed is no match: reading it
 * fails), -ENOMEM.
 */
int history_shared_file(const struct history *a, const struct history *b, unsigned int *ia,
		     unsigned int *ib);

/**
 * history_free - everything @h holds; @h can be reused zeroed.
 */
void history_free(struct history *h);

#endif /* KSB_HISTORY_H */
