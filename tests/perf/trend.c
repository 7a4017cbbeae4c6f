// SPDX-License-Identifier: GPL-2.0
/*
 * trend.c - `make perf-trend`: bench trend's figures (lib/stats/trend.h), to
 * read, never asserted.
 *
 *   false_per_100_runs  change points found in stationary noise, per 100
 *                       runs, at the default alpha (0.001), window and
 *                       minimum change, and with --min-change 0 (the test
 *                       alone): Gaussian noise, the same with 3% of runs
 *                       preempted (+30%), and drift (AR(1), rho 0.7,
 *                       xeon-vm's lag-1 autocorrelation of raw runs)
 *   window_p_le_alpha   the same windows' best splits tested by the
 *                       permutation test and by Hunter's t-test (Student,
 *                       two-sided): how often each says p <= alpha on noise
 *   planted             one step at run 72 of 120 (the real-run figure's
 *                       place), per size and noise: found within one run,
 *                       exactly there, and other change points, of 50 seeds
 *   excursion           3 to 24 runs +20% and back, at five places of 120:
 *                       both edges found within one run, of 50
 *   scale               ./bench trend over FILES files of 12 runs (default
 *                       1000, a few years of nightlies) written here in the
 *                       shape bench run -R 12 -p 480 --cache cold writes
 *                       (the machine's speed drifting from run to run, the
 *                       old path 10% up from 3/5 of the way on), best of 3,
 *                       with the reference (default) and raw; and, side by
 *                       side in this process, reading those files and
 *                       detecting on the old path's raw figures
 *
 *   build/perf-trend [FILES]           everything
 *   build/perf-trend gen DIR FILES RUNS [STEP_FILE [PCT]]
 *                                      just write such a history into DIR
 *                                      (the old path STEP_FILE on PCT% up)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kstats_hist.h"
#include "lib/stats/compare.h"
#include "lib/results/csv.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/stats/trend.h"
#include "lib/subcmd/spawn.h"

/* ---- noise ---- */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
	return ((rng_next(s) >> 11) + 1) * 0x1.0p-53;
}

static double gauss(uint64_t *s)
{
	double u1 = uniform(s), u2 = uniform(s);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

enum noise { NOISE_GAUSS, NOISE_PREEMPT, NOISE_DRIFT, NR_NOISE };

static const char *const noise_names[] = { "gaussian 2%", "gaussian 2% + 3% preempted +30%",
					   "AR(1) rho 0.7, 2% innovations" };

/* @n runs around 1000 of noise @k, times @f from run @at on */
static void series(double *x, unsigned int n, enum noise k, unsigned int at, double f,
		   uint64_t *s)
{
	double ar = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		double e = 0.02 * gauss(s);

		if (k == NOISE_DRIFT) {
			ar = 0.7 * ar + e;
			e = ar;
		}
		x[i] = 1000 * (1 + e) * (i >= at ? f : 1);
		if (k == NOISE_PREEMPT && uniform(s) < 0.03)
			x[i] *= 1.3;
	}
}

/* ---- stationary noise: false change points, and the two tests ---- */

#define FP_SERIES	200
#define FP_RUNS		120

static void false_points(void)
{
	struct trend_cfg cfg = TREND_CFG_INIT, zero = TREND_CFG_INIT;
	static double x[FP_RUNS];
	unsigned int k, i, nr, nz, tot, totz;
	struct trend_cp *cp;
	uint64_t s = 1;

	zero.min_change = 0;
	for (k = 0; k < NR_NOISE; k++) {
		for (i = 0, tot = totz = 0; i < FP_SERIES; i++) {
			series(x, FP_RUNS, k, FP_RUNS, 1, &s);
			trend_detect(x, FP_RUNS, &cfg, &cp, &nr);
			free(cp);
			trend_detect(x, FP_RUNS, &zero, &cp, &nz);
			free(cp);
			tot += nr;
			totz += nz;
		}
		printf("false_per_100_runs: %.3f (min change 0: %.3f) %s; %u series of %u runs\n",
		       100.0 * tot / (FP_SERIES * FP_RUNS), 100.0 * totz / (FP_SERIES * FP_RUNS),
		       noise_names[k], FP_SERIES, FP_RUNS);
	}
}

