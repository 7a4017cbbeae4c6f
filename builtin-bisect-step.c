// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-bisect-step.c - one step of bench bisect, what git bisect run
 * runs (bench bisect --step DIR) and what bench bisect runs itself on
 * BAD first: build the tree it is in, boot it beside the good kernel
 * kept in DIR/good with bench vm, the two interleaved (good1 REV1 good2
 * REV2 ...), gate the two with bench compare, and answer as git bisect
 * run wants: 0 good (a change significant but below the threshold
 * cannot decide, and is taken as good, said so), 1 bad, 125 skip (no
 * build, no boot, or counted figures that do not repeat), 128 abort
 * (bench vm or bench compare refused their input: a mistake of ours).
 * The good kernel boots in every step rather than once: a gate across
 * time sees the machine's drift between the two.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "builtin-bisect.h"
#include "lib/kernel/bisect.h"
#include "lib/measure/runs.h"
#include "lib/report/bisectfmt.h"

/* what a step's messages start with, and so what the driver passes on */
#define BISECT_SAY	"bench bisect: "

/* ---- waiting for a child, SIGINT and SIGTERM passed on ---- */

/* a signal came: what must not outlive us, then 128 + it */
static void __attribute__((noreturn)) bisect_leave(struct bisect_global *g)
{
	if (g->leave)
		g->leave(g);
	exit(128 + g->signo);
}

void bisect_check_signal(struct bisect_global *g)
{
	int sig = runs_stop_pending();

	if (sig && !g->signo)
		g->signo = sig;
	if (g->signo)
		bisect_leave(g);
}

/* a child's output as bisect_wait() reads it */
struct bisect_out {
	int pipe_fd;			/* the pipe, -1 once at its end */
	int copy_fd;			/* where it is copied, or -1 */
	char line[4096];		/* its line not yet ended */
	size_t n;
	bool cut;			/* the line outgrew line[]: not ours */
};

/* @len bytes of output: the lines that start with BISECT_SAY to stderr */
static void bisect_tee(struct bisect_out *o, const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] != '\n') {
			if (o->n < sizeof(o->line) - 1)
				o->line[o->n++] = buf[i];
			else
				o->cut = true;
			continue;
		}
		if (!o->cut && !strncmp(o->line, BISECT_SAY, strlen(BISECT_SAY)))
			fprintf(stderr, "%.*s\n", (int)o->n, o->line);
		o->n = 0;
		o->cut = false;
	}
}

