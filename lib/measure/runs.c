// SPDX-License-Identifier: GPL-2.0
/*
 * runs.c - independent runs in fresh processes, read back into one set
 * of runs (see runs.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/measure/contend.h"
#include "lib/subcmd/spawn.h"
#include "lib/results/busy.h"
#include "lib/results/csv.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/measure/runs.h"

/* ---- the child ---- */

/* the forked child's side of spawn_start(): one run into its temp file */
struct runs_fn {
	const struct runs_ops *ops;	/* the caller's callbacks */
	unsigned int run;		/* this child's run */
	FILE *out;			/* its temp file */
};

static int runs_child_fn(void *arg)
{
	const struct runs_fn *f = arg;

	return f->ops->child(f->ops->priv, f->run, f->out);
}

int runs_poll(struct runs_child *c)
{
	return spawn_poll(&c->sp, 0);
}

int runs_signal(struct runs_child *c, int sig)
{
	return spawn_kill(&c->sp, sig);
}

/* ---- reading a run back ---- */

int runs_add(struct runs *rs, const struct results *one, unsigned int run)
{
	unsigned int flags = 0;
	int ret;

	if (!rs->all)
		rs->all = results_create(one->frac_bits);
	if ((unsigned long)rs->asked * one->n > RUNS_MAX_CPU_SERIES)
		flags = RESULTS_MERGED_CPUS_ONLY;
	ret = rs->all ? results_add_run(rs->all, one, run, flags) : -ENOMEM;
	if (!ret)
		rs->n++;
	return ret;
}

int runs_absorb(struct runs *rs, FILE *f, unsigned int run, struct csv_error *err)
{
	struct results *one = NULL;
	int ret;

	ret = csv_read(f, &one, err);
	if (ret)
		return ret;
	ret = runs_add(rs, one, run);
	results_free(one);
	err->line = 0;
	if (ret == -EINVAL)
		snprintf(err->why, sizeof(err->why),
			 "run %u is used already, or its histograms differ in layout from the runs before",
			 run);
	return ret;
}

void runs_meta(struct runs *rs, const char *cmdline, bool stopped)
{
	if (!rs->all)
		return;
	meta_put(&rs->all->meta, "command", "%s", cmdline);
	meta_put(&rs->all->meta, "runs_asked", "%u", rs->asked);
	if (stopped || rs->n < rs->asked)
		meta_put(&rs->all->meta, "partial", "yes");
}

void runs_fini(struct runs *rs)
{
	results_free(rs->all);
	rs->all = NULL;
	rs->n = 0;
}

int runs_stop_pending(void)
{
	struct timespec now = { 0, 0 };
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sig = sigtimedwait(&set, NULL, &now);
	return sig > 0 ? sig : 0;
}

/* ---- the runs ---- */

static int runs_fail(struct runs_error *err, int ret, const char *what, int e)
{
	snprintf(err->why, sizeof(err->why), "%s: %s", what, strerror(e));
	return ret;
}

/* what run @c->run's child left: its results read back, or why not */
static int runs_collect(struct runs *rs, const struct runs_ops *ops,
			const struct runs_child *c, FILE *tmp, struct runs_error *err)
{
	int rc = spawn_exit_code(c->sp.status), sig = spawn_killed_by(c->sp.status), ret;
	struct csv_error ce;

	if (sig) {
		err->rc = -1;
		snprintf(err->why, sizeof(err->why), "killed by signal %d (%s)", sig,
			 strsignal(sig));
		return -ECHILD;
	}
	if (rc && rc != 128 + SIGINT && rc != 128 + SIGTERM) {
		err->rc = rc;
		return -ECHILD;
	}
	rewind(tmp);
	ret = runs_absorb(rs, tmp, c->run, &ce);
	if (ret == -EINVAL && *ops->signo && !ce.line)
		return 0;	/* stopped before its first sample */
	if (ret == -EINVAL && ce.line)
		snprintf(err->why, sizeof(err->why), "reading its results back: line %lu: %s",
			 ce.line, ce.why);
	else if (ret == -EINVAL)
		snprintf(err->why, sizeof(err->why), "reading its results back: %s", ce.why);
	else if (ret)
		runs_fail(err, ret, "reading its results back", -ret);
	return ret;
}

/* run @run's contention over @w, with its child's @ru, into the set's lists */
static void runs_contention(struct runs *rs, unsigned int run, const struct contend *w,
			    const struct rusage *ru)
{
	struct meta *m = &rs->all->meta;

	busy_list_add(m, "run_seconds", run, "%.2f", w->seconds);
	busy_list_add(m, "run_nivcsw", run, "%ld", ru->ru_nivcsw);
	if (!w->psi)
		return;
	busy_list_add(m, BUSY_KEY_PSI_US, run, "%llu", (unsigned long long)w->psi_us);
	busy_list_add(m, BUSY_KEY_PSI_PCT, run, "%.2f", contend_psi_pct(w));
}

/*
 * one run: its temp file, its child (a function child of the process
 * runner, in its own process group, killed with us), the wait, what it left
 */
static int runs_one(struct runs *rs, const struct runs_ops *ops, unsigned int run,
		    struct runs_error *err)
{
	struct runs_fn f = { .ops = ops, .run = run, .out = tmpfile() };
	struct runs_child c = {
		.sp = { .fn = runs_child_fn, .fn_arg = &f, .out_fd = -1, .err_fd = -1,
			.flags = SPAWN_GROUP | SPAWN_PDEATHSIG },
		.run = run,
	};
	unsigned int had = rs->n;
	struct contend w;
	int ret;

	if (!f.out)
		return runs_fail(err, -errno, "temp file", errno);
	ret = spawn_start(&c.sp);
	if (ret) {
		runs_fail(err, ret, "fork", -ret);
		fclose(f.out);
		return ret;
	}
	contend_start(&w, NULL);
	ret = ops->wait(ops->priv, &c);
	contend_stop(&w);
	if (ret)
		runs_fail(err, ret, "waitpid", -ret);
	else
		ret = runs_collect(rs, ops, &c, f.out, err);
	if (!ret && rs->n > had)
		runs_contention(rs, run, &w, &c.sp.ru);
	fclose(f.out);
	return ret;
}

int runs_measure(struct runs *rs, const struct runs_ops *ops, struct runs_error *err)
{
	unsigned int run;
	int ret = 0;

	memset(err, 0, sizeof(*err));
	for (run = 1; run <= rs->asked && !ret; run++) {
		if (!*ops->signo)
			*ops->signo = runs_stop_pending();
		if (*ops->signo)
			break;
		err->run = run;
		ret = runs_one(rs, ops, run, err);
	}
	return ret;
}
