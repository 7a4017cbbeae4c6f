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
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/measure/contend.h"
#include "lib/report/busy.h"
#include "lib/report/csv.h"
#include "lib/report/meta.h"
#include "lib/report/results.h"
#include "lib/measure/runs.h"

/* ---- the child ---- */

/*
 * Its own process group, so that a terminal's SIGINT reaches the parent
 * alone; killed with the parent. Never returns.
 */
static void runs_child_main(const struct runs_ops *ops, unsigned int run, FILE *out,
			    pid_t parent)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);	/* the parent died before prctl(): nobody reads us */
	_exit(ops->child(ops->priv, run, out));
}

int runs_poll(struct runs_child *c)
{
	pid_t w = wait4(c->pid, &c->status, WNOHANG, &c->ru);

	return w == c->pid ? 1 : w < 0 ? -errno : 0;
}

int runs_signal(const struct runs_child *c, int sig)
{
	return kill(c->pid, sig) ? -errno : 0;
}

/* ---- reading a run back ---- */

int runs_absorb(struct runs *rs, FILE *f, unsigned int run, struct csv_error *err)
{
	struct results *one = NULL;
	unsigned int flags = 0;
	int ret;

	ret = csv_read(f, &one, err);
	if (ret)
		return ret;
	if (!rs->all)
		rs->all = results_create(one->frac_bits);
	if ((unsigned long)rs->asked * one->n > RUNS_MAX_CPU_SERIES)
		flags = RESULTS_MERGED_CPUS_ONLY;
	ret = rs->all ? results_add_run(rs->all, one, run, flags) : -ENOMEM;
	results_free(one);
	if (!ret)
		rs->n++;
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
	struct csv_error ce;
	int rc, ret;

	if (WIFSIGNALED(c->status)) {
		err->rc = -1;
		snprintf(err->why, sizeof(err->why), "killed by signal %d (%s)",
			 WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
		return -ECHILD;
	}
	rc = WEXITSTATUS(c->status);
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

/* one run: its temp file, its child, the wait, what it left */
static int runs_one(struct runs *rs, const struct runs_ops *ops, unsigned int run,
		    struct runs_error *err)
{
	struct runs_child c = { .run = run };
	unsigned int had = rs->n;
	pid_t parent = getpid();
	FILE *tmp = tmpfile();
	struct contend w;
	int ret;

	if (!tmp)
		return runs_fail(err, -errno, "temp file", errno);
	c.pid = fork();
	if (c.pid < 0) {
		ret = runs_fail(err, -errno, "fork", errno);
		fclose(tmp);
		return ret;
	}
	if (!c.pid)
		runs_child_main(ops, run, tmp, parent);
	contend_start(&w, NULL);
	setpgid(c.pid, c.pid);	/* as the child does: no window for the tty's SIGINT */
	ret = ops->wait(ops->priv, &c);
	contend_stop(&w);
	if (ret)
		runs_fail(err, ret, "waitpid", -ret);
	else
		ret = runs_collect(rs, ops, &c, tmp, err);
	if (!ret && rs->n > had)
		runs_contention(rs, run, &w, &c.ru);
	fclose(tmp);
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
