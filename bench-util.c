// SPDX-License-Identifier: GPL-2.0
/*
 * bench-util.c - what every subcommand shares (bench.h): the messages,
 * the option parsing, the outputs and inputs, the waits. The registry
 * in bench.c calls the subcommands in builtin-*.c, and they call these;
 * nothing here calls back into either.
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
#include "lib/results/csv.h"
#include "lib/results/fileset.h"
#include "lib/report/format.h"
#include "lib/subcmd/iopath.h"
#include "lib/report/kcidb.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/outset.h"
#include "lib/results/results.h"
#include "lib/results/strata.h"
#include "lib/host/testbed.h"
#include "lib/measure/engine.h"
#include "lib/subcmd/spawn.h"

/* ---- the checks' parse, for bench_check_value() in bench.c ---- */

/* bench_check_value()'s request: the value of one option after the check */
static struct {
	const char *word;	/* "--cpus"; NULL: none asked */
	char *buf;		/* its value, "" when not given */
	size_t len;		/* bytes of buf */
} bench_peek;

void bench_check_peek(const char *word, char *buf, size_t len)
{
	bench_peek.word = word;
	bench_peek.buf = buf;
	bench_peek.len = len;
}

int bench_check_parse(struct opt_parser *p, int argc, char **argv, char *why, size_t len)
{
	int ret;

	p->flags |= OPT_CHECK_ONLY;
	ret = opt_parse(p, argc, argv);
	if (ret < 0)
		snprintf(why, len, "%s", ret == -EINVAL ? p->why : strerror(-ret));
	else if (bench_peek.word)
		opt_value(p->tab, bench_peek.word, bench_peek.buf, bench_peek.len);
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

int bench_nomem(void)
{
	return bench_refused("%s", strerror(ENOMEM));
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

int bench_list_words(const struct bench_list *l, int argc, char **argv)
{
	const char *w;
	char said[256];
	int want = 0, i;
	size_t used = 0;

	for (; l->opt && (argc < 2 || strcmp(argv[1], l->opt)); l++)
		;
	if (!l->opt)
		return 0;
	for (w = l->words; *w; w += strcspn(w, " "), w += !!*w)
		want++;
	if (argc - 2 == want)
		return 0;
	/* what was given, to the word at fault */
	for (i = 1; i < argc && i < want + 2 && used < sizeof(said); i++)
		used += (size_t)snprintf(said + used, sizeof(said) - used, "%s%s", i > 1 ? " " : "",
					 argv[i]);
	for (w = l->words, i = 0; i < argc - 2; i++)
		w += strcspn(w, " ") + 1;
	if (argc - 2 < want)
		bench_err("%s: no %s (%s %s)", said, w, l->opt, l->words);
	else
		bench_err("%s: '%s' is one word too many (%s%s%s)", said, argv[want + 2], l->opt,
			  want ? " " : "", l->words);
	return -1;
}

/* the words of completion each command takes (bench.c has the top level's) */
static const struct bench_list bench_cmd_lists[] = {
	{ "--list-opts", "" },
	{ "--list-values", "OPTION" },
	{ "--list-arg", "OPTION" },
	{ NULL, NULL },
};

int bench_options(struct opt_parser *p, const char *head, const char *tail,
		  int argc, char **argv)
{
	int ret;

	if (bench_list_words(bench_cmd_lists, argc, argv))
		return -1;

	if (argc == 2 && !strcmp(argv[1], "--list-opts")) {
		opt_list(stdout, p->tab);
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "--list-values")) {
		if (opt_list_values(stdout, p->tab, argv[2]) != -ENOENT)
			return 1;
		bench_err("'%s' is no option of %s that takes a value", argv[2], bench_prog);
		return -1;
	}
	if (argc == 3 && !strcmp(argv[1], "--list-arg")) {
		if (opt_list_arg(stdout, p->tab, argv[2]) != -ENOENT)
			return 1;
		bench_err("'%s' is no option of %s that takes a value", argv[2], bench_prog);
		return -1;
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

int bench_opt_label(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bench_origin *who = o->value;
	struct tb_labels scratch = { 0 };

	return testbed_label(o->check_only ? &scratch : &who->labels, arg, why, len);
}

int bench_opt_origin(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bench_origin *who = o->value;
	const char *scratch;
	const struct opt at = { .value = o->check_only ? &scratch : &who->origin };

	return kcidb_opt_origin(&at, arg, why, len);
}

void bench_meta_origin(struct meta *m, const struct bench_origin *who)
{
	testbed_origin(m, bench_release, bench_git, &who->labels);
	if (who->origin)
		meta_put(m, KCIDB_META_ORIGIN, "%s", who->origin);
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
	return bench_refused("writing standard output: %s", strerror(errno));
}

int bench_input_err(int ret, const char *why)
{
	if (ret == -ENOMEM)
		return bench_nomem();
	if (ret)
		pr_err("%s", why);
	return ret ? EXIT_USAGE : EXIT_DONE;
}

int bench_also_err(int ret, const char *why)
{
	if (ret == -ENOMEM)
		return bench_nomem();
	return ret ? bench_refused("--also %s", why) : EXIT_DONE;
}

int bench_stdout_failed(int err)
{
	int ret;

	if (err == -ENOMEM)
		return bench_nomem();
	ret = bench_finish_stdout();
	if (ret || ferror(stdout))
		return ret;
	return bench_refused("writing standard output: %s", strerror(-err));
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
		if (!one[i])
			return bench_nomem();
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
	return bench_refused("writing %s: %s", path, strerror(-ret));
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
		return bench_nomem();
	}
	return bench_also_err(outset_write_each(also, m, why, sizeof(why)), why);
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
 * csv and json: one document (REPORT_ONE_DOC); kcidb's reports are a
 * stream, which kcidb's tools read (kcidb-merge makes it one)
 */
static bool bench_one_doc(int fmt)
{
	return formats[fmt].flags & REPORT_ONE_DOC;
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
	return bench_refused("--also %s", why);
}

int bench_open_also(struct outset *also)
{
	char why[PATH_MAX + 128];

	if (!outset_open(also, why, sizeof(why)))
		return EXIT_DONE;
	pr_err("--also %s", why);
	return EXIT_USAGE;
}

/* an lib/subcmd/iopath.h refusal: its line and EXIT_USAGE, or EXIT_ENV */
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

int bench_check_file(struct fileset *fs, const char *path, unsigned int group,
		     const struct results *r)
{
	char why[2 * PATH_MAX + 128];

	if (!fileset_check(fs, path, group, r, why, sizeof(why)))
		return EXIT_DONE;
	pr_err("%s", why);
	return EXIT_USAGE;
}

int bench_load_files(struct fileset *fs, char *const *path, unsigned int n, unsigned int group,
		     struct results ***set)
{
	unsigned int i;
	int ret = 0;

	*set = calloc(n ?: 1, sizeof(**set));
	if (!*set)
		return bench_nomem();
	for (i = 0; i < n && !ret; i++)
		ret = bench_load_file(fs, path[i], group, &(*set)[i]);
	return ret;
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
	return bench_input_err(ret, why);
}

void bench_block_signals(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
}

void bench_wait_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGCHLD, SIG_DFL);
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
			fprintf(stderr, "%s%s: ", lines ? "" : "\r", bench_prog);
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

/* bench_wait() on an engine: done when every worker is */
static int bench_engine_poll(void *priv)
{
	const struct bench_engine_wait *w = priv;

	return !engine_running(w->e);
}

static void bench_engine_stop(void *priv, int sig)
{
	const struct bench_engine_wait *w = priv;

	(void)sig;
	engine_stop(w->e);
}

static void bench_engine_leave(void *priv)
{
	const struct bench_engine_wait *w = priv;

	if (w->out)
		outfile_abort(w->out);
	if (w->also)
		outset_abort(w->also);
}

static void bench_engine_progress(void *priv)
{
	const struct bench_engine_wait *w = priv;

	w->progress(w->priv, engine_progress(w->e));
}

void bench_wait_engine(const struct bench_engine_wait *w)
{
	const struct bench_wait bw = {
		.poll = bench_engine_poll, .stop = bench_engine_stop, .leave = bench_engine_leave,
		.progress = w->progress ? bench_engine_progress : NULL, .priv = (void *)w,
		.tick_ms = w->tick_ms, .quiet = w->quiet, .signo = w->signo,
	};

	bench_wait(&bw);
}

int bench_child_exe(char *path, size_t len)
{
	const char *env = getenv("KSB_BENCH");
	char abs[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		if (realpath(env, abs) && !access(abs, X_OK) &&
		    snprintf(path, len, "%s", abs) < (int)len)
			return EXIT_DONE;
		pr_err("KSB_BENCH: '%s' is not an executable file", env);
		return EXIT_USAGE;
	}
	n = readlink("/proc/self/exe", path, len - 1);
	if (n <= 0)
		return bench_refused("/proc/self/exe: %s", n ? strerror(errno) : "empty");
	path[n] = 0;
	return EXIT_DONE;
}

/* what bench_wait_child() waits on */
struct bench_child {
	struct spawn *s;
	int (*more)(void *priv);	/* 1 while the child's output is still to come */
	void *priv;
};

/* done once the child is reaped and its output has all come */
static int bench_child_poll(void *priv)
{
	struct bench_child *c = priv;
	int more = c->more ? c->more(c->priv) : 0, ret = spawn_poll(c->s, 0);

	return ret < 0 ? ret : ret && !more;
}

static void bench_child_stop(void *priv, int sig)
{
	spawn_kill(((struct bench_child *)priv)->s, sig);
}

static void bench_child_kill(void *priv)
{
	spawn_kill(((struct bench_child *)priv)->s, SIGKILL);
}

int bench_wait_child(struct spawn *s, int *signo, int (*more)(void *priv), void *priv)
{
	struct bench_child c = { .s = s, .more = more, .priv = priv };
	const struct bench_wait w = {
		.poll = bench_child_poll, .stop = bench_child_stop, .leave = bench_child_kill,
		.priv = &c, .tick_ms = 50, .wake = SIGCHLD, .quiet = true, .signo = signo,
	};
	int ret = bench_wait(&w);

	return ret ?: spawn_exit_code(s->status);
}
