// SPDX-License-Identifier: GPL-2.0
/*
 * test_runs.c - the --runs process runner (lib/measure/runs.h): every run in a
 * child of its own, read back exactly as its run and into the merge; a
 * child that fails, is killed, writes garbage or stops before its
 * first sample; a stop between two runs; the per-CPU series kept only
 * while runs x series stay few.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "kstats_hist.h"
#include "lib/results/csv.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/measure/runs.h"

/* what the test's children do, per run */
enum child_does {
	CHILD_MEASURES,			/* run r: samples r*1000+1 .. r*1000+r, CPUs 0-1 */
	CHILD_EXITS_2,			/* exit 2 without a CSV, as a usage error */
	CHILD_IS_KILLED,		/* SIGKILL itself */
	CHILD_GARBAGE,			/* a CSV broken on its third line */
	CHILD_STOPPED_EMPTY,		/* stopped before its first sample: nothing, 130 */
	CHILD_OTHER_LAYOUT,		/* a set of another frac_bits */
};

static struct {
	enum child_does does[8];	/* per run, 1..7 */
	unsigned int cpus;		/* per-CPU series per variant */
	unsigned int stop_after;	/* the wait "sees" a SIGINT at this run */
	int signo;			/* the runner's stop flag */
} t;

/* run @run as a one-run set: an old series merged and per CPU */
static struct results *one_run(unsigned int run, unsigned int frac_bits)
{
	struct results_label l = {
		.workload = "w", .variant = "old", .run = RESULTS_RUN_ALL,
		.cpu = RESULTS_CPU_ALL, .node = -1,
	};
	struct results *r = results_create(frac_bits);
	struct kstats_hist *h = kstats_hist_create(frac_bits);
	unsigned int i, cpu;

	for (i = 1; i <= run; i++)
		kstats_hist_record(h, run * 1000 + i);
	results_add_hist(r, &l, h);
	for (cpu = 0; cpu < t.cpus; cpu++) {
		l.cpu = (int)cpu;
		l.node = 0;
		results_add_hist(r, &l, h);
	}
	kstats_hist_free(h);
	meta_put(&r->meta, "frac_bits", "%u", frac_bits);
	meta_put(&r->meta, "runs", "1");
	meta_put(&r->meta, "partial", "no");
	return r;
}

static int child(void *priv, unsigned int run, FILE *out)
{
	struct results *r;

	(void)priv;
	switch (t.does[run]) {
	case CHILD_EXITS_2:
		return 2;
	case CHILD_IS_KILLED:
		raise(SIGKILL);
		return 0;
	case CHILD_GARBAGE:
		fputs("# kstats-bench-csv 3\n# frac_bits: 2\nnot,a,row\n", out);
		return fflush(out) ? 3 : 0;
	case CHILD_STOPPED_EMPTY:
		return 130;
	default:
		break;
	}
	r = one_run(run, t.does[run] == CHILD_OTHER_LAYOUT ? 3 : 2);
	if (!r || csv_write(out, r) || fflush(out))
		return 3;
	results_free(r);
	return 0;
}

/* a blocking wait; a "SIGINT" that comes while run stop_after runs */
static int wait_child(void *priv, struct runs_child *c)
{
	siginfo_t si;
	int ret;

	(void)priv;
	if (c->run == t.stop_after)
		t.signo = SIGINT;
	while (!(ret = runs_poll(c)))
		waitid(P_PID, (id_t)c->sp.pid, &si, WEXITED | WNOWAIT);
	return ret < 0 ? ret : 0;
}

static const struct runs_ops ops = { .child = child, .wait = wait_child, .signo = &t.signo };

static int setup(void **state)
{
	(void)state;
	memset(&t, 0, sizeof(t));
	t.cpus = 2;
	return 0;
}

