// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup_mkdir.c - mkdir(2) then rmdir(2) of a child cgroup under
 * --cgroup-parent DIR (default /sys/fs/cgroup, a cgroup2 mount), per
 * sample. cgroup_create() allocates per-CPU state with alloc_percpu(),
 * which zeroes every possible CPU's copy: the rstat counters always,
 * and each controller that the parent's cgroup.subtree_control enables
 * adds its own (memcg's per-CPU statistics, PSI's groups). So creation
 * grows with possible CPUs even with no controller enabled.
 *
 * What the window holds: the allocation and the removal's synchronous
 * part; the freeing of the per-CPU memory runs later, after an RCU
 * grace period on a workqueue, outside any sample.
 *
 * Each worker uses its own child, DIR/ksb-PID-CPU, and removes it at
 * teardown if a failed sample left it behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "lib/subcmd/options.h"
#include "kentry.h"

static const char cgroup_default[] = "/sys/fs/cgroup";
static const char *cgroup_parent = cgroup_default;	/* --cgroup-parent */
/* what the one variant times, with the directory */
static char cgroup_what[192] = "mkdir(2), rmdir(2) of a child of /sys/fs/cgroup";

struct cgroup_mkdir {
	char path[4096];		/* this worker's child */
	int err;			/* -errno of a failed sample, sticky */
};

static const struct opt cgroup_opts[] = {
	OPT_GROUP("cgroup-mkdir:"),
	OPT_STRING(0, "cgroup-parent", &cgroup_parent, "DIR",
		   "the cgroup2 directory each sample creates and\n"
		   "removes a child in (default /sys/fs/cgroup)"),
	OPT_END()
};

static const struct opt *const cgroup_tables[] = { cgroup_opts, NULL };

/* the parent must be a directory of a cgroup2 mount: else mkdir is not a cgroup */
static int cgroup_check(unsigned int nr_possible, char *why, size_t len)
{
	struct statfs sf;

	(void)nr_possible;
	if (strchr(cgroup_parent, '\n') || strlen(cgroup_parent) > 4000) {
		snprintf(why, len, "--cgroup-parent: not a usable path");
		return -EINVAL;
	}
	if (statfs(cgroup_parent, &sf)) {
		snprintf(why, len, "--cgroup-parent: %s: %s", cgroup_parent, strerror(errno));
		return -EINVAL;
	}
	/* the host's own hierarchy is the environment; a DIR given is input */
	if (sf.f_type != CGROUP2_SUPER_MAGIC && cgroup_parent == cgroup_default) {
		snprintf(why, len, "%s is not cgroup2 (a cgroup v1 host): mount one (mount -t cgroup2 none DIR) and give --cgroup-parent DIR",
			 cgroup_parent);
		return -ENOTSUP;
	}
	if (sf.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(why, len, "--cgroup-parent: %s: not a cgroup2 directory (mount -t cgroup2 none DIR)",
			 cgroup_parent);
		return -EINVAL;
	}
	if (access(cgroup_parent, W_OK | X_OK)) {
		snprintf(why, len, "cannot create a cgroup in %s: %s: run as root, or give --cgroup-parent a cgroup2 directory delegated to this user",
			 cgroup_parent, strerror(errno));
		return -EACCES;
	}
	snprintf(cgroup_what, sizeof(cgroup_what), "mkdir(2), rmdir(2) of a child of %s",
		 cgroup_parent);
	return 0;
}

/* one untimed create and remove first: a refusal (not root) fails setup */
static int cgroup_setup(const struct wl_env *env, void **priv)
{
	struct cgroup_mkdir *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	snprintf(c->path, sizeof(c->path), "%s/ksb-%d-%u", cgroup_parent, (int)getpid(), env->cpu);
	if (mkdir(c->path, 0755) || rmdir(c->path)) {
		int ret = -errno;

		free(c);
		return ret;
	}
	*priv = c;
	return 0;
}

/* a sample that failed ends the worker's run here, with its errno */
static int cgroup_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct cgroup_mkdir *c = priv;

	(void)v;
	*obj = NULL;
	return c->err;
}

static void cgroup_sample(void *priv)
{
	struct cgroup_mkdir *c = priv;

	if (mkdir(c->path, 0755) || rmdir(c->path))
		c->err = -errno;
}

static void cgroup_teardown(void *priv)
{
	struct cgroup_mkdir *c = priv;

	if (c->err)
		rmdir(c->path);		/* a failed sample's child, if it made one */
	free(c);
}

static unsigned int cgroup_stats(struct wl_stat *st, unsigned int max, int *err)
{
	*err = 0;
	if (!max)
		return 0;
	st[0].key = "cgroup_parent";
	snprintf(st[0].val, sizeof(st[0].val), "%s", cgroup_parent);
	return 1;
}

const struct workload wl_cgroup_mkdir = {
	.name = "cgroup-mkdir",
	.summary = "mkdir, rmdir of a cgroup2 child per sample: per-CPU cgroup state",
	.label = { "mkdir" },
	.variant = { cgroup_what },
	.nr_variants = 1,
	.real_kernel = true,
	.setup = cgroup_setup,
	.prepare = cgroup_prepare,
	.sample = { cgroup_sample },
	.finish = kentry_finish_none,
	.teardown = cgroup_teardown,
	.stats = cgroup_stats,
	.options = cgroup_tables,
	.check = cgroup_check,
};
