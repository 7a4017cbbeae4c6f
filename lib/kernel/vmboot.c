// SPDX-License-Identifier: GPL-2.0
/*
 * vmboot.c - one boot of bench vm, its tries and its files (vmboot.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/results/busy.h"
#include "lib/results/meta.h"
#include "lib/subcmd/readfile.h"
#include "lib/subcmd/spawn.h"
#include "lib/kernel/vmboot.h"

#define VMBOOT_TAIL	4		/* lines quoted from a console or qemu's stderr */
#define VMBOOT_TAIL_MAX	8

/* the files of one boot, in the work directory */
struct vmboot_files {
	char console[PATH_MAX + 32];	/* ttyS0: the kernel's console */
	char data[PATH_MAX + 32];	/* ttyS1: what the guest sends */
	char qerr[PATH_MAX + 32];	/* qemu's own stderr */
};

/* how a try ended */
enum vmboot_try {
	VMBOOT_TRY_DONE,		/* every command ran */
	VMBOOT_TRY_AGAIN,		/* hung or crashed: worth booting again */
	VMBOOT_TRY_END,			/* stopped, qemu failed, an error: b->why */
};

void vmboot_tail(const char *path, unsigned int n, char *buf, size_t len)
{
	char *ring[VMBOOT_TAIL_MAX] = { NULL };
	unsigned int i, seen = 0;
	struct readfile_lines lr;
	FILE *f = fopen(path, "re");
	size_t used = 0;

	buf[0] = 0;
	n = n < 1 ? 1 : n > VMBOOT_TAIL_MAX ? VMBOOT_TAIL_MAX : n;
	readfile_lines_init(&lr, f, VM_MAX_LINE);
	while (f && readfile_lines_next(&lr) > 0) {
		lr.line[strcspn(lr.line, "\r\n")] = 0;
		if (!lr.line[0])
			continue;
		free(ring[seen % n]);
		ring[seen++ % n] = strdup(lr.line);
	}
	readfile_lines_free(&lr);
	if (f)
		fclose(f);
	for (i = seen > n ? seen - n : 0; i < seen; i++)
		if (ring[i % n] && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " | " : "",
						 ring[i % n]);
	for (i = 0; i < n; i++)
		free(ring[i]);
	if (!buf[0])
		snprintf(buf, len, "(nothing on the console)");
}

/* @path's bytes, CRs dropped, onto the console file under a heading */
static void vmboot_keep_console(const struct vmboot *b, const char *path)
{
	FILE *f;
	int c;

	if (!b->console)
		return;
	fprintf(b->console, "=== %s boot %u, try %u\n", b->name, b->boot, b->tries);
	f = fopen(path, "re");
	while (f && (c = getc(f)) != EOF)
		if (c != '\r')
			putc(c, b->console);
	if (f)
		fclose(f);
}

/* what the guest sent on ttyS1, in the file @path (none: nothing) */
static int vmboot_read_guest(struct vmboot *b, const char *path)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		ret = -errno;
		memset(&b->guest, 0, sizeof(b->guest));
		return ret == -ENOENT ? 0 : ret;
	}
	ret = vm_guest_read(&b->guest, f, b->nr_cmds);
	fclose(f);
	return ret;
}

/* qemu started, waited for; 0, 1 stopped by a signal, or -errno (b->why) */
static int vmboot_qemu(struct vmboot *b, const struct vm_argv *a, const struct vmboot_files *f,
		       struct spawn *s)
{
	int fd, ret;

	unlink(f->console);
	unlink(f->data);
	/* no try reads what an earlier one's plugin wrote */
	unlink(b->plugin_win);
	unlink(b->plugin_fn);
	fd = open(f->qerr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(b->why, sizeof(b->why), "%.600s: %s", f->qerr, strerror(-ret));
		return ret;
	}
	*s = (struct spawn) { .argv = a->argv, .out_fd = fd, .err_fd = fd,
			      .flags = SPAWN_GROUP | SPAWN_NULL_STDIN };
	contend_start(&b->busy, NULL);
	ret = spawn_start(s);
	close(fd);
	if (ret) {
		snprintf(b->why, sizeof(b->why), "starting %s: %s", a->argv[0], strerror(-ret));
		return ret;
	}
	ret = b->wait ? b->wait(s, b->priv) : spawn_wait(s, b->timeout_ms);
	if (ret == -ETIMEDOUT)
		ret = 0;	/* s->timed_out says so */
	b->seconds = spawn_now() - s->t0;
	contend_stop(&b->busy);
	b->cpu_seconds = (double)(s->ru.ru_utime.tv_sec + s->ru.ru_stime.tv_sec) +
			 (double)(s->ru.ru_utime.tv_usec + s->ru.ru_stime.tv_usec) / 1e6;
	if (ret < 0) {
		spawn_kill(s, SIGKILL);
		spawn_wait(s, 0);
		snprintf(b->why, sizeof(b->why), "waiting for qemu: %s", strerror(-ret));
	}
	return ret;
}

