/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin-bisect.h - what bench bisect's three files share:
 * builtin-bisect.c (its options, the bisect that drives git bisect run,
 * cmd_bisect()), builtin-bisect-step.c (one step: build, boot beside
 * GOOD, judge; and every child waited for with SIGINT/SIGTERM passed
 * on) and builtin-bisect-report.c (the report), which call nothing of
 * builtin-bisect.c. Nothing else includes it.
 */
#ifndef KSB_BUILTIN_BISECT_H
#define KSB_BUILTIN_BISECT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/subcmd/spawn.h"

/* the words of --vm at most, and of the guests' command */
#define BISECT_MAX_WORDS	64
/* bytes of the results directory's path: its files' paths fit PATH_MAX */
#define BISECT_DIR_MAX		(PATH_MAX - 128)

/*
 * bench bisect's state: configuration, then run state. builtin-bisect.c
 * holds the one instance and passes its address down.
 */
struct bisect_global {
	/* configuration: defaults in bisect_defaults(), then bisect_opts[] */
	uint64_t boots;			/* -B: boots of each kernel a step */
	uint64_t possible;		/* -p: the guests' possible CPUs */
	uint64_t cpus;			/* -c: online vCPUs, 0: bench vm's default */
	const char *threshold;		/* -t as given, NULL: bench compare's own */
	const char *vm;			/* --vm: more bench vm options, one shell line */
	bool no_check_bad;		/* --no-check-bad */
	const char *step;		/* --step DIR: one step of git bisect run */
	char **cmd;			/* the guests' bench command, NULL-ended */

	/* run state */
	char tree[PATH_MAX];		/* the kernel tree, absolute */
	char good[64];			/* GOOD, a short commit */
	char bad[64];			/* BAD, a short commit */
	char orig[256];			/* the branch the tree was on, else its commit */
	char dir[BISECT_DIR_MAX];	/* the results directory */
	char bench[PATH_MAX];		/* the bench the children run */
	char *vm_argv[BISECT_MAX_WORDS]; /* --vm's words, NULL-ended */
	char vm_words[4096];		/* what they point into */
	unsigned int jobs;		/* make -j */
	int signo;			/* the SIGINT/SIGTERM that stopped us, or 0 */
	/* once a signal's child is gone: what must not outlive us; NULL: nothing */
	void (*leave)(struct bisect_global *g);
};

/**
 * bisect_wait - wait for @s's child (started with SPAWN_GROUP), its
 * output on @pipe_fd (-1: none) copied to @copy and its lines that
 * start with "bench bisect: " to stderr as they come. SIGINT and SIGTERM
 * (blocked) are passed on to the child's group; once it is gone,
 * @g->leave() runs and bench exits 128 + the signal. Returns the child's
 * exit code, or -errno of waiting.
 */
int bisect_wait(struct bisect_global *g, struct spawn *s, int pipe_fd, int copy_fd);

/**
 * bisect_spawn - @argv run to its end through bisect_wait(), its stdout
 * onto @out_fd and stderr onto @err_fd (-1: ours). Returns its exit code,
 * or -errno of starting it.
 */
int bisect_spawn(struct bisect_global *g, char *const *argv, int out_fd, int err_fd);

/**
 * bisect_check_signal - a SIGINT or SIGTERM that came while no child
 * was waited for: leave as bisect_wait() does. Returns when none came.
 */
void bisect_check_signal(struct bisect_global *g);

/**
 * bisect_build_tree - build @g->tree as checked out (lib/kernel/bisect.h,
 * bisect_build()), its output in @g->dir/@rev.build.log, and say how
 * long it took. Returns 0, or 1 after saying it did not build ("...:
 * skipped" with @skip).
 */
int bisect_build_tree(struct bisect_global *g, const char *rev, bool skip);

/**
 * bisect_step - one step on @g->tree as checked out, as git bisect run
 * wants it: build it, boot it beside @g->dir/good's kernel with bench
 * vm, judge the two with bench compare, and say the verdict. Returns 0
 * good, 1 bad, BISECT_SKIP or BISECT_ABORT (lib/kernel/bisect.h).
 */
int bisect_step(struct bisect_global *g);

/**
 * bisect_report - the report of the first bad commit that @g->dir's
 * bisect.log names (lib/report/bisectfmt.h), written whole to
 * bisect.txt and printed; @t0 the bisect's start (spawn_now()). Returns
 * EXIT_DONE, or EXIT_ENV after a message (no first bad commit, a write
 * that failed).
 */
int bisect_report(struct bisect_global *g, double t0);

#endif /* KSB_BUILTIN_BISECT_H */
