// SPDX-License-Identifier: GPL-2.0
/*
 * ring_setup.c - the two asynchronous I/O rings, made and closed per
 * sample: io-uring (io_uring_setup(2) of 8 entries, then close(2)) and
 * aio (io_setup(2) of one event, then io_destroy(2)). Both through
 * syscall(2): glibc wraps neither, and no liburing is needed.
 *
 * What grows with possible CPUs: each context holds a percpu_ref
 * (percpu_ref_init(): alloc_percpu, zeroed on every possible CPU), which
 * the close switches to atomic mode (percpu_ref_kill(), whose switch
 * sums every possible CPU's count; lib/percpu-refcount.c); aio adds its
 * per-CPU kioctx_cpu, and sizes its ring by possible CPUs:
 * ioctx_alloc() raises nr_events to num_possible_cpus() * 4, then
 * doubles it, and the ring's pages follow (fs/aio.c).
 *
 * io_destroy() waits for the context's references to drain, past an
 * RCU grace period (wl->sleeps); io_uring's close hands the rest of its
 * teardown to a workqueue, outside the window.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/aio_abi.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kentry.h"

#define RING_URING_ENTRIES	8

/* a worker's last sample, -errno */
struct ring_setup {
	int err;
};

static int ring_uring_once(void)
{
	struct io_uring_params p;
	int fd;

	memset(&p, 0, sizeof(p));
	fd = (int)syscall(__NR_io_uring_setup, RING_URING_ENTRIES, &p);
	if (fd < 0)
		return -errno;
	return close(fd) ? -errno : 0;
}

static int ring_aio_once(void)
{
	aio_context_t ctx = 0;

	if (syscall(__NR_io_setup, 1, &ctx))
		return -errno;
	return syscall(__NR_io_destroy, ctx) ? -errno : 0;
}

/* ENOSYS, or io_uring_disabled: a kernel that has none for us */
static int ring_refused(int ret, const char *what, const char *fix, char *why, size_t len)
{
	if (!ret)
		return 0;
	if (ret == -ENOSYS)
		snprintf(why, len, "%s: not in this kernel (%s)", what, fix);
	else
		snprintf(why, len, "%s: %s", what, strerror(-ret));
	return ret == -EINVAL ? -ENOTSUP : ret;
}

static int ring_uring_check(unsigned int nr_possible, char *why, size_t len)
{
	(void)nr_possible;
	return ring_refused(ring_uring_once(), "io_uring_setup", "CONFIG_IO_URING", why, len);
}

static int ring_aio_check(unsigned int nr_possible, char *why, size_t len)
{
	(void)nr_possible;
	return ring_refused(ring_aio_once(), "io_setup", "CONFIG_AIO", why, len);
}

static int ring_setup_setup(const struct wl_env *env, void **priv)
{
	(void)env;
	*priv = calloc(1, sizeof(struct ring_setup));
	return *priv ? 0 : -ENOMEM;
}

/* a sample that failed ends the worker's run here, with its errno */
static int ring_setup_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct ring_setup *r = priv;

	(void)v;
	*obj = NULL;
	return r->err;
}

static void ring_uring_sample(void *priv)
{
	((struct ring_setup *)priv)->err = ring_uring_once();
}

static void ring_aio_sample(void *priv)
{
	((struct ring_setup *)priv)->err = ring_aio_once();
}

static void ring_setup_teardown(void *priv)
{
	free(priv);
}

const struct workload wl_io_uring = {
	.name = "io-uring",
	.summary = "io_uring_setup of 8 entries, close per sample: a ring's percpu_ref",
	.label = { "setup" },
	.variant = { "syscall(__NR_io_uring_setup, 8), close(2)" },
	.nr_variants = 1,
	.real_kernel = true,
	.setup = ring_setup_setup,
	.prepare = ring_setup_prepare,
	.sample = { ring_uring_sample },
	.finish = kentry_finish_none,
	.teardown = ring_setup_teardown,
	.check = ring_uring_check,
};

const struct workload wl_aio = {
	.name = "aio",
	.summary = "io_setup of one event, io_destroy per sample: a ring sized by possible CPUs",
	.label = { "setup" },
	.variant = { "syscall(__NR_io_setup, 1), syscall(__NR_io_destroy)" },
	.nr_variants = 1,
	.real_kernel = true,
	.sleeps = true,
	.setup = ring_setup_setup,
	.prepare = ring_setup_prepare,
	.sample = { ring_aio_sample },
	.finish = kentry_finish_none,
	.teardown = ring_setup_teardown,
	.check = ring_aio_check,
};
