// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - kstats-bench: main(), the subcommand registry, and the
 * messages and the option parsing every subcommand shares (bench.h).
 * The subcommands live in builtin-*.c, as perf's do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "build/version.h"	/* BENCH_GIT, written by the Makefile */
#include "lib/report/csv.h"
#include "lib/report/fileset.h"
#include "lib/report/format.h"
#include "lib/report/iopath.h"
#include "lib/report/kcidb.h"
#include "lib/report/outfile.h"
#include "lib/report/outset.h"
#include "lib/report/results.h"
#include "lib/report/strata.h"
#include "lib/report/testbed.h"
#include "lib/kernel/spawn.h"

#define BENCH_VERSION	"0.1.0"

const char bench_release[] = BENCH_VERSION;
const char bench_git[] = BENCH_GIT;

/* ---- subcommand registry ---- */

struct cmd {
	const char *name;	/* word after "bench" */
	const char *summary;	/* one line for `bench --help` */
	int (*fn)(int argc, char **argv);	/* returns an exit code */
	/* parse-only, for bench_check_cmd(): 0 or -EINVAL with why; NULL: none */
	int (*check)(int argc, char **argv, char *why, size_t len);
};

static const struct cmd cmds[] = {
	{ "run", "time a workload's old and new paths on pinned workers",
	  cmd_run, cmd_run_check },
	{ "list", "list the workloads and the audit's entries", cmd_list, NULL },
	{ "audit", "time a battery of kernel entry points that may pay per possible CPU",
	  cmd_audit, cmd_audit_check },
	{ "calibrate", "TSC frequency, clocksource, per-CPU timer overhead",
	  cmd_calibrate, NULL },
	{ "compare", "compare a before and an after CSV: the CI regression gate",
	  cmd_compare, NULL },
	{ "trend", "change points over a history of results: the nightly job",
	  cmd_trend, NULL },
	{ "scale", "the cost per possible CPU of each series over a sweep, and its gate",
	  cmd_scale, NULL },
	{ "show", "print a CSV again as its command printed it, or one series",
	  cmd_show, NULL },
	{ "hist", "print the kstats table of a list of integer samples",
	  cmd_hist, NULL },
	{ "kernel", "time the same code inside the running kernel (module, root)",
	  cmd_kernel, cmd_kernel_check },
	{ "trace", "time any kernel function with BPF into kstats tables (root)",
	  cmd_trace, cmd_trace_check },
	{ "vm", "boot kernels under test in qemu, many possible CPUs, run bench in each",
	  cmd_vm, NULL },
	{ "merge", "join the shards of a bench vm plan into the files of one run",
	  cmd_merge, NULL },
	{ "doctor", "check this host for what makes timings noisy; changes nothing",
	  cmd_doctor, NULL },
	{ NULL, NULL, NULL, NULL },
};

#define for_each_cmd(c) for ((c) = cmds; (c)->name; (c)++)

int bench_check_cmd(int argc, char **argv, char *why, size_t len)
{
	const struct cmd *c;

	for_each_cmd(c)
		if (!strcmp(c->name, argv[0]))
			return c->check ? c->check(argc, argv, why, len) : 0;
	return 0;
}

int bench_check_parse(struct opt_parser *p, int argc, char **argv, char *why, size_t len)
{
	int ret;

	p->flags |= OPT_CHECK_ONLY;
	ret = opt_parse(p, argc, argv);
	if (ret < 0)
		snprintf(why, len, "%s", ret == -EINVAL ? p->why : strerror(-ret));
	return ret < 0 ? -EINVAL : 0;
}

/* ---- messages and option helpers ---- */

const char *bench_prog = "bench";	/* "bench CMD" once a command runs */

/* "bench CMD: <fmt><tail>" and a newline on stderr */
static void bench_vmsg(const char *tail, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", bench_prog);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "%s\n", tail);
}

void bench_err(const char *fmt, ...)
{
	char tail[96];
	va_list ap;

	snprintf(tail, sizeof(tail), " (see '%s --help')", bench_prog);
	va_start(ap, fmt);
	bench_vmsg(tail, fmt, ap);
	va_end(ap);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bench_vmsg("", fmt, ap);
	va_end(ap);
}

int bench_refused(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bench_vmsg("", fmt, ap);
	va_end(ap);
	return EXIT_ENV;
}

