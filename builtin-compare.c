// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-compare.c - bench show and bench compare: read kstats-bench
 * CSVs back, print one histogram, or gate AFTER against BEFORE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/compare.h"
#include "lib/csv.h"
#include "lib/json.h"
#include "lib/topo.h"

/* ---- reading CSVs: bench show, bench compare ---- */

/* csv_read() with the message, naming file and line. 0 or EXIT_USAGE. */
static int load_csv(const char *path, struct csv_file *cf)
{
	unsigned long line = 0;
	char why[256] = "";
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", bench_prog, path, strerror(errno));
		return EXIT_USAGE;
	}
	ret = csv_read(f, cf, &line, why, sizeof(why));
	fclose(f);
	if (!ret)
		return 0;
	if (ret != -EINVAL)
		snprintf(why, sizeof(why), "%s", strerror(-ret));
	if (line)
		fprintf(stderr, "%s: %s:%lu: %s\n", bench_prog, path, line, why);
	else
		fprintf(stderr, "%s: %s: %s\n", bench_prog, path, why);
	return EXIT_USAGE;
}

static const char *const show_formats[] = { "table", "kstats", "bars", "json", NULL };

static int show_print(const struct csv_series *s, int format)
{
	if (format == 1)
		return kstats_hist_print_kstats(s->h, stdout, s->cpu, 1);
	if (format == 2)
		return kstats_hist_print_bars(s->h, stdout);
	return kstats_hist_print_table(s->h, stdout);
}

/* -f json: the file's metadata and the one series (lib/json.h) */
static int show_json(const struct csv_file *cf, const struct csv_series *s)
{
	const char *unit = csv_meta_get(&cf->meta, "unit");
	struct json_series js = {
		.workload = s->workload, .variant = s->variant, .cpu = s->cpu,
		.node = s->node, .unit = unit ? unit : "ns",
	};
	struct json j;

	json_init(&j, stdout);
	json_doc_begin(&j, &cf->meta);
	json_array_begin(&j, "histograms");
	json_write_hist(&j, &js, s->h);
	json_array_end(&j);
	return json_doc_end(&j);
}

struct show_opts {
	const char *workload;		/* -w, NULL: the file's first */
	const char *variant;		/* -v */
	const char *cpu;		/* -c, a number or "all" */
	int format;			/* -f, index in show_formats */
};

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int show_parse(int argc, char **argv, struct show_opts *o)
{
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "variant", required_argument, NULL, 'v' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t cpu;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:v:c:f:h", longopts, NULL)) != -1) {
		if (c == 'w') {
			o->workload = optarg;
		} else if (c == 'v') {
			o->variant = optarg;
		} else if (c == 'c') {
			o->cpu = optarg;
			if (strcmp(optarg, "all") &&
			    bench_parse_u64(optarg, 0, TOPO_MAX_CPUS - 1, "--cpu", &cpu))
				return -1;
		} else if (c == 'f') {
			o->format = bench_parse_enum(optarg, show_formats, "--format");
			if (o->format < 0)
				return -1;
		} else if (c == 'h') {
			printf("Usage: bench show [-w WORKLOAD] [-v VARIANT] [-c CPU|all] [-f table|kstats|bars|json] FILE.csv\n"
			       "Print one histogram of a kstats-bench CSV: by default the merged ('all')\n"
			       "old variant of the file's first workload, as the patch's table.\n");
			return 1;
		} else {
			bench_getopt_fail(c, argv);
			return -1;
		}
	}
	if (argc - optind != 1) {
		bench_err("needs exactly one CSV file");
		return -1;
	}
	return 0;
}

int cmd_show(int argc, char **argv)
{
	struct show_opts o = { .variant = "old", .cpu = "all" };
	static struct csv_file cf;
	struct csv_series *s;
	int ret;

	ret = show_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	ret = load_csv(argv[optind], &cf);
	if (ret)
		return ret;
	if (!o.workload)
		o.workload = cf.s[0].workload;
	s = csv_find(&cf, o.workload, o.variant,
		     strcmp(o.cpu, "all") ? atoi(o.cpu) : -1);
	if (!s) {
		fprintf(stderr, "%s: %s: no rows for workload %s, variant %s, cpu %s\n",
			bench_prog, argv[optind], o.workload, o.variant, o.cpu);
		ret = EXIT_USAGE;
	} else {
		if (o.format == 3)
			show_json(&cf, s);
		else
			show_print(s, o.format);
		ret = bench_finish_stdout();
	}
	csv_file_free(&cf);
	return ret;
}

/* ---- bench compare ---- */

/*
 * Default thresholds, per metric, sit above the A/A noise measured on the
 * development VM (README, "The regression gate"): two runs of one build
 * moved the mean by up to 8.7%, p50 and p90 by one bucket (12.5-25% at
 * frac_bits 2), p99 by up to 52% (one or two buckets of a thin tail).
 * The U test alone rejects nearly every A/A pair at 8192 samples.
 */
#define COMPARE_ALPHA		0.01
static const double compare_default_pct[] = {
	[CMP_P50] = 30, [CMP_P90] = 30, [CMP_P99] = 60, [CMP_MEAN] = 15,
};

struct compare_opts {
	int metric;			/* enum cmp_metric: p50, p90, p99, mean */
	double threshold;		/* fraction, > 0 */
	double alpha;			/* in (0, 1) */
	int format;			/* 0 table, 1 csv */
};