/* 3 runs: each its own exact series, the merge exact, the metadata */
static void test_three_runs(void **state)
{
	struct runs rs = { .asked = 3 };
	const struct kstats_hist *h;
	struct runs_error err;
	unsigned int r;

	(void)state;
	if (runs_measure(&rs, &ops, &err))
		fail_msg("run %u: %s", err.run, err.why);
	assert_int_equal(rs.n, 3);
	for (r = 1; r <= 3; r++) {
		h = results_find(rs.all, "w", "old", r, RESULTS_CPU_ALL)->h;
		assert_int_equal(kstats_hist_total(h), r);
		assert_int_equal(kstats_hist_min(h), r * 1000 + 1);
		assert_int_equal(kstats_hist_max(h), r * 1000 + r);
		assert_non_null(results_find(rs.all, "w", "old", r, 1));
	}
	h = results_find(rs.all, "w", "old", RESULTS_RUN_ALL, RESULTS_CPU_ALL)->h;
	assert_int_equal(kstats_hist_total(h), 6);
	assert_int_equal(kstats_hist_min(h), 1001);
	assert_int_equal(kstats_hist_max(h), 3003);
	/* (1001) + (2001 + 2002) + (3001 + 3002 + 3003): exact, not bucket averages */
	assert_true(kstats_hist_mean(h) == 14010.0 / 6);
	runs_meta(&rs, "bench run -R 3", false);
	assert_string_equal(meta_get(&rs.all->meta, "runs"), "3");
	assert_string_equal(meta_get(&rs.all->meta, "runs_asked"), "3");
	assert_string_equal(meta_get(&rs.all->meta, "partial"), "no");
	assert_string_equal(meta_get(&rs.all->meta, "command"), "bench run -R 3");
	runs_fini(&rs);
	assert_null(rs.all);
	assert_int_equal(rs.n, 0);
}

/* a child's own exit code stops the runs, the code handed back */
static void test_child_fails(void **state)
{
	struct runs rs = { .asked = 4 };
	struct runs_error err;

	(void)state;
	t.does[2] = CHILD_EXITS_2;
	assert_int_equal(runs_measure(&rs, &ops, &err), -ECHILD);
	assert_int_equal(err.run, 2);
	assert_int_equal(err.rc, 2);
	assert_int_equal(rs.n, 1);
	runs_fini(&rs);
}

static void test_child_killed(void **state)
{
	struct runs rs = { .asked = 2 };
	struct runs_error err;

	(void)state;
	t.does[1] = CHILD_IS_KILLED;
	assert_int_equal(runs_measure(&rs, &ops, &err), -ECHILD);
	assert_int_equal(err.run, 1);
	assert_int_equal(err.rc, -1);
	assert_string_equal(err.why, "killed by signal 9 (Killed)");
	assert_null(rs.all);
}

static void test_child_garbage(void **state)
{
	struct runs rs = { .asked = 2 };
	struct runs_error err;

	(void)state;
	t.does[2] = CHILD_GARBAGE;
	assert_int_equal(runs_measure(&rs, &ops, &err), -EINVAL);
	assert_int_equal(err.run, 2);
	assert_true(!strncmp(err.why, "reading its results back: line 3: ", 34));
	runs_fini(&rs);
}

static void test_other_layout(void **state)
{
	struct runs rs = { .asked = 2 };
	struct runs_error err;

	(void)state;
	t.does[2] = CHILD_OTHER_LAYOUT;
	assert_int_equal(runs_measure(&rs, &ops, &err), -EINVAL);
	assert_non_null(strstr(err.why, "differ in layout"));
	assert_int_equal(rs.n, 1);
	runs_fini(&rs);
}

/* stopped during run 2: runs 1 and 2 kept, no run 3, partial */
static void test_stop(void **state)
{
	struct runs rs = { .asked = 5 };
	struct runs_error err;

	(void)state;
	t.stop_after = 2;
	assert_int_equal(runs_measure(&rs, &ops, &err), 0);
	assert_int_equal(rs.n, 2);
	assert_int_equal(results_max_run(rs.all), 2);
	runs_meta(&rs, "c", t.signo);
	assert_string_equal(meta_get(&rs.all->meta, "partial"), "yes");
	assert_string_equal(meta_get(&rs.all->meta, "runs_asked"), "5");
	runs_fini(&rs);
}

