// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-sweep.c - bench sweep: bench run once per power of two of
 * possible CPUs, each a fresh process, then bench scale -f sweep of the
 * points: what ./run.sh sweep calls. Its own options (--from, --to, -o)
 * and bench run's come mixed on one command line; every word that is not
 * one of its own goes to each bench run, checked first by bench run's
 * own parse (bench_check_cmd()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "lib/measure/topo.h"
#include "lib/subcmd/readfile.h"
#include "lib/subcmd/spawn.h"

/* the counts at most: 1, 2, 4 ... NR_CPUS_MAX */
#define SWEEP_MAX_POINTS	14
/* bench run's words at most */
#define SWEEP_MAX_WORDS		64

struct sweep_global {
	/* configuration: defaults in sweep_defaults(), then sweep_opts[] */
	uint64_t from;			/* --from: the first count */
	uint64_t to;			/* --to: the last at most */
	const char *output;		/* -o DIR */
	bool quiet;			/* -q: no line per point */

	/* run state */
	char *run[SWEEP_MAX_WORDS + 1];	/* bench run's words, NULL-ended */
	int nrun;
	char bench[PATH_MAX];		/* the bench the children run */
	int signo;			/* the SIGINT/SIGTERM passed on, or 0 */
};

static struct sweep_global sweep_global;

static void sweep_defaults(struct sweep_global *g)
{
	g->from = 64;
	g->to = 4096;
	g->output = ".";
}

static const char sweep_head[] =
	"Usage: bench sweep [--from N] [--to N] [-o DIR] [BENCH RUN OPTIONS]\n"
	"Run bench run once per power of two of possible CPUs from --from to --to,\n"
	"each in a fresh process, into DIR/sweep-N.csv and its table DIR/sweep-N.txt,\n"
	"then bench scale -f sweep of them into DIR/sweep.csv (a row per point: its\n"
	"possible CPUs, each variant's mean, p50 and p99), printed as a table.\n"
	"Every option not below is bench run's, checked before the first run, but\n"
	"its -p: the sweep sets the possible CPUs.\n";

static const struct opt sweep_opts[] = {
	OPT_U64(0, "from", &sweep_global.from, 1, NR_CPUS_MAX, "N",
		"the first count of possible CPUs, 1.." BENCH_STR(NR_CPUS_MAX) " (default 64)"),
	OPT_U64(0, "to", &sweep_global.to, 1, NR_CPUS_MAX, "N",
		"the last at most, 1.." BENCH_STR(NR_CPUS_MAX) " (default 4096), 2 x --from\n"
		"or more: a sweep needs two counts"),
	OPT_STRING('o', "output", &sweep_global.output, "DIR",
		   "where the files go (default .)"),
	OPT_FLAG('q', "quiet", &sweep_global.quiet, "no line per point on stderr"),
	OPT_END()
};

/* the entry of sweep_opts[] that @w names ("--from", "--from=64", "-o", "-oDIR"), or NULL */
static const struct opt *sweep_own(const char *w)
{
	const struct opt *o;
	size_t n;

	for (o = sweep_opts; o->type != OPT_T_END; o++) {
		if (w[0] == '-' && w[1] && w[1] == o->short_name)
			return o;
		n = strlen(o->long_name);
		if (!strncmp(w, "--", 2) && !strncmp(w + 2, o->long_name, n) &&
		    (!w[n + 2] || w[n + 2] == '='))
			return o;
	}
	return NULL;
}

/*
 * @argv split: the words of sweep's own options (and --help, --list-*)
 * into @own (argv[0] first, @nown), every other into @g->run. 0, or -1
 * after a message.
 */
static int sweep_split(struct sweep_global *g, int argc, char **argv, char **own, int *nown)
{
	const struct opt *o;
	int i;

	own[(*nown)++] = argv[0];
	for (i = 1; i < argc; i++) {
		o = sweep_own(argv[i]);
		if (o || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") ||
		    !strncmp(argv[i], "--list-", 7)) {
			own[(*nown)++] = argv[i];
			/* its value, unless it came in the same word */
			if (o && o->argh && i + 1 < argc && !strchr(argv[i], '=') &&
			    (argv[i][1] == '-' || !argv[i][2]))
				own[(*nown)++] = argv[++i];
			continue;
		}
		if (g->nrun == SWEEP_MAX_WORDS) {
			bench_err("more than %d options for bench run", SWEEP_MAX_WORDS);
			return -1;
		}
		g->run[g->nrun++] = argv[i];
	}
	own[*nown] = NULL;
	g->run[g->nrun] = NULL;
	return 0;
}

/* bench run's words, checked by its own parse, without -p: 0 or -1 after a message */
static int sweep_check_run(struct sweep_global *g)
{
	char *argv[SWEEP_MAX_WORDS + 2] = { "run" }, why[512], p[32];
	int i;

	for (i = 0; i < g->nrun; i++)
		argv[i + 1] = g->run[i];
	argv[i + 1] = NULL;
	if (bench_check_value(g->nrun + 1, argv, "--possible-cpus", p, sizeof(p), why,
			      sizeof(why))) {
		bench_err("%s", why);
		return -1;
	}
	/* bench run's 0: not given, the real count */
	if (*p && strcmp(p, "0")) {
		bench_err("--possible-cpus: the sweep sets it, from --from to --to");
		return -1;
	}
	return 0;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int sweep_parse(struct sweep_global *g, int argc, char **argv)
{
	char *own[2 * SWEEP_MAX_WORDS + 2];
	const struct opt *tab[] = { sweep_opts, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_NO_OPERANDS };
	int nown = 0, ret;

	if (argc > 2 * SWEEP_MAX_WORDS) {
		bench_err("%d words: at most %d", argc - 1, 2 * SWEEP_MAX_WORDS);
		return -1;
	}
	if (sweep_split(g, argc, argv, own, &nown))
		return -1;
	ret = bench_options(&p, sweep_head,
		"Exit: 0 done, 2 bad usage (a bad range, an option bench run refuses),\n"
		"3 the environment refused; otherwise the exit code of the bench run or\n"
		"bench scale that failed (130/143 interrupted: the points before it are kept).\n",
		nown, own);
	if (ret)
		return ret;
	if (g->from > g->to) {
		bench_err("--from %lu is above --to %lu", (unsigned long)g->from,
			  (unsigned long)g->to);
		return -1;
	}
	if (g->from * 2 > g->to) {
		bench_err("--from %lu --to %lu: a sweep needs two counts or more (--to at least 2 x --from)",
			  (unsigned long)g->from, (unsigned long)g->to);
		return -1;
	}
	return sweep_check_run(g);
}

/* @argv to its end, its stdout onto @out_fd (-1: ours); its exit code */
static int sweep_spawn(struct sweep_global *g, char *const *argv, int out_fd)
{
	struct spawn s = { .argv = argv, .out_fd = out_fd, .err_fd = -1,
			   .flags = SPAWN_GROUP | SPAWN_NULL_STDIN };
	int ret = spawn_start(&s);

	if (ret)
		return bench_refused("%s: %s", argv[0], strerror(-ret));
	ret = bench_wait_child(&s, &g->signo, NULL, NULL);
	if (ret < 0)
		return bench_refused("waiting for %s: %s", argv[0], strerror(-ret));
	return ret;
}

/* one point: bench run at @p possible CPUs into DIR/sweep-P.csv and .txt */
static int sweep_point(struct sweep_global *g, unsigned long p, char *csv, size_t len)
{
	char *argv[SWEEP_MAX_WORDS + 12] = { g->bench, "run", "-q", "-o", csv, "--also" };
	char txt[PATH_MAX + 16], count[24];
	int null, n = 6, i, ret;

	snprintf(csv, len, "%s/sweep-%lu.csv", g->output, p);
	snprintf(txt, sizeof(txt), "table=%s/sweep-%lu.txt", g->output, p);
	snprintf(count, sizeof(count), "%lu", p);
	argv[n++] = txt;
	argv[n++] = "--possible-cpus";
	argv[n++] = count;
	for (i = 0; i < g->nrun; i++)
		argv[n++] = g->run[i];
	argv[n] = NULL;
	if (!g->quiet)
		pr_err("%lu possible CPUs", p);
	/* its table is in sweep-P.txt: nothing on the terminal */
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ret = sweep_spawn(g, argv, null);
	if (null >= 0)
		close(null);
	return ret;
}

/* DIR/sweep.csv's rows (its "# unit:" line aside), the columns aligned */
static int sweep_print(const char *path)
{
	struct readfile_lines r;
	unsigned int w[16] = { 0 }, c;
	FILE *f = fopen(path, "r");
	char *p, *q;
	int ret, pass;

	if (!f)
		return bench_refused("%s: %s", path, strerror(errno));
	for (pass = 0; pass < 2; pass++) {
		rewind(f);
		readfile_lines_init(&r, f, 4096);
		while ((ret = readfile_lines_next(&r)) > 0) {
			if (r.line[0] == '#')
				continue;
			for (c = 0, p = r.line; p && c < 16; c++, p = q ? q + 1 : NULL) {
				q = strchr(p, ',');
				if (!pass && (unsigned int)(q ? q - p : (long)strlen(p)) > w[c])
					w[c] = (unsigned int)(q ? q - p : (long)strlen(p));
				if (pass)
					printf("%-*.*s%s", q ? (int)w[c] + 2 : 0,
					       q ? (int)(q - p) : (int)strlen(p), p, q ? "" : "\n");
			}
		}
		readfile_lines_free(&r);
	}
	fclose(f);
	return ret ? bench_refused("%s: %s", path, strerror(-ret)) : bench_finish_stdout();
}

static int sweep_main(struct sweep_global *g)
{
	static char csv[SWEEP_MAX_POINTS][PATH_MAX];
	char *argv[SWEEP_MAX_POINTS + 8] = { g->bench, "scale", "-o", NULL, "-f", "sweep" };
	char out[PATH_MAX];
	unsigned long p;
	int n = 0, ret = 0;

	if (mkdir(g->output, 0755) && errno != EEXIST)
		return bench_refused("%s: %s", g->output, strerror(errno));
	for (p = g->from; p <= g->to && !ret; p *= 2) {
		ret = sweep_point(g, p, csv[n], sizeof(csv[n]));
		argv[6 + n] = csv[n];
		n++;
	}
	if (ret)
		return ret;
	/* one row per point, bench scale's sweep format */
	snprintf(out, sizeof(out), "%s/sweep.csv", g->output);
	argv[3] = out;
	argv[6 + n] = NULL;
	ret = sweep_spawn(g, argv, -1);
	return ret ?: sweep_print(out);
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_global *g = &sweep_global;
	int ret;

	bench_wait_signals();
	sweep_defaults(g);
	ret = sweep_parse(g, argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	ret = bench_child_exe(g->bench, sizeof(g->bench)) ?: sweep_main(g);
	return g->signo && !ret ? 128 + g->signo : ret;
}
