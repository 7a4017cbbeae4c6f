// SPDX-License-Identifier: GPL-2.0
/*
 * fork_exit.c - fork(), the child's _exit(0), the parent's waitpid(),
 * per sample: the life of an mm. Since 6.2 every mm has per-CPU rss
 * counters (percpu_counter_init_many() in mm_init()), and
 * alloc_percpu() zeroes the new area on every possible CPU, so a fork
 * pays for possible CPUs it never runs on; the exit frees them.
 *
 * What else it pays, the same at every possible CPU count: copying this
 * process's page tables (bench run makes no emulated per-CPU area for
 * it, so the process does not grow with possible CPUs), the TLB
 * shootdown to the other workers' CPUs (they run this mm), the child's
 * scheduling on the worker's CPU (it inherits the pinning) and the
 * switches to it and back. Those switches are the workload's own, so
 * its samples count as disturbed by interrupts and migrations only
 * (wl->sleeps).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kentry.h"

/* the last sample's -errno, per worker */
struct fork_exit {
	int err;
};

/* one fork and its reaping; 0 or -errno (-ECHILD: SIGCHLD ignored) */
static int fork_exit_once(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(0);	/* async-signal-safe: the child of a threaded process */
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -ECHILD;
}

/* one untimed fork first: a refusal (ulimit -u, SIG_IGN) fails setup */
static int fork_exit_setup(const struct wl_env *env, void **priv)
{
	struct fork_exit *f;
	int ret;

	(void)env;
	ret = fork_exit_once();
	if (ret)
		return ret;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	*priv = f;
	return 0;
}

/* a sample that failed ends the worker's run here, with its errno */
static int fork_exit_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct fork_exit *f = priv;

	(void)v;
	*obj = NULL;
	return f->err;
}

static void fork_exit_sample(void *priv)
{
	struct fork_exit *f = priv;

	f->err = fork_exit_once();
}

static void fork_exit_teardown(void *priv)
{
	free(priv);
}

const struct workload wl_fork_exit = {
	.name = "fork-exit",
	.summary = "fork, the child's _exit(0), waitpid per sample: an mm's life",
	.label = { "fork" },
	.variant = { "fork(), _exit(0) in the child, waitpid() in the parent" },
	.nr_variants = 1,
	.real_kernel = true,
	.sleeps = true,
	.setup = fork_exit_setup,
	.prepare = fork_exit_prepare,
	.sample = { fork_exit_sample },
	.finish = kentry_finish_none,
	.teardown = fork_exit_teardown,
};