/* one try: qemu run, its console kept, what the guest sent read back */
static enum vmboot_try vmboot_try(struct vmboot *b, const struct vm_argv *a,
				  const struct vmboot_files *f, enum vmboot_end *end)
{
	char tail[512];
	struct spawn s;
	int ret;

	ret = vmboot_qemu(b, a, f, &s);
	if (!ret || ret == 1)
		vmboot_keep_console(b, f->console);
	if (ret) {
		*end = ret == 1 ? VMBOOT_STOPPED : VMBOOT_ERROR;
		return VMBOOT_TRY_END;
	}
	if (!s.timed_out && WIFEXITED(s.status) && WEXITSTATUS(s.status)) {
		vmboot_tail(f->qerr, VMBOOT_TAIL, tail, sizeof(tail));
		snprintf(b->why, sizeof(b->why), "qemu exited %d: %s", WEXITSTATUS(s.status), tail);
		*end = VMBOOT_QEMU_FAILED;
		return VMBOOT_TRY_END;
	}
	ret = vmboot_read_guest(b, f->data);
	if (ret) {
		if (ret == -E2BIG)
			snprintf(b->why, sizeof(b->why),
				 "reading what the guest sent: a line of more than %d bytes",
				 VM_MAX_LINE);
		else
			snprintf(b->why, sizeof(b->why), "reading what the guest sent: %s",
				 strerror(-ret));
		*end = VMBOOT_ERROR;
		return VMBOOT_TRY_END;
	}
	if (!s.timed_out && b->guest.done)
		return VMBOOT_TRY_DONE;
	vm_guest_free(&b->guest);
	vmboot_tail(f->console, VMBOOT_TAIL, tail, sizeof(tail));
	snprintf(b->why, sizeof(b->why), "%s (console: %s)",
		 s.timed_out ? "hung: killed at --timeout" :
		 b->guest.started ? "stopped before its commands finished" : "never ran /init",
		 tail);
	return VMBOOT_TRY_AGAIN;
}

enum vmboot_end vmboot_run(struct vmboot *b)
{
	enum vmboot_end end = VMBOOT_GAVE_UP;
	enum vmboot_try t = VMBOOT_TRY_AGAIN;
	struct vmboot_files f;
	struct vm_argv a;

	b->why[0] = 0;
	memset(&b->guest, 0, sizeof(b->guest));
	snprintf(f.console, sizeof(f.console), "%s/console", b->work);
	snprintf(f.data, sizeof(f.data), "%s/data", b->work);
	snprintf(f.qerr, sizeof(f.qerr), "%s/qemu.err", b->work);
	vm_plugin_paths(f.data, b->plugin_win, b->plugin_fn, sizeof(b->plugin_win));
	vm_qemu_argv(&a, b->vm, b->image, b->initrd, f.console, f.data);
	spawn_sh_line(b->qemu_line, sizeof(b->qemu_line), (int)a.n, a.argv);
	for (b->tries = 1; t == VMBOOT_TRY_AGAIN; b->tries++) {
		t = vmboot_try(b, &a, &f, &end);
		if (t == VMBOOT_TRY_AGAIN && b->retry)
			b->retry(b->priv, b->why, b->tries <= b->retries);
		if (t == VMBOOT_TRY_AGAIN && b->tries > b->retries)
			break;
	}
	if (t == VMBOOT_TRY_DONE) {
		b->tries--;
		return VMBOOT_DONE;
	}
	if (t == VMBOOT_TRY_END)
		b->tries--;
	return end;
}