/* I_x(a, b), the regularised incomplete beta, by Lentz's continued fraction */
static double betacf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, aa, del;
	int m;

	d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
	h = d;
	for (m = 1; m <= 300; m++) {
		aa = m * (b - m) * x / ((a - 1 + 2 * m) * (a + 2 * m));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
		c = 1 + aa / c;
		h *= d * (fabs(c) < 1e-300 ? 1e-300 : c);
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1 + 2 * m));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
		c = 1 + aa / c;
		del = d * (fabs(c) < 1e-300 ? 1e-300 : c);
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0 || x >= 1)
		return x <= 0 ? 0 : 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* Student's two-sided p for x[0, t) against x[t, n), pooled variance (Otava's) */
static double t_test(const double *x, unsigned int n, unsigned int t)
{
	double m1 = 0, m2 = 0, v = 0, df = n - 2.0, tt;
	unsigned int i;

	for (i = 0; i < n; i++)
		*(i < t ? &m1 : &m2) += x[i];
	m1 /= t;
	m2 /= n - t;
	for (i = 0; i < n; i++)
		v += (x[i] - (i < t ? m1 : m2)) * (x[i] - (i < t ? m1 : m2));
	tt = (m2 - m1) / sqrt(v / df * (1.0 / t + 1.0 / (n - t)));
	return ibeta(df / 2, 0.5, df / (df + tt * tt));
}

/* every window of 50 in Gaussian noise: its best split, both tests */
static void window_tests(void)
{
	const unsigned int w = TREND_WINDOW, windows = 2000;
	unsigned int i, t, perms, perm_hits = 0, t_hits = 0;
	double x[TREND_WINDOW], q[TREND_WINDOW + 1], p;
	uint64_t s = 7;

	for (i = 0; i < windows; i++) {
		series(x, w, NOISE_GAUSS, w, 1, &s);
		t = trend_energy(x, w, q);
		trend_test(x, w, t, 0.001, trend_seed(1, i, w), &p, &perms);
		perm_hits += p <= 0.001;
		t_hits += t_test(x, w, t) <= 0.001;
	}
	printf("window_p_le_alpha: permutation %.4f, Hunter's t-test %.4f (alpha 0.001; best split of each of %u windows of %u runs of Gaussian noise)\n",
	       (double)perm_hits / windows, (double)t_hits / windows, windows, w);
}

/* ---- planted steps ---- */

static void planted(void)
{
	static const double size[] = { 0.05, 0.10, 0.20, 0.50 }, noise[] = { 0.01, 0.02, 0.04 };
	struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int a, b, seed, i, k, nr, near, exact, other;
	struct trend_cp *cp;
	double x[120];

	printf("planted: one step at run 72 of 120, 50 seeds each: found within 1 run / exactly / other change points\n");
	for (a = 0; a < 4; a++)
		for (b = 0; b < 3; b++) {
			near = exact = other = 0;
			for (seed = 1; seed <= 50; seed++) {
				uint64_t s = seed * 7919;

				for (i = 0; i < 120; i++)
					x[i] = 1000 * (1 + noise[b] * gauss(&s)) *
					       (i >= 72 ? 1 + size[a] : 1);
				trend_detect(x, 120, &cfg, &cp, &nr);
				for (k = 0, i = 0; k < nr; k++) {
					i |= cp[k].idx + 1 >= 72 && cp[k].idx <= 73;
					exact += cp[k].idx == 72;
					other += !(cp[k].idx + 1 >= 72 && cp[k].idx <= 73);
				}
				near += i;
				free(cp);
			}
			printf("planted: step %+3.0f%% noise %.0f%%: %2u/50 %2u/50 %u\n", size[a] * 100,
			       noise[b] * 100, near, exact, other);
		}
}

/*
 * Out and back: L runs +20% at runs 10, 30, 50, 60 or 80 of 120, 2%
 * noise, 10 seeds each: both edges found within one run
 */
static void excursions(void)
{
	static const unsigned int len[] = { 3, 6, 12, 24 }, pos[] = { 10, 30, 50, 60, 80 };
	struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int a, b, seed, i, k, nr, both, f;
	struct trend_cp *cp;
	double x[120];

	for (a = 0; a < 4; a++) {
		for (b = 0, both = 0; b < 5; b++)
			for (seed = 1; seed <= 10; seed++) {
				uint64_t s = seed * 31 + b;

				for (i = 0; i < 120; i++)
					x[i] = 1000 * (1 + 0.02 * gauss(&s)) *
					       (i >= pos[b] && i < pos[b] + len[a] ? 1.2 : 1);
				trend_detect(x, 120, &cfg, &cp, &nr);
				for (k = 0, f = 0; k < nr; k++) {
					f |= cp[k].idx + 1 >= pos[b] && cp[k].idx <= pos[b] + 1;
					f |= (cp[k].idx + 1 >= pos[b] + len[a] &&
					      cp[k].idx <= pos[b] + len[a] + 1) << 1;
				}
				both += f == 3;
				free(cp);
			}
		printf("excursion: %2u runs +20%% and back, 2%% noise: both edges %2u/50\n", len[a],
		       both);
	}
}