void bench_cmdline(char *buf, size_t len, int argc, char **argv)
{
	int i;

	/* argv[0] is "bench CMD", two words: the rest quoted as sh needs */
	snprintf(buf, len, "%s", argv[0]);
	for (i = 1; i < argc && !spawn_sh_append(buf, len, argv[i]); i++)
		;
}

int bench_operand_sep(int argc, char **argv, const char *sides)
{
	int i, sep = -1;

	/* getopt took a leading "--" as the end of the options: no first side */
	if (optind > 1 && !strcmp(argv[optind - 1], "--"))
		sep = optind - 1;
	for (i = optind; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--")) {
			bench_err("'%s': options go before the files", argv[i]);
			return -2;
		}
		if (strcmp(argv[i], "--"))
			continue;
		if (sep >= 0) {
			bench_err("'--' twice: one separates %s", sides);
			return -2;
		}
		sep = i;
	}
	return sep;
}

int bench_options(struct opt_parser *p, const char *head, const char *tail,
		  int argc, char **argv)
{
	int ret;

	if (argc == 2 && !strcmp(argv[1], "--list-opts")) {
		opt_list(stdout, p->tab);
		return 1;
	}
	ret = opt_parse(p, argc, argv);
	if (ret == 1) {
		fputs(head, stdout);
		putchar('\n');
		opt_help(stdout, p->tab);
		if (tail)
			printf("\n%s", tail);
		return 1;
	}
	if (ret)
		bench_err("%s", ret == -EINVAL ? p->why : strerror(-ret));
	return ret ? -1 : 0;
}

/* ---- the testbed and who wrote a result ---- */

/* --label KEY=VALUE, in the order given */
static struct tb_labels bench_labels;

int bench_opt_label(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct tb_labels scratch = { 0 };

	return testbed_label(o->check_only ? &scratch : &bench_labels, arg, why, len);
}

/* --origin NAME, or NULL: KCIDB_ORIGIN where -f kcidb needs one */
static const char *bench_origin;

int bench_opt_origin(const struct opt *o, const char *arg, char *why, size_t len)
{
	const char *scratch;
	const struct opt at = { .value = o->check_only ? &scratch : &bench_origin };

	return kcidb_opt_origin(&at, arg, why, len);
}

void bench_meta_origin(struct meta *m)
{
	testbed_origin(m, bench_release, bench_git, &bench_labels);
	if (bench_origin)
		meta_put(m, KCIDB_META_ORIGIN, "%s", bench_origin);
}

int bench_testbed(struct testbed *tb)
{
	const char *root = getenv("KSB_TESTBED_ROOT");

	if (!testbed_read(tb, root && *root ? root : NULL))
		return 0;
	pr_err("KSB_TESTBED_ROOT: %s: not a directory", root);
	return EXIT_USAGE;
}

/* Flush stdout and report a failed write (disk full, closed pipe). */
int bench_finish_stdout(void)
{
	if (!fflush(stdout) && !ferror(stdout))
		return EXIT_DONE;
	/* the reader went away (bench run | head): not an error of ours */
	if (errno == EPIPE)
		return EXIT_DONE;
	pr_err("writing standard output: %s", strerror(errno));
	return EXIT_ENV;
}

/*
 * the model of each of @also's files: @r, or for FMT:VARIANT that
 * variant's series alone (the first workload's, merged), into @one[i].
 * EXIT_DONE, or EXIT_USAGE / EXIT_ENV after a message.
 */
static int bench_picks(const struct outset *also, const struct results *r, const void **m,
		       struct results **one)
{
	const struct outset_file *a;
	const struct results_series *s;
	unsigned int i;

	for (i = 0; also && i < also->n; i++) {
		a = &also->a[i];
		m[i] = r;
		if (!a->pick[0])
			continue;
		s = r->n ? results_find(r, r->s[0].workload, a->pick, RESULTS_RUN_ALL,
					RESULTS_CPU_ALL) : NULL;
		if (!s) {
			pr_err("--also %s:%s=%s: the results have no variant %s",
			       also->t[a->fmt].name, a->pick, a->path, a->pick);
			return EXIT_USAGE;
		}
		one[i] = results_one(r, s);
		if (!one[i]) {
			pr_err("%s", strerror(ENOMEM));
			return EXIT_ENV;
		}
		m[i] = one[i];
	}
	return EXIT_DONE;
}

