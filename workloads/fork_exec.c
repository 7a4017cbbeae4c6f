// SPDX-License-Identifier: GPL-2.0
/*
 * fork_exec.c - fork(), the child's execve() of a program that only
 * exits, the parent's waitpid(), per sample: an mm made by fork, another
 * by exec, both torn down. Each mm_init() pays for possible CPUs (the
 * per-CPU rss counters since 6.2, percpu_counter_init_many(); mm_cid's
 * per-CPU state where the kernel has it), so an exec pays it twice: the
 * fork's mm and the exec's new one (Jan Kara measured +10% system time
 * on a git workload from the rss counters alone).
 *
 * The program is 129 bytes of x86-64 ELF built here into a memfd (one
 * PT_LOAD, `mov $60, %eax; xor %edi, %edi; syscall`): no loader, no
 * libc, no file system, so that what the exec costs is the kernel's
 * exec path and not a program's start-up. Executed by fexecve(); a
 * kernel that refuses to execute a memfd (vm.memfd_noexec = 2) skips it.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kentry.h"

#define FORK_EXEC_BASE	0x400000ul	/* where the program is loaded */

/* the program: its header, one segment, its code */
struct fork_exec_elf {
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned char code[9];
} __attribute__((packed));

struct fork_exec {
	int fd;				/* the memfd holding the program */
	int err;			/* -errno of a failed sample, sticky */
};

static void fork_exec_image(struct fork_exec_elf *p)
{
	static const unsigned char code[] = {
		0xb8, 0x3c, 0x00, 0x00, 0x00,	/* mov $60, %eax: exit */
		0x31, 0xff,			/* xor %edi, %edi: status 0 */
		0x0f, 0x05,			/* syscall */
	};

	memset(p, 0, sizeof(*p));
	memcpy(p->eh.e_ident, ELFMAG, SELFMAG);
	p->eh.e_ident[EI_CLASS] = ELFCLASS64;
	p->eh.e_ident[EI_DATA] = ELFDATA2LSB;
	p->eh.e_ident[EI_VERSION] = EV_CURRENT;
	p->eh.e_type = ET_EXEC;
	p->eh.e_machine = EM_X86_64;
	p->eh.e_version = EV_CURRENT;
	p->eh.e_entry = FORK_EXEC_BASE + offsetof(struct fork_exec_elf, code);
	p->eh.e_phoff = offsetof(struct fork_exec_elf, ph);
	p->eh.e_ehsize = sizeof(p->eh);
	p->eh.e_phentsize = sizeof(p->ph);
	p->eh.e_phnum = 1;
	p->ph.p_type = PT_LOAD;
	p->ph.p_flags = PF_R | PF_X;
	p->ph.p_vaddr = p->ph.p_paddr = FORK_EXEC_BASE;
	p->ph.p_filesz = p->ph.p_memsz = sizeof(*p);
	p->ph.p_align = 0x1000;
	memcpy(p->code, code, sizeof(code));
}

/* the program in a memfd: the fd, or -errno */
static int fork_exec_memfd(void)
{
	struct fork_exec_elf p;
	int fd = memfd_create("ksb-exit", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	fork_exec_image(&p);
	if (write(fd, &p, sizeof(p)) != (ssize_t)sizeof(p)) {
		close(fd);
		return -EIO;
	}
	return fd;
}

/* one fork, exec and reaping; 0 or -errno (-ENOEXEC: the exec failed) */
static int fork_exec_once(int fd)
{
	static char *const argv[] = { "ksb-exit", NULL };
	static char *const envp[] = { NULL };
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid) {
		fexecve(fd, argv, envp);
		_exit(127);	/* async-signal-safe: the child of a threaded process */
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -ENOEXEC;
}

static int fork_exec_check(unsigned int nr_possible, char *why, size_t len)
{
	int fd, ret;

	(void)nr_possible;
#ifndef __x86_64__
	snprintf(why, len, "fork-exec's program is x86-64 code");
	return -ENOTSUP;
#endif
	fd = fork_exec_memfd();
	ret = fd < 0 ? fd : fork_exec_once(fd);
	if (fd >= 0)
		close(fd);
	if (ret == -ENOEXEC)
		snprintf(why, len, "executing a memfd failed (vm.memfd_noexec = 2?)");
	else if (ret)
		snprintf(why, len, "fork and exec: %s", strerror(-ret));
	return ret == -ENOEXEC ? -ENOTSUP : ret;
}

static int fork_exec_setup(const struct wl_env *env, void **priv)
{
	struct fork_exec *f = calloc(1, sizeof(*f));

	(void)env;
	if (!f)
		return -ENOMEM;
	f->fd = fork_exec_memfd();
	if (f->fd < 0) {
		int ret = f->fd;

		free(f);
		return ret;
	}
	*priv = f;
	return 0;
}

/* a sample that failed ends the worker's run here, with its errno */
static int fork_exec_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct fork_exec *f = priv;

	(void)v;
	*obj = NULL;
	return f->err;
}

static void fork_exec_sample(void *priv)
{
	struct fork_exec *f = priv;

	f->err = fork_exec_once(f->fd);
}

static void fork_exec_teardown(void *priv)
{
	struct fork_exec *f = priv;

	close(f->fd);
	free(f);
}

const struct workload wl_fork_exec = {
	.name = "fork-exec",
	.summary = "fork, exec of a program that exits, waitpid per sample: two mms' lives",
	.label = { "exec" },
	.variant = { "fork(), fexecve() of a 129-byte exit(0) in the child, waitpid()" },
	.nr_variants = 1,
	.real_kernel = true,
	.sleeps = true,
	.setup = fork_exec_setup,
	.prepare = fork_exec_prepare,
	.sample = { fork_exec_sample },
	.finish = kentry_finish_none,
	.teardown = fork_exec_teardown,
	.check = fork_exec_check,
};
