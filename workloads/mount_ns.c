// SPDX-License-Identifier: GPL-2.0
/*
 * mount_ns.c - the mount workloads: mount-tmpfs (mount(2) of a tmpfs,
 * then umount(2), per sample) and mntns (unshare(CLONE_NEWNS), then
 * setns() back, per sample). Every mount has per-CPU counts
 * (alloc_vfsmnt(): alloc_percpu(struct mnt_pcp), zeroed on every
 * possible CPU), and umount sums them (mnt_get_count() and
 * propagate_mount_busy(): for_each_possible_cpu); a new mount namespace
 * copies every mount of the old one (copy_tree(), one alloc_vfsmnt()
 * each: in a bench vm guest, about ten), and dropping it frees them.
 *
 * Both wait by design: umount and the drop of a namespace end in
 * namespace_unlock(), which waits for an expedited RCU grace period
 * before the mounts are freed (wl->sleeps).
 *
 * mount-tmpfs mounts in a private mount namespace of the worker's own
 * (unshared at setup, every mount made private), on DIR/ksb-mnt-PID-CPU
 * under /tmp, so that nothing it mounts is seen outside the thread; the
 * namespace goes at teardown with the directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kentry.h"
#include "nsjoin.h"

struct mount_ns {
	struct nsjoin j;		/* the worker's way back */
	char dir[64];			/* mount-tmpfs: the mount point */
};

static int mntns_check(unsigned int nr_possible, char *why, size_t len)
{
	(void)nr_possible;
	return nsjoin_check(CLONE_NEWNS, "a mount namespace", why, len);
}

static int mount_ns_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct mount_ns *m = priv;

	(void)v;
	*obj = NULL;
	return m->j.err;
}

/* ---- mntns ---- */

static int mntns_setup(const struct wl_env *env, void **priv)
{
	struct mount_ns *m = calloc(1, sizeof(*m));
	int ret;

	(void)env;
	if (!m)
		return -ENOMEM;
	ret = nsjoin_open(&m->j, CLONE_NEWNS);
	/* one untimed cycle: a refusal fails setup, and the fs_struct is our own from here */
	if (!ret)
		ret = nsjoin_cycle(&m->j);
	if (ret) {
		nsjoin_close(&m->j);
		free(m);
		return ret;
	}
	*priv = m;
	return 0;
}

static void mntns_sample(void *priv)
{
	struct mount_ns *m = priv;

	m->j.err = nsjoin_cycle(&m->j);
}

static void mount_ns_teardown(void *priv)
{
	struct mount_ns *m = priv;

	nsjoin_close(&m->j);
	if (m->dir[0])
		rmdir(m->dir);
	free(m);
}

const struct workload wl_mntns = {
	.name = "mntns",
	.summary = "unshare(CLONE_NEWNS), setns back per sample: a mount namespace's life",
	.label = { "unshare" },
	.variant = { "unshare(CLONE_NEWNS), setns(2) back: copy_tree() and the drop" },
	.nr_variants = 1,
	.real_kernel = true,
	.sleeps = true,
	.setup = mntns_setup,
	.prepare = mount_ns_prepare,
	.sample = { mntns_sample },
	.finish = kentry_finish_none,
	.teardown = mount_ns_teardown,
	.check = mntns_check,
};

/* ---- mount-tmpfs ---- */

static int mount_tmpfs_once(const char *dir)
{
	if (mount("ksb", dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=64k"))
		return -errno;
	return umount2(dir, 0) ? -errno : 0;
}

/* a private namespace of our own, the mount point, one untimed mount */
static int mount_tmpfs_setup(const struct wl_env *env, void **priv)
{
	struct mount_ns *m = calloc(1, sizeof(*m));
	int ret;

	if (!m)
		return -ENOMEM;
	ret = nsjoin_open(&m->j, CLONE_NEWNS);
	if (!ret && unshare(CLONE_NEWNS))
		ret = -errno;
	if (!ret && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		ret = -errno;
	snprintf(m->dir, sizeof(m->dir), "/tmp/ksb-mnt-%d-%u", (int)getpid(), env->cpu);
	if (!ret && mkdir(m->dir, 0700))
		ret = -errno;
	if (ret)
		m->dir[0] = 0;
	if (!ret)
		ret = mount_tmpfs_once(m->dir);
	if (ret) {
		mount_ns_teardown(m);
		return ret;
	}
	*priv = m;
	return 0;
}

static void mount_tmpfs_sample(void *priv)
{
	struct mount_ns *m = priv;

	m->j.err = mount_tmpfs_once(m->dir);
}

const struct workload wl_mount_tmpfs = {
	.name = "mount-tmpfs",
	.summary = "mount, umount of a tmpfs per sample: a mount's per-CPU counts",
	.label = { "mount" },
	.variant = { "mount(2) of a 64k tmpfs, umount(2), in a private mount namespace" },
	.nr_variants = 1,
	.real_kernel = true,
	.sleeps = true,
	.setup = mount_tmpfs_setup,
	.prepare = mount_ns_prepare,
	.sample = { mount_tmpfs_sample },
	.finish = kentry_finish_none,
	.teardown = mount_ns_teardown,
	.check = mntns_check,
};