/* -o's CSV committed: EXIT_DONE or EXIT_ENV after a message */
static int bench_commit_csv(struct outfile *out, const char *path, bool csv_stdout,
			    const struct results *r)
{
	int ret;

	/* commit returns the writer's errors, errno and all */
	csv_write(out->f, r);
	ret = outfile_commit(out);
	if (ret == -EPIPE && csv_stdout)
		ret = 0;	/* -o - | head, as bench run | head */
	if (!ret)
		return EXIT_DONE;
	pr_err("writing %s: %s", path, strerror(-ret));
	return EXIT_ENV;
}

/* the report and the --also ones: EXIT_DONE or EXIT_ENV after a message */
static int bench_write(FILE *f, unsigned int fmt, struct outset *also, const void *const *m,
		       const struct results *r)
{
	char why[8192];
	int ret;

	ret = format_write(f, fmt, r);
	if (ret == -ENOMEM) {
		outset_abort(also);
		pr_err("%s", strerror(ENOMEM));
		return EXIT_ENV;
	}
	ret = outset_write_each(also, m, why, sizeof(why));
	if (ret) {
		pr_err("--also %s", why);
		return EXIT_ENV;
	}
	return EXIT_DONE;
}

int bench_report(struct outfile *out, const char *path, unsigned int fmt, struct outset *also,
		 const struct results *r)
{
	/* with -o - the CSV has stdout, the report goes to stderr */
	bool csv_stdout = path && out->how == OUTFILE_STDOUT;
	struct results *one[OUTSET_MAX] = { NULL };
	struct outset none = OUTSET_INIT(formats);
	const void *m[OUTSET_MAX];
	unsigned int i;
	int ret;

	if (!also)
		also = &none;
	ret = bench_picks(also, r, m, one);
	if (!ret && path)
		ret = bench_commit_csv(out, path, csv_stdout, r);
	if (!ret)
		ret = bench_write(csv_stdout ? stderr : stdout, fmt, also, m, r);
	if (ret) {
		if (path)
			outfile_abort(out);
		outset_abort(also);
	}
	for (i = 0; i < also->n; i++)
		results_free(one[i]);
	return ret ?: bench_finish_stdout();
}

/*
 * csv and json: one document; kcidb's are a stream of KCIDB reports
 * (kcidb's tools read such a stream, and kcidb-merge makes it one)
 */
static bool bench_one_doc(int fmt)
{
	return fmt == FORMAT_CSV || !strcmp(formats[fmt].name, "json");
}

int bench_one_document(int fmt, const struct outset *also, const char **opt)
{
	unsigned int i;

	*opt = "-f";
	if (bench_one_doc(fmt))
		return fmt;
	*opt = "--also";
	for (i = 0; i < also->n; i++)
		if (bench_one_doc(also->a[i].fmt))
			return also->a[i].fmt;
	return -1;
}

int bench_open_outputs(char *const *in, unsigned int nin, struct outfile *out,
		       const char *path, struct outset *also)
{
	int ret = bench_outputs(in, nin, path, also);

	if (ret)
		return ret;
	if (path && (ret = outfile_open(out, path))) {
		bench_err("--output: %s: %s", path, strerror(-ret));
		return EXIT_USAGE;
	}
	ret = bench_open_also(also);
	if (ret && path)
		outfile_abort(out);
	return ret;
}

int bench_commit_also(struct outset *also)
{
	char why[PATH_MAX + 128];

	if (!outset_commit(also, why, sizeof(why)))
		return EXIT_DONE;
	pr_err("--also %s", why);
	return EXIT_ENV;
}

int bench_open_also(struct outset *also)
{
	char why[PATH_MAX + 128];

	if (!outset_open(also, why, sizeof(why)))
		return EXIT_DONE;
	pr_err("--also %s", why);
	return EXIT_USAGE;
}

/* an lib/report/iopath.h refusal: its line and EXIT_USAGE, or EXIT_ENV */
static int bench_iopath_err(int ret, const char *why)
{
	if (!ret)
		return EXIT_DONE;
	pr_err("%s", ret == -EINVAL ? why : strerror(-ret));
	return ret == -EINVAL ? EXIT_USAGE : EXIT_ENV;
}

int bench_outputs(char *const *in, unsigned int nin, const char *output,
		  const struct outset *also)
{
	struct iopath out[OUTSET_MAX + 1];
	unsigned int n = 0, i;
	char why[8192];

	if (output)
		out[n++] = (struct iopath){ "-o", output };
	for (i = 0; also && i < also->n; i++)
		out[n++] = (struct iopath){ "--also", also->a[i].path };
	return bench_iopath_err(iopath_check((const char *const *)in, nin, out, n, why,
					     sizeof(why)), why);
}