/* ---- a synthetic history, in bench run's shape ---- */

#define GEN_SAMPLES	2048	/* per variant and run, over 2 CPUs */
#define GEN_DAY		86400
#define GEN_MAX_RUNS	64

static const char *const gen_variants[] = { "old", "new", "reference" };

static void gen_meta(struct meta *m, unsigned int file, unsigned int runs)
{
	meta_set(m, "command", "bench run -q --runs %u -p 480 --cache cold (perf-trend)", runs);
	meta_timestamp(m, 1672538400 + (time_t)file * GEN_DAY);
	meta_set(m, "host", "perf-trend");
	meta_set(m, "workload", "irqdesc-alloc");
	meta_set(m, "possible_cpus", "480");
	meta_set(m, "cache", "cold");
	meta_set(m, "unit", "ns");
	meta_set(m, "frac_bits", "2");
	meta_set(m, "runs", "%u", runs);
	meta_set(m, "partial", "no");
}

/*
 * Run @run of @set: the machine's speed drifts from run to run (AR(1)
 * on the log, shared by the old path and the reference loop, as on
 * xeon-vm), each sample lognormal around its path's level, into
 * its CPU's series and the merge over CPUs (the reference: the merge
 * only, as bench run writes it).
 */
static int gen_run(struct results *set, unsigned int run, double speed, double step,
		   uint64_t *s)
{
	static const double level[] = { 10000, 200, 9000 }, sigma[] = { 0.15, 0.10, 0.10 };
	struct results_label l = { .workload = "irqdesc-alloc", .run = run };
	struct results_series *cpu[2], *all;
	unsigned int v, i, c;
	uint64_t x;

	for (v = 0; v < 3; v++) {
		l.variant = gen_variants[v];
		for (c = 0; c < 2; c++) {
			l.cpu = (int)c;
			l.node = 0;
			cpu[c] = v < 2 ? results_series(set, &l) : NULL;
			if (v < 2 && !cpu[c])
				return -ENOMEM;
		}
		l.cpu = RESULTS_CPU_ALL;
		l.node = -1;
		all = results_series(set, &l);
		if (!all)
			return -ENOMEM;
		for (i = 0; i < GEN_SAMPLES; i++) {
			x = (uint64_t)(level[v] * (v == 1 ? 1 : speed) * (v ? 1 : step) *
				       exp(sigma[v] * gauss(s)));
			if (cpu[i & 1])
				kstats_hist_record(cpu[i & 1]->h, x);
			kstats_hist_record(all->h, x);
		}
	}
	return 0;
}

/* file @file of a history: @runs runs, the old path times @step */
static int gen_file(const char *dir, unsigned int file, unsigned int runs, double step,
		    double *drift, uint64_t *s)
{
	struct results *set = results_create(2);
	char path[4096];
	unsigned int r;
	FILE *f;
	int ret = set ? 0 : -ENOMEM;

	for (r = 0; r < runs && !ret; r++) {
		*drift = 0.7 * *drift + 0.04 * gauss(s);
		ret = gen_run(set, r + 1, exp(*drift), step, s);
	}
	if (!ret)
		ret = results_merge_runs(set);
	snprintf(path, sizeof(path), "%s/night-%04u.csv", dir, file + 1);
	f = ret ? NULL : fopen(path, "w");
	if (!ret && !f)
		ret = -errno;
	if (f) {
		gen_meta(&set->meta, file, runs);
		ret = csv_write(f, set);
		if (fclose(f) && !ret)
			ret = -EIO;
	}
	results_free(set);
	return ret;
}

/* @files files of @runs runs into @dir, the old path @pct% up from file @at on */
static int gen_history(const char *dir, unsigned int files, unsigned int runs,
		       unsigned int at, double pct)
{
	double drift = 0;
	uint64_t s = 42;
	unsigned int i;
	int ret = 0;

	if (runs < 1 || runs > GEN_MAX_RUNS)
		return -EINVAL;
	for (i = 0; i < files && !ret; i++)
		ret = gen_file(dir, i, runs, i + 1 >= at ? 1 + pct / 100 : 1, &drift, &s);
	return ret;
}

