// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-hist.c - bench hist: the kstats table of any list of samples.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/csv.h"
#include "lib/json.h"
#include "lib/samples.h"

/* ---- bench hist ---- */

enum hist_format { FMT_TABLE, FMT_KSTATS, FMT_CSV, FMT_BARS, FMT_JSON };

static const char *const hist_formats[] = { "table", "kstats", "csv", "bars",
					    "json", NULL };

struct hist_opts {
	uint64_t frac_bits;		/* sub-bucket bits, 0..12 */
	enum hist_format format;	/* -f */
	const char *path;		/* input file, "-" = stdin */
};

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int hist_parse(int argc, char **argv, struct hist_opts *o)
{
	const struct opt opts[] = {
		OPT_U64('b', "frac-bits", &o->frac_bits, 0, KSTATS_HIST_FRAC_BITS_MAX, "B",
			"sub-buckets per power of two = 2^B, 0..12 (default 2)"),
		OPT_ENUM('f', "format", &o->format, hist_formats, "FMT",
			 "table   the patch's table (default)\n"
			 "kstats  kstats' own 'slot ... CPUS ...' lines\n"
			 "csv     the kstats-bench CSV schema\n"
			 "bars    a terminal histogram, bpftrace style\n"
			 "json    the kstats-bench JSON document (man kstats-bench)"),
		OPT_END()
	};
	const struct opt *tab[] = { opts, NULL };
	struct opt_parser p = { .tab = tab };
	int ret = bench_options(&p,
		"Usage: bench hist [OPTIONS] [FILE|-]\n"
		"Print the kstats histogram of a list of samples: one non-negative decimal\n"
		"integer (0..2^64-1) per line, blank lines ignored, from FILE or stdin.\n",
		"Exit: 0 done, 2 bad usage or input (the message names file and line).\n",
		argc, argv);

	if (ret)
		return ret;
	if (argc - optind > 1) {
		bench_err("one input file at most, got '%s' and '%s'",
			  argv[optind], argv[optind + 1]);
		return -1;
	}
	if (optind < argc)
		o->path = argv[optind];
	return 0;
}

static void hist_meta(struct csv_meta *m, const struct hist_opts *o,
		      const struct kstats_hist *h, uint64_t n)
{
	csv_meta_set(m, "command", "bench hist");
	csv_meta_set(m, "source", "%s", o->path);
	csv_meta_set(m, "frac_bits", "%u", kstats_hist_frac_bits(h));
	csv_meta_set(m, "unit", "input");
	csv_meta_set(m, "samples", "%lu", (unsigned long)n);
	csv_meta_set(m, "partial", "no");
}

static int hist_csv(const struct hist_opts *o, const struct kstats_hist *h,
		    uint64_t n)
{
	static struct csv_meta m;

	hist_meta(&m, o, h, n);
	csv_write_header(stdout, &m);
	return csv_write_hist(stdout, "hist", "input", CSV_RUN_ALL, -1, -1, h);
}

static int hist_json(const struct hist_opts *o, const struct kstats_hist *h,
		     uint64_t n)
{
	static const struct json_series s = {
		.workload = "hist", .variant = "input", .cpu = -1, .node = -1,
		.unit = "input",
	};
	static struct csv_meta m;
	struct json j;

	hist_meta(&m, o, h, n);
	json_init(&j, stdout);
	json_doc_begin(&j, &m);
	json_array_begin(&j, "histograms");
	json_write_hist(&j, &s, h);
	json_array_end(&j);
	return json_doc_end(&j);
}

static int hist_print(const struct hist_opts *o, const struct kstats_hist *h,
		      uint64_t n)
{
	switch (o->format) {
	case FMT_KSTATS:
		return kstats_hist_print_kstats(h, stdout, -1, 1);
	case FMT_CSV:
		return hist_csv(o, h, n);
	case FMT_BARS:
		return kstats_hist_print_bars(h, stdout);
	case FMT_JSON:
		return hist_json(o, h, n);
	default:
		return kstats_hist_print_table(h, stdout);
	}
}

int cmd_hist(int argc, char **argv)
{
	struct hist_opts o = {
		.frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT,
		.format = FMT_TABLE,
		.path = "-",
	};
	struct kstats_hist *h;
	unsigned long line;
	uint64_t n;
	FILE *f;
	int ret;

	ret = hist_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	f = strcmp(o.path, "-") ? fopen(o.path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", bench_prog, o.path, strerror(errno));
		return EXIT_USAGE;
	}
	h = kstats_hist_create((unsigned int)o.frac_bits);
	if (!h) {
		fprintf(stderr, "%s: %s\n", bench_prog, strerror(errno));
		ret = EXIT_ENV;
		goto out_close;
	}
	ret = samples_read(f, h, &line, &n);
	if (ret) {
		fprintf(stderr, "%s: %s:%lu: %s\n", bench_prog,
			f == stdin ? "<stdin>" : o.path, line,
			samples_strerror(ret));
		ret = EXIT_USAGE;
		goto out_free_hist;
	}
	hist_print(&o, h, n);
	ret = bench_finish_stdout();
out_free_hist:
	kstats_hist_free(h);
out_close:
	if (f != stdin)
		fclose(f);
	return ret;
}