int vmboot_check_cpus(const struct vm_config *c, const struct vm_guest *g, char *why, size_t len)
{
	unsigned int fw = vm_fw_cpus(c);

	if (g->possible == c->possible && g->online == c->cpus)
		return 0;
	if (c->possible > g->kernel_max + 1)
		snprintf(why, len, "%u possible CPUs, not %u: %s is built with NR_CPUS=%u",
			 g->possible, c->possible, g->release, g->kernel_max + 1);
	else if (c->possible > fw && g->possible <= fw)
		snprintf(why, len, "%u possible CPUs, not %u: qemu's firmware declares at most %u, and %s added none from possible_cpus= (kernels since 6.9 do not: apply tests/kernel/patches/test-only-possible-cpus.patch to every kernel compared, boot one before 6.9, or ask -p %u)",
			 g->possible, c->possible, fw, g->release, fw);
	else
		snprintf(why, len, "the guest counted %u possible CPUs and %u online, not %u and %u",
			 g->possible, g->online, c->possible, c->cpus);
	return -ERANGE;
}

/* one of vmboot_meta()'s lists */
static void vmboot_meta_list(struct meta *m, const struct vmboot_stat *st, unsigned int n,
			     unsigned int first, const char *key)
{
	char buf[1024];
	size_t used = 0;
	unsigned int b;

	buf[0] = 0;
	for (b = 0; b < n && used < sizeof(buf); b++) {
		size_t room = sizeof(buf) - used;
		const char *sp = b ? " " : "";

		if (!strcmp(key, "vm_boots"))
			used += (size_t)snprintf(buf + used, room, "%s%u:%u/%u", sp, first + b + 1,
						 st[b].possible, st[b].online);
		else if (!strcmp(key, "vm_boot_seconds"))
			used += (size_t)snprintf(buf + used, room, "%s%u:%.1f", sp, first + b + 1,
						 st[b].seconds);
		else
			used += (size_t)snprintf(buf + used, room, "%s%u:%u", sp, first + b + 1,
						 st[b].tries);
	}
	meta_put(m, key, "%s", buf);
}

/*
 * the host's contention over each boot, lib/results/busy.h's lists, put
 * whole: a file's metadata is written again after every boot
 */
static void vmboot_meta_busy(struct meta *m, const struct vmboot_stat *st, unsigned int n,
			     unsigned int first)
{
	static const char *const keys[] = {
		"vm_qemu_cpu_seconds", BUSY_KEY_PSI_US, BUSY_KEY_PSI_PCT, "vm_unquiet_boots",
		"vm_disturbed_tries",
	};
	struct meta l = { 0 };
	unsigned int b, k, r;

	for (b = 0; b < n; b++) {
		unsigned int nr = first + b + 1;

		busy_list_add(&l, keys[0], nr, "%.2f", st[b].cpu_seconds);
		if (st[b].psi) {
			busy_list_add(&l, keys[1], nr, "%llu", st[b].psi_us);
			busy_list_add(&l, keys[2], nr, "%.2f", st[b].psi_pct);
		}
		if (st[b].unquiet)
			busy_list_add(&l, keys[3], nr, "%.2f", st[b].psi_pct);
		for (r = 0; r < st[b].reboots && r < VMBOOT_REBOOTS; r++)
			busy_list_add(&l, keys[4], nr, "%.2f", st[b].reboot_pct[r]);
	}
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (meta_get(&l, keys[k]))
			meta_put(m, keys[k], "%s", meta_get(&l, keys[k]));
}

/* @n boots from @st, numbered from @first + 1 */
static void vmboot_meta_from(struct meta *m, const struct vmboot_stat *st, unsigned int n,
			     unsigned int first)
{
	vmboot_meta_list(m, st, n, first, "vm_boots");
	vmboot_meta_list(m, st, n, first, "vm_boot_seconds");
	vmboot_meta_list(m, st, n, first, "vm_boot_tries");
	vmboot_meta_busy(m, st, n, first);
}

void vmboot_meta(struct meta *m, const struct vmboot_stat *st, unsigned int n)
{
	vmboot_meta_from(m, st, n, 0);
}

void vmboot_meta_one(struct meta *m, const struct vmboot_stat *st, unsigned int b)
{
	vmboot_meta_from(m, &st[b], 1, b);
}