/* bench_wait_child()'s more: what the pipe holds now, copied and teed; 0 at its end */
static int bisect_drain(void *priv)
{
	struct bisect_out *o = priv;
	struct pollfd p = { .fd = o->pipe_fd, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	while (o->pipe_fd >= 0 && poll(&p, 1, 0) > 0) {
		n = read(o->pipe_fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			break;
		if (n <= 0) {
			o->pipe_fd = -1;	/* the caller closes it */
			break;
		}
		/* the copy is the transcript: a failed write stops it, not the tee */
		if (o->copy_fd >= 0 && write(o->copy_fd, buf, (size_t)n) != n)
			o->copy_fd = -1;
		bisect_tee(o, buf, (size_t)n);
	}
	return o->pipe_fd >= 0;
}

int bisect_wait(struct bisect_global *g, struct spawn *s, int pipe_fd, int copy_fd)
{
	static struct bisect_out o;
	int ret;

	o = (struct bisect_out){ .pipe_fd = pipe_fd, .copy_fd = copy_fd };
	ret = bench_wait_child(s, &g->signo, pipe_fd >= 0 ? bisect_drain : NULL, &o);
	if (g->signo)
		bisect_leave(g);
	return ret;
}

int bisect_spawn(struct bisect_global *g, char *const *argv, int out_fd, int err_fd)
{
	struct spawn s = { .argv = argv, .out_fd = out_fd, .err_fd = err_fd,
			   .flags = SPAWN_GROUP | SPAWN_NULL_STDIN };
	int ret = spawn_start(&s);

	return ret ?: bisect_wait(g, &s, -1, -1);
}

/* ---- one step ---- */

/* @g->dir/@rev@suffix opened for writing, or -1 after saying why */
static int bisect_open(struct bisect_global *g, const char *rev, const char *suffix,
		       char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/%s%s", g->dir, rev, suffix);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		pr_err("%s: %s", path, strerror(errno));
	return fd;
}

/* make -s -C TREE @what... onto @fd: make's exit code, or -errno */
static int bisect_make(struct bisect_global *g, char *const *what, int fd)
{
	char *argv[8] = { "make", "-s", "-C", g->tree };
	unsigned int n = 4;

	while (*what && n < 7)
		argv[n++] = *what++;
	argv[n] = NULL;
	return bisect_spawn(g, argv, fd, fd);
}

int bisect_build_tree(struct bisect_global *g, const char *rev, bool skip)
{
	char log[PATH_MAX], last[512], j[32];
	char *config[] = { "olddefconfig", NULL }, *build[] = { j, "bzImage", "modules", NULL };
	double t0 = spawn_now();
	int fd = bisect_open(g, rev, ".build.log", log, sizeof(log)), ret;

	if (fd < 0)
		return 1;
	snprintf(j, sizeof(j), "-j%u", g->jobs);
	/* the tree's own .config, brought up to date */
	ret = bisect_make(g, config, fd) ?: bisect_make(g, build, fd);
	close(fd);
	if (ret) {
		bisect_last_line(log, last, sizeof(last));
		pr_err("%s: the kernel does not build (%s)%s", rev, ret < 0 ? strerror(-ret) : last,
		       skip ? ": skipped" : "");
		return 1;
	}
	pr_err("%s: built in %.0f s", rev, spawn_now() - t0);
	return 0;
}

/* a child's argv, built word by word; the formatted words kept in buf */
struct bisect_argv {
	char *argv[2 * BISECT_MAX_WORDS + 24];
	unsigned int n;
	char buf[3 * PATH_MAX];
	size_t used;
};

static void bisect_add(struct bisect_argv *a, char *word)
{
	if (a->n < sizeof(a->argv) / sizeof(a->argv[0]) - 1)
		a->argv[a->n++] = word;
	a->argv[a->n] = NULL;
}

static void __attribute__((format(printf, 2, 3)))
bisect_addf(struct bisect_argv *a, const char *fmt, ...)
{
	char *w = a->buf + a->used;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(w, sizeof(a->buf) - a->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(a->buf) - a->used)
		return;		/* the buffer holds three paths: not reached */
	a->used += (size_t)n + 1;
	bisect_add(a, w);
}

/* bench vm booting @rev beside the good kernel, into @a */
static void bisect_vm_argv(struct bisect_global *g, const char *rev, struct bisect_argv *a)
{
	char *const *w;

	bisect_add(a, g->bench);
	bisect_add(a, "vm");
	bisect_add(a, "-q");
	bisect_add(a, "-B");
	bisect_addf(a, "%lu", (unsigned long)g->boots);
	bisect_add(a, "-p");
	bisect_addf(a, "%lu", (unsigned long)g->possible);
	if (g->cpus) {
		bisect_add(a, "-c");
		bisect_addf(a, "%lu", (unsigned long)g->cpus);
	}
	for (w = g->vm_argv; *w; w++)
		bisect_add(a, *w);
	bisect_add(a, "-o");
	bisect_add(a, g->dir);
	bisect_add(a, "--module");
	bisect_addf(a, "%s/good/kstats_bench.ko", g->dir);
	bisect_addf(a, "good-%s=%s/good/bzImage", rev, g->dir);
	bisect_addf(a, "%s=%s", rev, g->tree);
	bisect_add(a, "--");
	for (w = g->cmd; *w; w++)
		bisect_add(a, *w);
}

/* boot the good kernel and this one, interleaved: good-REV.csv, REV.csv */
static int bisect_boot(struct bisect_global *g, const char *rev)
{
	static struct bisect_argv a;
	char out[PATH_MAX], err[PATH_MAX], last[512];
	int ofd, efd = -1, ret = 1;
	double t0 = spawn_now();

	ofd = bisect_open(g, rev, ".vm.txt", out, sizeof(out));
	if (ofd >= 0)
		efd = bisect_open(g, rev, ".vm.err", err, sizeof(err));
	if (efd >= 0) {
		memset(&a, 0, sizeof(a));
		bisect_vm_argv(g, rev, &a);
		ret = bisect_spawn(g, a.argv, ofd, efd);
	}
	if (ofd >= 0)
		close(ofd);
	if (efd < 0)
		return BISECT_ABORT;
	close(efd);
	if (!ret) {
		pr_err("%s: booted beside the good kernel in %.0f s", rev, spawn_now() - t0);
		return 0;
	}
	bisect_last_line(err, last, sizeof(last));
	pr_err("%s: bench vm exited %d (%s)", rev, ret, ret < 0 ? strerror(-ret) : last);
	/* bench vm refused our options: not the commit's fault */
	return ret == EXIT_USAGE || ret < 0 ? BISECT_ABORT : BISECT_SKIP;
}

/* "WORKLOAD.VARIANT.STAT +29.6% VERDICT" of compare's first row with @verdict, or "" */
static const char *bisect_row_text(struct bisect_global *g, const char *rev, const char *verdict,
				   char *buf, size_t len)
{
	struct bisectfmt_row r;
	char csv[PATH_MAX];

	snprintf(csv, sizeof(csv), "%s/%s.compare.csv", g->dir, rev);
	buf[0] = 0;
	if (!bisect_row_find(csv, verdict, &r))
		snprintf(buf, len, "%s.%s.%s %+.1f%% %s", r.workload, r.variant, r.stat,
			 r.change_pct, verdict);
	return buf;
}

/* bench compare good-REV.csv -- REV.csv into REV.compare.{txt,csv,lkp}: its exit code */
static int bisect_compare(struct bisect_global *g, const char *rev)
{
	static struct bisect_argv a;
	char txt[PATH_MAX];
	int fd = bisect_open(g, rev, ".compare.txt", txt, sizeof(txt)), ret;

	if (fd < 0)
		return -EIO;
	memset(&a, 0, sizeof(a));
	bisect_add(&a, g->bench);
	bisect_add(&a, "compare");
	bisect_add(&a, "--also");
	bisect_addf(&a, "csv=%s/%s.compare.csv", g->dir, rev);
	bisect_add(&a, "--also");
	bisect_addf(&a, "lkp=%s/%s.compare.lkp", g->dir, rev);
	if (g->threshold) {
		bisect_add(&a, "-t");
		bisect_add(&a, (char *)g->threshold);
	}
	bisect_addf(&a, "%s/good-%s.csv", g->dir, rev);
	bisect_add(&a, "--");
	bisect_addf(&a, "%s/%s.csv", g->dir, rev);
	ret = bisect_spawn(g, a.argv, fd, fd);
	close(fd);
	return ret;
}

/* the verdict of the step's compare, as git bisect run's code */
static int bisect_judge(struct bisect_global *g, const char *rev)
{
	char row[256], txt[PATH_MAX], last[512];
	int ret = bisect_compare(g, rev);

	if (ret == EXIT_REGRESSION) {
		if (*bisect_row_text(g, rev, "regression", row, sizeof(row))) {
			pr_err("%s: bad: %s", rev, row);
			return 1;
		}
		/* counted figures that do not repeat: no verdict either way */
		pr_err("%s: skipped: %s (a side spread past compare's --spread)", rev,
		       bisect_row_text(g, rev, "not repeatable", row, sizeof(row)));
		return BISECT_SKIP;
	}
	if (!ret) {
		if (*bisect_row_text(g, rev, "significant below threshold", row, sizeof(row)))
			pr_err("%s: good, undecided: %s (below the threshold: taken as good)", rev, row);
		else
			pr_err("%s: good", rev);
		return 0;
	}
	snprintf(txt, sizeof(txt), "%s/%s.compare.txt", g->dir, rev);
	bisect_last_line(txt, last, sizeof(last));
	pr_err("%s: bench compare exited %d: %s", rev, ret, ret < 0 ? strerror(-ret) : last);
	return BISECT_ABORT;
}

int bisect_step(struct bisect_global *g)
{
	char rev[64], good[PATH_MAX];
	int ret;

	if (bisect_git(g->tree, rev, sizeof(rev), "rev-parse", "--short", "HEAD", NULL)) {
		pr_err("%s: git rev-parse --short HEAD failed", g->tree);
		return BISECT_ABORT;
	}
	/* before anything is built: the kernel each step boots beside */
	snprintf(good, sizeof(good), "%s/good/bzImage", g->dir);
	if (access(good, R_OK)) {
		pr_err("%s: %s (bench bisect keeps GOOD's kernel there)", good, strerror(errno));
		return BISECT_ABORT;
	}
	if (bisect_build_tree(g, rev, true))
		return BISECT_SKIP;
	ret = bisect_boot(g, rev);
	return ret ?: bisect_judge(g, rev);
}