static const char *const compare_metrics[] = { "p50", "p90", "p99", "mean", NULL };
static const enum cmp_metric compare_metric_ids[] = { CMP_P50, CMP_P90, CMP_P99, CMP_MEAN };
static const char *const compare_formats[] = { "table", "csv", NULL };


static void compare_usage(void)
{
	printf("Usage: bench compare [OPTIONS] BEFORE.csv AFTER.csv\n"
	       "Compare every (workload, variant) present in both CSVs: p50, p90, p99,\n"
	       "p99.9, mean, max and samples, before, after and delta, and a verdict.\n"
	       "A regression needs both a two-sided Mann-Whitney U test on the bucketed\n"
	       "samples with p < alpha and the metric slower by more than the threshold.\n"
	       "\n"
	       "  -m, --metric M      p50, p90, p99 or mean (default mean)\n"
	       "  -t, --threshold PCT relative change that counts, > 0 (default: mean 15,\n"
	       "                      p50 30, p90 30, p99 60: above the A/A noise, see README)\n"
	       "  -a, --alpha A       significance level, in (0,1) (default %g)\n"
	       "  -f, --format FMT    table (default) or csv\n"
	       "  -h, --help          this text\n"
	       "\n"
	       "Exit: 0 no significant regression, 1 a regression, 2 bad input.\n",
	       COMPARE_ALPHA);
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int compare_parse(int argc, char **argv, struct compare_opts *o)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "threshold", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double pct;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:t:a:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			c = bench_parse_enum(optarg, compare_metrics, "--metric");
			if (c < 0)
				return -1;
			o->metric = compare_metric_ids[c];
			break;
		case 't':
			if (bench_parse_double(optarg, 0, 0, "--threshold", "> 0 (percent)", &pct))
				return -1;
			o->threshold = pct / 100;
			break;
		case 'a':
			if (bench_parse_double(optarg, 0, 1, "--alpha", "in (0,1)", &o->alpha))
				return -1;
			break;
		case 'f':
			o->format = bench_parse_enum(optarg, compare_formats, "--format");
			if (o->format < 0)
				return -1;
			break;
		case 'h':
			compare_usage();
			return 1;
		default:
			bench_getopt_fail(c, argv);
			return -1;
		}
	}
	if (argc - optind != 2) {
		bench_err("needs two CSV files, BEFORE and AFTER");
		return -1;
	}
	return 0;
}

/* the files must measure the same thing the same way */
static int compare_check(const char *bp, const struct csv_file *b,
			 const char *ap, const struct csv_file *a)
{
	const char *bu = csv_meta_get(&b->meta, "unit");
	const char *au = csv_meta_get(&a->meta, "unit");

	if (b->frac_bits != a->frac_bits) {
		fprintf(stderr, "%s: %s has frac_bits %u, %s has %u: buckets differ\n",
			bench_prog, bp, b->frac_bits, ap, a->frac_bits);
		return EXIT_USAGE;
	}
	if (bu && au && strcmp(bu, au)) {
		fprintf(stderr, "%s: %s is in %s, %s in %s\n", bench_prog, bp, bu, ap, au);
		return EXIT_USAGE;
	}
	return 0;
}

/* every merged series of BEFORE that AFTER has too */
static int compare_all(const struct compare_opts *o, const struct csv_file *b,
		       const struct csv_file *a, unsigned int *nr_reg)
{
	unsigned int i, pairs = 0, improved = 0;
	struct cmp_result r;

	if (o->format == 1)
		printf(CMP_CSV_COLUMNS "\n");
	for (i = 0; i < b->n; i++) {
		const struct csv_series *s = &b->s[i], *t;

		t = s->cpu < 0 ? csv_find(a, s->workload, s->variant, -1) : NULL;
		if (!t || cmp_hist(s->h, t->h, (enum cmp_metric)o->metric,
				   o->threshold, o->alpha, &r))
			continue;
		pairs++;
		*nr_reg += r.regression;
		improved += r.improvement;
		if (o->format == 1)
			cmp_print_csv(stdout, s->workload, s->variant, &r);
		else
			cmp_print_table(stdout, s->workload, s->variant, &r,
					(enum cmp_metric)o->metric, o->threshold, o->alpha);
	}
	if (o->format == 0 && pairs)
		printf("COMPARE pairs=%u regressions=%u improvements=%u verdict=%s\n",
		       pairs, *nr_reg, improved, *nr_reg ? "regression" : "ok");
	return pairs;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = {
		.metric = CMP_MEAN,
		.threshold = -1,
		.alpha = COMPARE_ALPHA,
	};
	static struct csv_file before, after;
	unsigned int nr_reg = 0;
	int ret;

	ret = compare_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (o.threshold < 0)
		o.threshold = compare_default_pct[o.metric] / 100;
	ret = load_csv(argv[optind], &before);
	if (ret)
		return ret;
	ret = load_csv(argv[optind + 1], &after);
	if (ret)
		goto out_free_before;
	ret = compare_check(argv[optind], &before, argv[optind + 1], &after);
	if (ret)
		goto out_free_after;
	if (!compare_all(&o, &before, &after, &nr_reg)) {
		fprintf(stderr, "%s: %s and %s share no (workload, variant) with rows for cpu 'all'\n",
			bench_prog, argv[optind], argv[optind + 1]);
		ret = EXIT_USAGE;
		goto out_free_after;
	}
	ret = bench_finish_stdout();
	if (!ret && nr_reg)
		ret = EXIT_REGRESSION;
out_free_after:
	csv_file_free(&after);
out_free_before:
	csv_file_free(&before);
	return ret;
}
