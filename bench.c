// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - kstats-bench: main(), subcommands, option parsing.
 *
 * Only this file prints to stdout or decides to exit; the library code
 * (kstats_hist.c, lib/, workloads/) returns 0 or -errno.
 *
 * Exit codes, for every command: 0 done, 1 compare found a regression,
 * 2 usage or bad input, 3 the environment refused, 130/143 interrupted.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/samples.h"

#define BENCH_VERSION	"0.1.0"

enum {
	EXIT_DONE = 0,
	EXIT_REGRESSION = 1,
	EXIT_USAGE = 2,
	EXIT_ENV = 3,
};

/* ---- subcommand registry ---- */

struct cmd {
	const char *name;	/* word after "bench" */
	const char *summary;	/* one line for `bench --help` */
	int (*fn)(int argc, char **argv);	/* returns an exit code */
};

static int cmd_hist(int argc, char **argv);

static const struct cmd cmds[] = {
	{ "hist", "print the kstats table of a list of integer samples",
	  cmd_hist },
	{ NULL, NULL, NULL },
};

#define for_each_cmd(c) for ((c) = cmds; (c)->name; (c)++)

/* ---- messages and option helpers ---- */

static const char *prog = "bench";	/* "bench CMD" once a command runs */

static void __attribute__((format(printf, 1, 2))) usage_err(const char *fmt,
							    ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s --help')\n", prog);
}

/*
 * parse_u64 - a decimal option value in [min, max]. On error prints one
 * line naming the option and the range, and returns -1.
 */
static int parse_u64(const char *arg, uint64_t min, uint64_t max,
		     const char *name, uint64_t *out)
{
	uint64_t v;
	int ret = samples_parse_line(arg, strlen(arg), &v);

	if (ret == 0 && v >= min && v <= max) {
		*out = v;
		return 0;
	}
	usage_err("%s: '%s' is not an integer in %lu..%lu", name, arg,
		  (unsigned long)min, (unsigned long)max);
	return -1;
}

/*
 * parse_enum - index of @arg in the NULL-terminated @names, or -1 after
 * a message listing the valid names.
 */
static int parse_enum(const char *arg, const char *const *names,
		      const char *name)
{
	char list[256] = "";
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	for (i = 0; names[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? ", " : "", names[i]);
	usage_err("%s: '%s' is not one of %s", name, arg, list);
	return -1;
}

/*
 * getopt_fail - one line for what getopt_long (with opterr = 0 and a
 * leading ':' in the optstring) rejected: @c is '?' or ':'.
 */
static void getopt_fail(int c, char **argv)
{
	char opt[3] = { '-', (char)optopt, 0 };
	const char *name = optopt ? opt : argv[optind - 1];

	if (c == ':')
		usage_err("option '%s' needs a value", argv[optind - 1]);
	else
		usage_err("unknown option '%s'", name);
}

/* Flush stdout and report a failed write (disk full, closed pipe). */
static int finish_stdout(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: writing standard output: %s\n", prog,
			strerror(errno));
		return EXIT_ENV;
	}
	return EXIT_DONE;
}

/* ---- bench hist ---- */

enum hist_format { FMT_TABLE, FMT_KSTATS, FMT_CSV, FMT_BARS };

static const char *const hist_formats[] = { "table", "kstats", "csv", "bars",
					    NULL };

struct hist_opts {
	uint64_t frac_bits;		/* sub-bucket bits, 0..12 */
	int format;			/* enum hist_format */
	const char *path;		/* input file, "-" = stdin */
};