/* a child stopped before its first sample leaves nothing: skipped */
static void test_stopped_empty(void **state)
{
	struct runs rs = { .asked = 3 };
	struct runs_error err;

	(void)state;
	t.does[2] = CHILD_STOPPED_EMPTY;
	t.stop_after = 2;
	assert_int_equal(runs_measure(&rs, &ops, &err), 0);
	assert_int_equal(rs.n, 1);
	runs_fini(&rs);
	/* not stopped, the same empty file is an error */
	t.signo = 0;
	t.stop_after = 0;
	rs.asked = 2;
	assert_int_equal(runs_measure(&rs, &ops, &err), -EINVAL);
	assert_int_equal(err.run, 2);
	runs_fini(&rs);
}

/* a SIGINT pending before a run: no run starts */
static void test_stop_pending(void **state)
{
	struct runs rs = { .asked = 3 };
	struct runs_error err;
	sigset_t set, old;

	(void)state;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, &old);
	assert_int_equal(runs_stop_pending(), 0);
	raise(SIGINT);
	assert_int_equal(runs_measure(&rs, &ops, &err), 0);
	assert_int_equal(t.signo, SIGINT);
	assert_int_equal(rs.n, 0);
	assert_null(rs.all);
	assert_int_equal(runs_stop_pending(), 0);	/* taken */
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* runs x series past RUNS_MAX_CPU_SERIES: per-CPU series in the merge only */
static void test_cpu_series_cap(void **state)
{
	struct runs rs = { .asked = 2 };
	struct runs_error err;
	unsigned int keep = RUNS_MAX_CPU_SERIES / 2 - 1;	/* + the merged one */

	(void)state;
	t.cpus = keep;
	assert_int_equal(runs_measure(&rs, &ops, &err), 0);
	assert_non_null(results_find(rs.all, "w", "old", 2, 0));
	runs_fini(&rs);
	t.cpus = keep + 1;
	assert_int_equal(runs_measure(&rs, &ops, &err), 0);
	assert_null(results_find(rs.all, "w", "old", 2, 0));
	assert_int_equal(kstats_hist_total(results_find(rs.all, "w", "old", RESULTS_RUN_ALL,
							0)->h), 3);
	runs_fini(&rs);
}

/* a set made here, not read: runs_add() numbers it, and refuses a run twice */
static void test_add_made(void **state)
{
	struct results_label l = { .workload = "w", .variant = "old", .run = RESULTS_RUN_ALL,
				   .cpu = RESULTS_CPU_ALL, .node = -1 };
	struct results *one = results_create(12);
	struct kstats_hist *h = kstats_hist_create(12);
	struct runs rs = { .asked = 2 };

	(void)state;
	assert_non_null(one);
	assert_non_null(h);
	kstats_hist_record(h, 4097);
	assert_int_equal(results_add_hist(one, &l, h), 0);
	assert_int_equal(runs_add(&rs, one, 2), 0);
	assert_int_equal(rs.n, 1);
	assert_int_equal(runs_add(&rs, one, 2), -EINVAL);
	assert_int_equal(rs.n, 1);
	assert_int_equal(runs_add(&rs, one, 1), 0);
	assert_int_equal(results_nr_runs(rs.all, "w", "old"), 2);
	assert_int_equal(rs.all->frac_bits, 12);
	runs_fini(&rs);
	results_free(one);
	kstats_hist_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_three_runs, setup),
		cmocka_unit_test_setup(test_child_fails, setup),
		cmocka_unit_test_setup(test_child_killed, setup),
		cmocka_unit_test_setup(test_child_garbage, setup),
		cmocka_unit_test_setup(test_other_layout, setup),
		cmocka_unit_test_setup(test_stop, setup),
		cmocka_unit_test_setup(test_stopped_empty, setup),
		cmocka_unit_test_setup(test_stop_pending, setup),
		cmocka_unit_test_setup(test_cpu_series_cap, setup),
		cmocka_unit_test(test_add_made),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