int bench_inputs_once(char *const *in, unsigned int nin)
{
	char why[8192];

	return bench_iopath_err(iopath_dup((const char *const *)in, nin, why, sizeof(why)),
				why);
}

int bench_load_file(struct fileset *fs, const char *path, unsigned int group,
		    struct results **r)
{
	char why[PATH_MAX + 512];
	int ret = fileset_read(fs, path, group, r, why, sizeof(why));

	if (ret) {
		pr_err("%s", why);
		return ret == -ENOMEM ? EXIT_ENV : EXIT_USAGE;
	}
	if (results_partial(*r))
		pr_err(FILESET_PARTIAL_WARNING, path);
	return EXIT_DONE;
}

int bench_one_class(struct results *const *const *set, char *const *const *path,
		    const unsigned int *n, unsigned int nsides, bool pool)
{
	const struct meta **m;
	const char **p;
	char why[1024];
	unsigned int k, i, all = 0;
	int ret;

	for (k = 0; k < nsides; k++)
		all += n[k];
	if (pool || !all)
		return EXIT_DONE;
	m = calloc(all, sizeof(*m));
	p = calloc(all, sizeof(*p));
	ret = m && p ? 0 : -ENOMEM;
	for (k = 0, all = 0; !ret && k < nsides; k++)
		for (i = 0; i < n[k]; i++, all++) {
			m[all] = &set[k][i]->meta;
			p[all] = path[k][i];
		}
	if (!ret)
		ret = strata_check(m, p, all, why, sizeof(why));
	free(m);
	free(p);
	if (ret == -ENOMEM)
		return bench_refused("%s", strerror(ENOMEM));
	if (ret)
		pr_err("%s", why);
	return ret ? EXIT_USAGE : EXIT_DONE;
}

int bench_wait(const struct bench_wait *w)
{
	struct timespec tick = { w->tick_ms / 1000, w->tick_ms % 1000 * 1000000 };
	/* KSB_PROGRESS=1: one progress line per tick, terminal or not (tests wait on them) */
	bool lines = getenv("KSB_PROGRESS") != NULL;
	bool tty = !w->quiet && w->progress && (lines || isatty(STDERR_FILENO));
	sigset_t set;
	int sig, ret;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (w->wake)
		sigaddset(&set, w->wake);
	while (!(ret = w->poll(w->priv))) {
		if (tty) {
			fputs(lines ? "" : "\r", stderr);
			w->progress(w->priv);
			fputs(lines ? "\n" : "", stderr);
		}
		sig = sigtimedwait(&set, NULL, &tick);
		if (sig != SIGINT && sig != SIGTERM)
			continue;
		if (*w->signo) {
			w->leave(w->priv);
			_exit(128 + sig);
		}
		*w->signo = sig;
		w->stop(w->priv, sig);
	}
	if (tty && !lines)
		fprintf(stderr, "\r%60s\r", "");
	return ret < 0 ? ret : 0;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "Usage: bench [--help | --version | --list-cmds | --list-opts COMMAND]\n"
		   "       bench COMMAND [OPTIONS]\n"
		   "kstats-bench: kstats latency histograms of kernel code paths.\n\n"
		   "Commands:\n");
	for_each_cmd(c)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'bench COMMAND --help' describes one command.\n"
		   "Exit: 0 done, 1 regression (compare, trend, scale), 2 bad usage or input,\n"
		   "3 the environment refused, 130/143 interrupted.\n");
}

int main(int argc, char **argv)
{
	static char name[64];
	const struct cmd *c;

	/* a closed stdout is an EPIPE for bench_finish_stdout(), not a kill */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return bench_finish_stdout();
	}
	if (!strcmp(argv[1], "--list-cmds") && argc == 2) {
		for_each_cmd(c)
			puts(c->name);
		return bench_finish_stdout();
	}
	/* --list-opts CMD: CMD's own parser lists its table, as CMD --list-opts */
	if (!strcmp(argv[1], "--list-opts") && argc == 3) {
		argv[1] = argv[2];
		argv[2] = "--list-opts";
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("bench (kstats-bench) %s (git %s)\n", bench_release, bench_git);
		return bench_finish_stdout();
	}
	for_each_cmd(c) {
		if (strcmp(argv[1], c->name))
			continue;
		snprintf(name, sizeof(name), "bench %s", c->name);
		bench_prog = name;
		argv[1] = name;
		return c->fn(argc - 1, argv + 1);
	}
	bench_err("'%s' is not a command", argv[1]);
	return EXIT_USAGE;
}