static void hist_usage(FILE *f)
{
	fprintf(f,
		"Usage: bench hist [OPTIONS] [FILE|-]\n"
		"Print the kstats histogram of a list of samples: one non-negative decimal\n"
		"integer (0..2^64-1) per line, blank lines ignored, from FILE or stdin.\n"
		"\n"
		"  -b, --frac-bits B   sub-buckets per power of two = 2^B, 0..12 (default 2)\n"
		"  -f, --format FMT    table   the patch's table (default)\n"
		"                      kstats  kstats' own 'slot ... CPUS ...' lines\n"
		"                      csv     the kstats-bench CSV schema\n"
		"                      bars    a terminal histogram, bpftrace style\n"
		"  -h, --help          this text\n"
		"\n"
		"Exit: 0 done, 2 bad usage or input (the message names file and line).\n");
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int hist_parse(int argc, char **argv, struct hist_opts *o)
{
	static const struct option longopts[] = {
		{ "frac-bits", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (parse_u64(optarg, 0, KSTATS_HIST_FRAC_BITS_MAX,
				      "--frac-bits", &o->frac_bits))
				return -1;
			break;
		case 'f':
			o->format = parse_enum(optarg, hist_formats, "--format");
			if (o->format < 0)
				return -1;
			break;
		case 'h':
			hist_usage(stdout);
			return 1;
		default:
			getopt_fail(c, argv);
			return -1;
		}
	}
	if (argc - optind > 1) {
		usage_err("one input file at most, got '%s' and '%s'",
			  argv[optind], argv[optind + 1]);
		return -1;
	}
	if (optind < argc)
		o->path = argv[optind];
	return 0;
}

static int hist_print(const struct hist_opts *o, const struct kstats_hist *h,
		      uint64_t n)
{
	switch (o->format) {
	case FMT_KSTATS:
		return kstats_hist_print_kstats(h, stdout, -1, 1);
	case FMT_CSV:
		printf("# kstats-bench-csv 1\n# command: bench hist\n"
		       "# source: %s\n# frac_bits: %u\n# unit: input\n"
		       "# samples: %lu\n# partial: no\n"
		       "workload,variant,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile\n",
		       o->path, kstats_hist_frac_bits(h), (unsigned long)n);
		return kstats_hist_print_csv(h, stdout, "hist,input,all,-1");
	case FMT_BARS:
		return kstats_hist_print_bars(h, stdout);
	default:
		return kstats_hist_print_table(h, stdout);
	}
}

static int cmd_hist(int argc, char **argv)
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
		return ret > 0 ? finish_stdout() : EXIT_USAGE;
	f = strcmp(o.path, "-") ? fopen(o.path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, o.path, strerror(errno));
		return EXIT_USAGE;
	}
	h = kstats_hist_create((unsigned int)o.frac_bits);
	if (!h) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		ret = EXIT_ENV;
		goto out_close;
	}
	ret = samples_read(f, h, &line, &n);
	if (ret) {
		fprintf(stderr, "%s: %s:%lu: %s\n", prog,
			f == stdin ? "<stdin>" : o.path, line,
			samples_strerror(ret));
		ret = EXIT_USAGE;
		goto out_free_hist;
	}
	hist_print(&o, h, n);
	ret = finish_stdout();
out_free_hist:
	kstats_hist_free(h);
out_close:
	if (f != stdin)
		fclose(f);
	return ret;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "Usage: bench [--help | --version] COMMAND [OPTIONS]\n"
		   "kstats-bench: kstats latency histograms of kernel code paths.\n\n"
		   "Commands:\n");
	for_each_cmd(c)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'bench COMMAND --help' describes one command.\n"
		   "Exit: 0 done, 1 regression (compare), 2 bad usage or input,\n"
		   "3 the environment refused, 130/143 interrupted.\n");
}

int main(int argc, char **argv)
{
	static char name[64];
	const struct cmd *c;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish_stdout();
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("bench (kstats-bench) %s\n", BENCH_VERSION);
		return finish_stdout();
	}
	for_each_cmd(c) {
		if (strcmp(argv[1], c->name))
			continue;
		snprintf(name, sizeof(name), "bench %s", c->name);
		prog = name;
		argv[1] = name;
		return c->fn(argc - 1, argv + 1);
	}
	usage_err("'%s' is not a command", argv[1]);
	return EXIT_USAGE;
}
