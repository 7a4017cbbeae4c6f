// SPDX-License-Identifier: GPL-2.0
/*
 * statfs.c - one statfs(2) of --statfs-path DIR (default /tmp) per
 * sample: a control. tmpfs (shmem_statfs()) and ext4 (ext4_statfs())
 * sum their free blocks with percpu_counter_sum(), whose
 * __percpu_counter_sum() loops over the online CPUs (and the dying
 * ones) only, so the call must stay flat as possible CPUs grow: a sweep
 * where it moves has found the harness, not the kernel. In a bench vm
 * guest /tmp is a tmpfs of half the memory, so the sum is taken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#include "lib/subcmd/options.h"
#include "kentry.h"

static const char *statfs_path = "/tmp";	/* --statfs-path */
/* what the one variant times, with the path */
static char statfs_what[192] = "statfs(/tmp)";

struct statfs_wl {
	int err;			/* -errno of a failed sample, sticky */
};

static const struct opt statfs_opts[] = {
	OPT_GROUP("statfs:"),
	OPT_STRING(0, "statfs-path", &statfs_path, "PATH",
		   "the file each sample calls statfs(2) on\n(default /tmp)"),
	OPT_END()
};

static const struct opt *const statfs_tables[] = { statfs_opts, NULL };

static int statfs_check(unsigned int nr_possible, char *why, size_t len)
{
	struct statfs sf;

	(void)nr_possible;
	if (strchr(statfs_path, '\n') || statfs(statfs_path, &sf)) {
		snprintf(why, len, "--statfs-path: %s: %s", statfs_path,
			 strchr(statfs_path, '\n') ? "not a usable path" : strerror(errno));
		return -EINVAL;
	}
	snprintf(statfs_what, sizeof(statfs_what), "statfs(%s)", statfs_path);
	return 0;
}

static int statfs_setup(const struct wl_env *env, void **priv)
{
	(void)env;
	*priv = calloc(1, sizeof(struct statfs_wl));
	return *priv ? 0 : -ENOMEM;
}

static void statfs_sample(void *priv)
{
	struct statfs_wl *s = priv;
	struct statfs sf;

	if (statfs(statfs_path, &sf))
		s->err = -errno;
}

static unsigned int statfs_stats(struct wl_stat *st, unsigned int max, int *err)
{
	*err = 0;
	if (!max)
		return 0;
	st[0].key = "statfs_path";
	snprintf(st[0].val, sizeof(st[0].val), "%s", statfs_path);
	return 1;
}

const struct workload wl_statfs = {
	.name = "statfs",
	.summary = "one statfs(2) of --statfs-path (default /tmp) per sample: a control",
	.label = { "statfs" },
	.variant = { statfs_what },
	.nr_variants = 1,
	.real_kernel = true,
	.setup = statfs_setup,
	.prepare = kentry_prepare_err,
	.sample = { statfs_sample },
	.finish = kentry_finish_none,
	.teardown = kentry_teardown_free,
	.stats = statfs_stats,
	.options = statfs_tables,
	.check = statfs_check,
};
