// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_prog_info.c - one BPF_OBJ_GET_INFO_BY_FD of a loaded program from
 * user space per sample. bpf_prog_get_info_by_fd() sums the program's
 * per-CPU run statistics (bpf_prog_get_stats(): for_each_possible_cpu,
 * a u64_stats read each) whatever the caller asks, so every call pays
 * for every possible CPU (kernel/bpf/syscall.c). The program: a socket
 * filter of two instructions, r0 = 0; exit, loaded at setup through
 * libbpf (CAP_BPF or root, or unprivileged BPF allowed); the info asks
 * for no array, so nothing else is copied.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "kentry.h"

struct bpf_prog_info_wl {
	int fd;				/* the program */
	int err;			/* -errno of a failed sample, sticky */
};

/* r0 = 0; exit: a filter that accepts nothing */
static int bpf_info_load(void)
{
	static const struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "ksb_info", "GPL", prog,
			       sizeof(prog) / sizeof(prog[0]), NULL);

	return fd < 0 ? -errno : fd;
}

static int bpf_info_once(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
}

/* before anything is set up: may we load a program at all? */
static int bpf_info_check(unsigned int nr_possible, char *why, size_t len)
{
	int fd = bpf_info_load(), ret;

	(void)nr_possible;
	if (fd >= 0) {
		ret = bpf_info_once(fd);
		close(fd);
		if (!ret)
			return 0;
		snprintf(why, len, "BPF_OBJ_GET_INFO_BY_FD: %s", strerror(-ret));
		return ret;
	}
	if (fd == -EPERM || fd == -EACCES)
		snprintf(why, len, "loading a BPF program: %s: run as root, or with CAP_BPF (CAP_SYS_ADMIN before Linux 5.8)",
			 strerror(-fd));
	else
		snprintf(why, len, "loading a BPF program: %s", strerror(-fd));
	return fd == -EINVAL ? -ENOTSUP : fd;
}

static int bpf_info_setup(const struct wl_env *env, void **priv)
{
	struct bpf_prog_info_wl *b = calloc(1, sizeof(*b));
	int ret;

	(void)env;
	if (!b)
		return -ENOMEM;
	b->fd = bpf_info_load();
	ret = b->fd < 0 ? b->fd : bpf_info_once(b->fd);	/* untimed: its faults */
	if (ret) {
		if (b->fd >= 0)
			close(b->fd);
		free(b);
		return ret;
	}
	*priv = b;
	return 0;
}

/* a sample that failed ends the worker's run here, with its errno */
static int bpf_info_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct bpf_prog_info_wl *b = priv;

	(void)v;
	*obj = NULL;
	return b->err;
}

static void bpf_info_sample(void *priv)
{
	struct bpf_prog_info_wl *b = priv;

	b->err = bpf_info_once(b->fd);
}

static void bpf_info_teardown(void *priv)
{
	struct bpf_prog_info_wl *b = priv;

	close(b->fd);
	free(b);
}

const struct workload wl_bpf_prog_info = {
	.name = "bpf-prog-info",
	.summary = "BPF_OBJ_GET_INFO_BY_FD of a loaded program: sums per-CPU run stats",
	.label = { "info" },
	.variant = { "bpf(BPF_OBJ_GET_INFO_BY_FD) of a 2-instruction socket filter" },
	.nr_variants = 1,
	.real_kernel = true,
	.setup = bpf_info_setup,
	.prepare = bpf_info_prepare,
	.sample = { bpf_info_sample },
	.finish = kentry_finish_none,
	.teardown = bpf_info_teardown,
	.check = bpf_info_check,
};
