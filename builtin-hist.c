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
#include "lib/report/format.h"
#include "lib/subcmd/outset.h"
#include "lib/results/results.h"
#include "lib/subcmd/samples.h"

/* ---- bench hist ---- */

struct hist_opts {
	uint64_t frac_bits;		/* sub-bucket bits, 0..12 */
	int format;			/* -f, an index of formats[] */
	const char *path;		/* input file, "-" = stdin */
	struct outset also;		/* --also FMT=FILE */
};

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int hist_parse(int argc, char **argv, struct hist_opts *o)
{
	const struct opt opts[] = {
		OPT_U64('b', "frac-bits", &o->frac_bits, 0, KSTATS_HIST_FRAC_BITS_MAX, "B",
			"sub-buckets per power of two = 2^B, 0..12 (default 2)"),
		OPT_FORMAT('f', "format", &o->format, formats, "FMT", "what goes to stdout:"),
		OPT_ALSO(&o->also),
		OPT_END()
	};
	const struct opt *tab[] = { opts, NULL };
	struct opt_parser p = { .tab = tab };
	int ret = bench_options(&p,
		"Usage: bench hist [OPTIONS] [FILE|-]\n"
		"Print the kstats histogram of a list of samples: one non-negative decimal\n"
		"integer (0..2^64-1) per line, blank lines ignored, from FILE or stdin.\n",
		"Exit: 0 done, 2 bad usage or input (the message names file and line),\n"
		"3 the report could not be written (or memory ran out).\n",
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

/* the samples as a results set of one series, "hist,input" */
static struct results *hist_results(const struct hist_opts *o, struct kstats_hist *h,
				    uint64_t n)
{
	static const struct results_label l = {
		.workload = "hist", .variant = "input", .run = RESULTS_RUN_ALL,
		.cpu = RESULTS_CPU_ALL, .node = -1,
	};
	struct results *r = results_create(kstats_hist_frac_bits(h));

	if (!r || results_add_hist(r, &l, h)) {
		results_free(r);
		return NULL;
	}
	meta_set(&r->meta, "command", "bench hist");
	meta_set(&r->meta, "source", "%s", o->path);
	meta_set(&r->meta, "frac_bits", "%u", kstats_hist_frac_bits(h));
	meta_set(&r->meta, "unit", "input");
	meta_set(&r->meta, "samples", "%lu", (unsigned long)n);
	meta_set(&r->meta, "partial", "no");
	return r;
}

int cmd_hist(int argc, char **argv)
{
	struct hist_opts o = {
		.frac_bits = KSTATS_HIST_FRAC_BITS_DEFAULT,
		.format = FORMAT_TABLE,
		.path = "-",
		.also = OUTSET_INIT(formats),
	};
	struct kstats_hist *h;
	struct results *r;
	unsigned long line;
	uint64_t n;
	FILE *f;
	int ret;

	ret = hist_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	ret = bench_outputs((char **)&o.path, 1, NULL, &o.also);
	if (ret)
		return ret;
	f = strcmp(o.path, "-") ? fopen(o.path, "r") : stdin;
	if (!f) {
		pr_err("%s: %s", o.path, strerror(errno));
		return EXIT_USAGE;
	}
	ret = bench_open_also(&o.also);
	if (ret)
		goto out_close;
	h = kstats_hist_create((unsigned int)o.frac_bits);
	if (!h) {
		ret = bench_refused("%s", strerror(errno));
		goto out_close;
	}
	ret = samples_read(f, h, &line, &n);
	if (ret) {
		pr_err("%s:%lu: %s",
		       f == stdin ? "<stdin>" : o.path, line,
		       samples_strerror(ret));
		ret = EXIT_USAGE;
		goto out_free_hist;
	}
	r = hist_results(&o, h, n);
	if (!r) {
		ret = bench_nomem();
		goto out_free_hist;
	}
	ret = bench_report(NULL, NULL, (unsigned int)o.format, &o.also, r);
	results_free(r);
out_free_hist:
	kstats_hist_free(h);
out_close:
	outset_abort(&o.also);
	if (f != stdin)
		fclose(f);
	return ret;
}
