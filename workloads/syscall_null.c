// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_null.c - one raw system call per sample: the flat control of
 * the kernel entry point workloads. Its cost is the entry and exit
 * path alone, so it must not move with the possible CPU count; a sweep
 * where it does has found the harness, not the kernel.
 *
 * Why getppid: it has no vDSO shortcut (getpid, gettimeofday and
 * clock_gettime may never enter the kernel, and glibc 2.3 to 2.24
 * cached getpid), it takes no lock (it reads current->real_parent
 * under RCU), and its work is the same on every call and on every
 * machine, whatever the CPU count: lmbench's null syscall, for the same
 * reasons. syscall(2) rather than getppid(3): no libc may cache it.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#include "kentry.h"

static void syscall_null_sample(void *priv)
{
	(void)priv;
	syscall(SYS_getppid);
}

const struct workload wl_syscall_null = {
	.name = "syscall-null",
	.summary = "one raw getppid system call per sample: the flat control",
	.label = { "syscall" },
	.variant = { "syscall(SYS_getppid): kernel entry and exit, no vDSO, no lock" },
	.nr_variants = 1,
	.real_kernel = true,
	.setup = kentry_setup_none,
	.prepare = kentry_prepare_none,
	.sample = { syscall_null_sample },
	.finish = kentry_finish_none,
	.teardown = kentry_teardown_none,
};
