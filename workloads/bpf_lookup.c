// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_lookup.c - one BPF_MAP_LOOKUP_ELEM of a per-CPU array from user
 * space per sample. The kernel copies every possible CPU's value
 * (bpf_percpu_array_copy(): for_each_possible_cpu, value_size rounded
 * up to 8 each) into the caller's buffer, so a lookup grows with
 * possible CPUs by construction: the known case to check a sweep's
 * slope against. The map: one element of 8 bytes, made at setup
 * (CAP_BPF or root); the buffer sized by libbpf_num_possible_cpus(),
 * which reads /sys/devices/system/cpu/possible as the kernel counts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kentry.h"

#define BPF_LOOKUP_VALUE	8	/* bytes per CPU: one u64, no rounding */

static int bpf_lookup_ncpus;		/* possible CPUs as libbpf counts them */

struct bpf_lookup {
	int fd;				/* the map */
	uint32_t key;			/* element 0 */
	void *buf;			/* ncpus values */
	int err;			/* -errno of a failed sample, sticky */
};

/* before anything is set up: may we create a map at all? (exit 3, the fix) */
static int bpf_lookup_check(unsigned int nr_possible, char *why, size_t len)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "ksb_check", sizeof(uint32_t),
				BPF_LOOKUP_VALUE, 1, NULL);

	(void)nr_possible;
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	fd = -errno;
	if (fd == -EPERM || fd == -EACCES)
		snprintf(why, len, "creating a BPF map: %s: run as root, or with CAP_BPF (CAP_SYS_ADMIN before Linux 5.8)",
			 strerror(-fd));
	else
		snprintf(why, len, "creating a BPF map: %s", strerror(-fd));
	return fd == -EINVAL ? -ENOTSUP : fd;
}

static int bpf_lookup_setup(const struct wl_env *env, void **priv)
{
	struct bpf_lookup *b;
	int n = libbpf_num_possible_cpus(), ret;

	(void)env;
	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	bpf_lookup_ncpus = n;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->buf = calloc((size_t)n, BPF_LOOKUP_VALUE);	/* pinned: on our node, faulted in */
	if (!b->buf) {
		free(b);
		return -ENOMEM;
	}
	b->fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "ksb_lookup", sizeof(b->key),
			       BPF_LOOKUP_VALUE, 1, NULL);
	ret = b->fd < 0 ? -errno : 0;
	/* one untimed lookup: the first one's faults are not a sample */
	if (!ret && bpf_map_lookup_elem(b->fd, &b->key, b->buf))
		ret = -errno;
	if (ret) {
		if (b->fd >= 0)
			close(b->fd);
		free(b->buf);
		free(b);
		return ret;
	}
	*priv = b;
	return 0;
}

/* a sample that failed ends the worker's run here, with its errno */
static int bpf_lookup_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct bpf_lookup *b = priv;

	(void)v;
	*obj = NULL;
	return b->err;
}

static void bpf_lookup_sample(void *priv)
{
	struct bpf_lookup *b = priv;

	if (bpf_map_lookup_elem(b->fd, &b->key, b->buf))
		b->err = -errno;
}

static void bpf_lookup_teardown(void *priv)
{
	struct bpf_lookup *b = priv;

	close(b->fd);
	free(b->buf);
	free(b);
}

/* bpf_value_size, bpf_copy_bytes: what each lookup copies */
static unsigned int bpf_lookup_stats(struct wl_stat *st, unsigned int max, int *err)
{
	*err = 0;
	if (max < 2)
		return 0;
	st[0].key = "bpf_value_size";
	snprintf(st[0].val, sizeof(st[0].val), "%u", BPF_LOOKUP_VALUE);
	st[1].key = "bpf_copy_bytes";
	snprintf(st[1].val, sizeof(st[1].val), "%lu",
		 (unsigned long)bpf_lookup_ncpus * BPF_LOOKUP_VALUE);
	return 2;
}

const struct workload wl_bpf_lookup = {
	.name = "bpf-pcpu-lookup",
	.summary = "a user-space lookup in a BPF per-CPU array: copies every possible CPU's value",
	.label = { "lookup" },
	.variant = { "bpf(BPF_MAP_LOOKUP_ELEM) of a PERCPU_ARRAY element, 8 bytes per CPU" },
	.nr_variants = 1,
	.real_kernel = true,
	.setup = bpf_lookup_setup,
	.prepare = bpf_lookup_prepare,
	.sample = { bpf_lookup_sample },
	.finish = kentry_finish_none,
	.teardown = bpf_lookup_teardown,
	.stats = bpf_lookup_stats,
	.check = bpf_lookup_check,
};
