/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runs.h - independent runs, each in a fresh process, read back into
 * one set of runs (lib/results/results.h) exactly: `bench run --runs R`, and the
 * boots of `bench vm` (runs_absorb(), runs_meta(), runs_stop_pending()).
 *
 * WHY PROCESSES
 *
 * Runs in one process share its address space, per-CPU area, placement
 * and workers, and are not independent; a fresh process per run
 * resamples them as separate invocations would. The runs go one after
 * the other: concurrent ones would disturb each other.
 *
 * USAGE
 *
 *	static int child(void *priv, unsigned int run, FILE *out)
 *	{
 *		measure run @run, csv_write(out, one-run set), fflush(out);
 *		return its exit code;
 *	}
 *	static int wait(void *priv, struct runs_child *c)
 *	{
 *		until runs_poll(c) is 1: on SIGINT, runs_signal(c, SIGINT);
 *		return 0 or -errno;			bench_wait() in bench
 *	}
 *
 *	struct runs rs = { .asked = R };
 *	struct runs_ops ops = { child, wait, priv, &signo };
 *	struct runs_error err;
 *
 *	ret = runs_measure(&rs, &ops, &err);	0: rs.n runs in rs.all
 *	runs_meta(&rs, cmdline, signo != 0);	command, runs_asked, partial
 *	csv_write(f, rs.all);
 *	runs_fini(&rs);
 *
 * THE CHILD
 *
 * A function child of the process runner (lib/subcmd/spawn.h: .fn,
 * SPAWN_GROUP, SPAWN_PDEATHSIG): forked from the caller, in its own
 * process group (a terminal's SIGINT reaches the parent alone, which
 * passes it on once, so that the child stops at a sample boundary and
 * still writes what it measured), and killed when the parent dies. It inherits the
 * signal mask: block SIGINT/SIGTERM before runs_measure(). Its results
 * go to an unlinked temp file as a one-run CSV (format 3: exact). A
 * child that exits 0, 130 or 143 (stopped: partial) is read back; one
 * stopped before its first sample (an empty file) is skipped.
 *
 * MEMORY
 *
 * Each run's per-CPU series are kept as that run's while runs x series
 * stay within RUNS_MAX_CPU_SERIES; past it (a 480-CPU host) they go
 * into the merge over the runs only (RESULTS_MERGED_CPUS_ONLY), so that
 * the set does not grow with runs x CPUs.
 *
 * THE HOST'S CONTENTION
 *
 * Each run's window is its child's life, fork to reap. Over it
 * runs_measure() records, in the set's metadata as "RUN:VALUE" lists
 * (lib/results/busy.h): run_seconds, run_nivcsw (the involuntary context
 * switches of the child's threads, from its rusage), and where the host
 * has PSI psi_cpu_some_us and psi_cpu_some_pct (lib/measure/contend.h).
 *
 * RETURNS AND THREADS
 *
 * Actions return 0 or -errno, with one line in a struct runs_error
 * where they say so. Not thread-safe: fork() and waitpid() on the
 * caller's children; call from a single-threaded process (bench run's
 * parent starts no worker).
 */
#ifndef KSB_RUNS_H
#define KSB_RUNS_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/subcmd/spawn.h"

struct csv_error;
struct results;

/* runs x series per run up to which each run keeps its per-CPU series */
#define RUNS_MAX_CPU_SERIES	256

/* the runs read back so far */
struct runs {
	struct results *all;		/* each run and their merge; NULL before the first */
	unsigned int n;			/* runs read back */
	unsigned int asked;		/* runs asked for, 1..RESULTS_MAX_RUNS */
};

/* one run's child process, for the wait callback */
struct runs_child {
	struct spawn sp;		/* the child (lib/subcmd/spawn.h): pid, status, rusage */
	unsigned int run;		/* its run, 1..asked */
};

struct runs_ops {
	/*
	 * in the child: run @run, its one-run CSV into @out, flushed;
	 * returns the child's exit code (0, 128 + signal when stopped)
	 */
	int (*child)(void *priv, unsigned int run, FILE *out);
	/* in the parent: until runs_poll(@c) is 1; 0 or -errno */
	int (*wait)(void *priv, struct runs_child *c);
	void *priv;			/* both callbacks' argument */
	int *signo;			/* the SIGINT/SIGTERM that stopped us, or 0 */
};

/* why runs_measure() stopped short */
struct runs_error {
	unsigned int run;		/* the run it happened in, 1..asked */
	int rc;				/* -ECHILD: the child's exit code (it said why) */
	char why[384];			/* else: what failed, one line */
};

/**
 * runs_measure - run @ops->child in a fresh process for runs 1..asked,
 * one at a time, and read each one's CSV back into @rs (runs_absorb()),
 * each run's contention with it (THE HOST'S CONTENTION).
 * Before each run a pending SIGINT/SIGTERM (runs_stop_pending()) sets
 * *@ops->signo, and no further run starts once it is set.
 * Returns 0 (every run, or every run until the stop: @rs->n says how
 * many); -ECHILD when a child exited with another code than 0, 130 or
 * 143 (@err->rc: that code; it said why on stderr) or was killed
 * (@err->rc -1, @err->why "killed by signal 9 (Killed)"); -EINVAL when
 * its CSV does not read back or its layout differs from the runs
 * before (@err->why); a temp file's, fork()'s or the wait's -errno
 * (@err->why names which). @err->run: the run.
 */
int runs_measure(struct runs *rs, const struct runs_ops *ops,
		 struct runs_error *err);

/**
 * runs_poll - reap @c's child if it ended: 1 (@c->sp.status and
 * @c->sp.ru set), 0 still running, or waitpid()'s -errno. Never blocks.
 * runs_signal - send @sig to @c's child and its process group. 0 or
 * -errno. Both are spawn_poll() and spawn_kill() of @c->sp.
 */
int runs_poll(struct runs_child *c);
int runs_signal(struct runs_child *c, int sig);

/**
 * runs_absorb - read one run's CSV (any format, lib/results/csv.h) from @f into
 * @rs as run @run, and into the merge over the runs; per-CPU series
 * into the merge only when @rs->asked x its series pass
 * RUNS_MAX_CPU_SERIES. The set is created at the first run, with its
 * layout. Returns 0 (@rs->n counts it); -EINVAL with @err saying where
 * (the file's line), or why (its layout differs, @run used already);
 * -ENOMEM, or the read's -errno.
 */
int runs_absorb(struct runs *rs, FILE *f, unsigned int run,
		struct csv_error *err);

/**
 * runs_add - @one, a set of one run (read or made), into @rs as run
 * @run and into the merge over the runs, as runs_absorb() adds what it
 * read. Returns 0 (@rs->n counts it); -EINVAL (@run used already, or
 * @one's layout differs from the runs before); -ENOMEM.
 */
int runs_add(struct runs *rs, const struct results *one, unsigned int run);

/**
 * runs_meta - the set's metadata over its runs: "command" @cmdline,
 * "runs_asked", and "partial: yes" when @stopped or fewer runs than
 * asked came back. Nothing without a set.
 */
void runs_meta(struct runs *rs, const char *cmdline, bool stopped);

/**
 * runs_fini - free the set; @rs is empty again (asked kept).
 */
void runs_fini(struct runs *rs);

/**
 * runs_stop_pending - a SIGINT or SIGTERM that is pending (blocked, not
 * yet taken), taken now: its number, or 0. For the gap between two
 * runs, where no wait is there to see it.
 */
int runs_stop_pending(void);

#endif /* KSB_RUNS_H */