/* ---- scale ---- */

/*
 * wall seconds of ./bench trend -r REF DIR (lib/subcmd/spawn.h), its
 * output thrown away; -1 when it does not exit 0 or 1
 */
static double time_trend(const char *dir, const char *ref)
{
	char *argv[] = { "./bench", "trend", "-r", (char *)ref, (char *)dir, NULL };
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC), rc;
	double t;

	if (fd < 0)
		return -1;
	fflush(stdout);
	t = spawn_now();
	rc = spawn_run(argv, fd, fd, 0);
	t = spawn_now() - t;
	close(fd);
	return rc == 0 || rc == 1 ? t : -1;
}

/* in this process: every file read (csv_read) and its old path's figures, then detection */
static int read_and_detect(const char *dir, unsigned int files, double *t_read, double *t_det)
{
	struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int i, k, n = 0, runs, nr;
	const struct kstats_hist *h;
	double *x = malloc(files * GEN_MAX_RUNS * sizeof(*x)), t = spawn_now();
	struct csv_error err;
	struct trend_cp *cp;
	struct results *set;
	char path[4096];
	FILE *f;

	for (i = 0; x && i < files; i++) {
		snprintf(path, sizeof(path), "%s/night-%04u.csv", dir, i + 1);
		f = fopen(path, "r");
		if (!f || csv_read(f, &set, &err))
			return -EINVAL;
		fclose(f);
		runs = results_nr_runs(set, "irqdesc-alloc", "old");
		for (k = 0; k < runs && (h = results_run_hist(set, "irqdesc-alloc", "old", k)); k++)
			x[n++] = cmp_hist_stat(h, CMP_STAT_TM10);
		results_free(set);
	}
	*t_read = spawn_now() - t;
	t = spawn_now();
	if (!x || trend_detect(x, n, &cfg, &cp, &nr))
		return -ENOMEM;
	*t_det = spawn_now() - t;
	printf("scale: in process: %u runs of the old path, %u change points\n", n, nr);
	free(cp);
	free(x);
	return 0;
}

static void scale(unsigned int files)
{
	static const char *const refs[] = { "auto", "off" };
	char dir[] = "/tmp/ksb-perf-trend.XXXXXX";
	double best, t, t_read = 0, t_det = 0, t0 = spawn_now();
	unsigned int i, k;

	if (!mkdtemp(dir) || gen_history(dir, files, 12, files * 3 / 5, 10)) {
		printf("scale: cannot write the history: %s\n", strerror(errno));
		return;
	}
	printf("scale: %u files of 12 runs written in %.1f s (old path +10%% from file %u on)\n",
	       files, spawn_now() - t0, files * 3 / 5);
	for (k = 0; k < 2; k++) {
		for (i = 0, best = 1e30; i < 3 && best > 0; i++) {
			t = time_trend(dir, refs[k]);
			best = t < best ? t : best;
		}
		if (best < 0)
			printf("scale: ./bench trend failed (is ./bench built?)\n");
		else
			printf("scale_bench_trend_s: %.3f (best of 3, ./bench trend -r %s DIR, %u files of 12 runs)\n",
			       best, refs[k], files);
	}
	if (!read_and_detect(dir, files, &t_read, &t_det))
		printf("scale: in process, raw: reading %.3f s, detecting %.3f s (detect/read %.3f)\n",
		       t_read, t_det, t_det / t_read);
	spawn_remove_tree(dir);
}

int main(int argc, char **argv)
{
	unsigned int files = 1000;

	if (argc >= 5 && !strcmp(argv[1], "gen")) {
		int ret = gen_history(argv[2], (unsigned int)atoi(argv[3]),
				      (unsigned int)atoi(argv[4]),
				      argc > 5 ? (unsigned int)atoi(argv[5]) : UINT32_MAX,
				      argc > 6 ? atof(argv[6]) : 10);

		if (ret)
			fprintf(stderr, "perf-trend: %s\n", strerror(-ret));
		return ret ? 1 : 0;
	}
	if (argc > 2 || (argc == 2 && (files = (unsigned int)atoi(argv[1])) < 1)) {
		fprintf(stderr, "usage: build/perf-trend [FILES] | gen DIR FILES RUNS [STEP_FILE [PCT]]\n");
		return 2;
	}
	false_points();
	window_tests();
	planted();
	excursions();
	scale(files);
	return 0;
}
