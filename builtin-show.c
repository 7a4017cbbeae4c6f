// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-show.c - bench show: a kstats-bench CSV printed again as the
 * command that wrote it printed it, or one of its series, or the value
 * of one of its metadata keys (--meta), what scripts read a file's
 * metadata by.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lib/results/csv.h"
#include "lib/results/fileset.h"
#include "lib/report/format.h"
#include "lib/report/kcidb.h"
#include "lib/subcmd/outset.h"
#include "lib/results/results.h"
#include "lib/measure/topo.h"

/* ---- bench show ---- */

struct show_opts {
	const char *workload;		/* -w, NULL: the file's first */
	const char *variant;		/* -v, NULL: the workload's first */
	const char *cpu;		/* -c, a number or "all"; NULL: all */
	unsigned int run;		/* -r, a run number or RESULTS_RUN_ALL */
	bool pick;			/* -w, -v, -r or -c: one series */
	int format;			/* -f, an index of formats[] */
	const char *origin;		/* --origin, for -f kcidb; NULL: its default */
	struct outset also;		/* --also FMT=FILE */
	const char *meta;		/* --meta KEY: its value alone */
};

/* --meta KEY: a key's name, [a-z0-9_]+ */
static int show_key(const struct opt *o, const char *arg, char *why, size_t len)
{
	size_t n = strlen(arg);

	if (!n || n >= META_KEY || strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_") != n) {
		snprintf(why, len, "--%s: '%s' is not a metadata key ([a-z0-9_]+, at most %d bytes)",
			 o->long_name, arg, META_KEY - 1);
		return -EINVAL;
	}
	*(const char **)o->value = arg;
	return 0;
}

/* -c N|all: kept as given, checked here */
static int show_cpu(const struct opt *o, const char *arg, char *why, size_t len)
{
	uint64_t cpu;

	*(const char **)o->value = arg;
	if (!strcmp(arg, "all"))
		return 0;
	return opt_parse_u64(o, arg, 0, NR_CPUS_MAX - 1, &cpu, why, len);
}

/* -r N|all */
static int show_run(const struct opt *o, const char *arg, char *why, size_t len)
{
	uint64_t run = RESULTS_RUN_ALL;
	int ret = 0;

	if (strcmp(arg, "all"))
		ret = opt_parse_u64(o, arg, 1, RESULTS_MAX_RUNS, &run, why, len);
	*(unsigned int *)o->value = (unsigned int)run;
	return ret;
}

static const char show_head[] =
	"Usage: bench show [OPTIONS] FILE.csv|-\n"
	"       bench show --meta KEY FILE.csv|-\n"
	"Print a kstats-bench CSV as the command that wrote it printed it: by default\n"
	"the whole file (bench run's titles, tables and SUMMARY; a file of one series,\n"
	"as bench hist's, its table alone), byte for byte. -w, -v, -r or -c pick one\n"
	"series: its table alone (defaults: the file's first workload, its first\n"
	"variant, merged over runs and CPUs). --meta KEY prints the value of the\n"
	"file's metadata line \"# KEY: VALUE\" alone, checked by the keys' table (a\n"
	"count in its range, a number, yes or no), of a results file or a CSV report\n"
	"of compare, trend or scale: what scripts read metadata by. - reads stdin.\n";

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int show_parse(int argc, char **argv, struct show_opts *o)
{
	const struct opt opts[] = {
		OPT_STRING('w', "workload", &o->workload, "WORKLOAD",
			   "the workload (default: the file's first)"),
		OPT_STRING('v', "variant", &o->variant, "VARIANT",
			   "old, new, reference, ... (default: its first)"),
		OPT_CALL('r', "run", &o->run, show_run, "RUN|all",
			 "run N alone (files of bench run -R R), or all\n"
			 "(default)"),
		OPT_CALL('c', "cpu", &o->cpu, show_cpu, "CPU|all",
			 "one CPU's rows, or all merged (default)"),
		OPT_FORMAT('f', "format", &o->format, formats, "FMT", "what goes to stdout:"),
		OPT_ALSO(&o->also),
		OPT_ORIGIN(&o->origin, kcidb_opt_origin, ""),
		OPT_CALL(0, "meta", &o->meta, show_key, "KEY",
			 "print metadata KEY's value alone (exit 2 when the\n"
			 "file has none, or one its table refuses)"),
		OPT_END()
	};
	const struct opt *tab[] = { opts, NULL };
	struct opt_parser p = { .tab = tab };
	int ret = bench_options(&p, show_head,
		"Exit: 0 done, 2 bad usage or input (the message names file and line),\n"
		"3 the report could not be written (or memory ran out).\n",
		argc, argv);

	if (ret)
		return ret;
	if (argc - optind != 1) {
		bench_err("needs exactly one CSV file");
		return -1;
	}
	o->pick = o->workload || o->variant || o->cpu || o->run != RESULTS_RUN_ALL;
	if (o->meta && (o->pick || o->also.n || o->origin)) {
		bench_err("--meta prints one value: no -w, -v, -r, -c, --also or --origin with it");
		return -1;
	}
	return 0;
}

/* the first merged series of @wl in @r (its first variant), or NULL */
static const char *show_first_variant(const struct results *r, const char *wl)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->s[i].cpu < 0 && !strcmp(r->s[i].workload, wl))
			return r->s[i].variant;
	return NULL;
}

/*
 * -w, -v, -r, -c: the one series into a set of its own, *@one, with the
 * file's metadata. EXIT_DONE, or EXIT_USAGE / EXIT_ENV after a message.
 */
static int show_pick(const struct results *r, struct show_opts *o, const char *path,
		     struct results **one)
{
	int cpu = o->cpu && strcmp(o->cpu, "all") ? atoi(o->cpu) : RESULTS_CPU_ALL;
	const char *wl = o->workload ? o->workload : r->s[0].workload;
	const char *var = o->variant ? o->variant : show_first_variant(r, wl);
	const struct results_series *s = NULL;
	char run[16] = "all";

	if (var)
		s = results_find(r, wl, var, o->run, cpu);
	/* run 1 of a one-run file is its "all" */
	if (!s && var && o->run == 1 && results_nr_runs(r, wl, var) == 1)
		s = results_find(r, wl, var, RESULTS_RUN_ALL, cpu);
	if (!s) {
		if (o->run)
			snprintf(run, sizeof(run), "%u", o->run);
		pr_err("%s: no rows for workload %s, variant %s, run %s, cpu %s",
		       path, wl, var ? var : "(none)", run, o->cpu ? o->cpu : "all");
		return EXIT_USAGE;
	}
	*one = results_one(r, s);
	return *one ? EXIT_DONE : bench_nomem();
}

/* -f kcidb or --also kcidb=FILE: --origin goes into the metadata */
static bool show_kcidb(const struct show_opts *o)
{
	unsigned int i;

	for (i = 0; i < o->also.n; i++)
		if (!strcmp(formats[o->also.a[i].fmt].name, "kcidb"))
			return true;
	return !strcmp(formats[o->format].name, "kcidb");
}

/* --meta KEY: the value of @path's metadata line KEY, checked; an exit code */
static int show_meta(const char *key, const char *path)
{
	static struct meta m;
	struct csv_error err;
	const char *v;
	char why[320];
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int ret;

	if (!f) {
		pr_err("%s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	ret = csv_read_meta(f, &m, &err);
	if (f != stdin)
		fclose(f);
	if (ret == -ENOMEM)
		return bench_nomem();
	if (ret == -EINVAL) {
		pr_err("%s:%lu: %s", path, err.line, err.why);
		return EXIT_USAGE;
	}
	if (ret) {
		pr_err("%s: %s", path, strerror(-ret));
		return EXIT_USAGE;
	}
	v = meta_get(&m, key);
	if (!v) {
		pr_err("%s: no %s metadata", path, key);
		return EXIT_USAGE;
	}
	if (meta_check(key, v, why, sizeof(why))) {
		pr_err("%s: %s", path, why);
		return EXIT_USAGE;
	}
	printf("%s\n", v);
	return bench_finish_stdout();
}

int cmd_show(int argc, char **argv)
{
	struct show_opts o = {
		.run = RESULTS_RUN_ALL, .format = FORMAT_TABLE, .also = OUTSET_INIT(formats),
	};
	struct results *r, *one = NULL;
	struct fileset fs = { 0 };
	int ret;

	ret = show_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (o.meta)
		return show_meta(o.meta, argv[optind]);
	ret = bench_outputs(argv + optind, 1, NULL, &o.also) ?: bench_open_also(&o.also);
	if (ret)
		return ret;
	ret = bench_load_file(&fs, argv[optind], 0, &r);
	if (ret) {
		outset_abort(&o.also);
		return ret;
	}
	if (o.pick)
		ret = show_pick(r, &o, argv[optind], &one);
	/* the kcidb writer reads it there; no other format sees the key */
	if (!ret && o.origin && show_kcidb(&o))
		meta_put(one ? &one->meta : &r->meta, KCIDB_META_ORIGIN, "%s", o.origin);
	if (!ret)
		ret = bench_report(NULL, NULL, (unsigned int)o.format, &o.also, one ? one : r);
	outset_abort(&o.also);
	results_free(one);
	results_free(r);
	return ret;
}
