/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmboot.h - one boot of bench vm: qemu started on a kernel and its
 * initramfs (lib/kernel/vm.h), waited for, killed at the timeout, booted again
 * after a hang or a crash, its console kept, and what the guest sent
 * read back. The caller waits (its signals, its progress line) through
 * @wait, and says what it prints through @retry; nothing here prints.
 *
 *	struct vmboot b = { .vm = &cfg, .image = "bzImage", .initrd = "k.cpio",
 *			    .work = dir, .nr_cmds = 1, .timeout_ms = 300000,
 *			    .retries = 1, .console = f, .name = "stock", .boot = 1 };
 *	switch (vmboot_run(&b)) {
 *	case VMBOOT_DONE:	b.guest holds every command's CSV
 *	...
 *	}
 *	vm_guest_free(&b.guest);
 */
#ifndef KSB_VMBOOT_H
#define KSB_VMBOOT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "lib/subcmd/spawn.h"
#include "lib/measure/contend.h"
#include "lib/kernel/vm.h"

/* how vmboot_run() ended */
enum vmboot_end {
	VMBOOT_DONE,			/* every command ran: b->guest */
	VMBOOT_STOPPED,			/* @wait said a signal stopped it */
	VMBOOT_QEMU_FAILED,		/* qemu exited non-zero: b->why its stderr */
	VMBOOT_GAVE_UP,			/* hung or crashed 1 + retries times */
	VMBOOT_ERROR,			/* qemu did not start, a file: b->why */
};

struct vmboot {
	/* in */
	const struct vm_config *vm;	/* the machine */
	const char *image;		/* the bzImage */
	const char *initrd;		/* its initramfs */
	const char *work;		/* where console, data and qemu.err go */
	unsigned int nr_cmds;		/* the guest's commands */
	unsigned long timeout_ms;	/* a try's limit, from qemu's start */
	unsigned int retries;		/* tries after the first that hung or crashed */
	FILE *console;			/* every try's console appended, or NULL */
	const char *name;		/* for the console's headings */
	unsigned int boot;		/* which boot, 1.., for the headings */
	/*
	 * wait for qemu @s, spawn_poll(@s, timeout_ms) until it is reaped:
	 * 0 once reaped, 1 when a signal stopped it (killed and reaped),
	 * -errno. NULL: spawn_wait().
	 */
	int (*wait)(struct spawn *s, void *priv);
	/* a try hung or crashed: @why (no newline); @again: a try follows */
	void (*retry)(void *priv, const char *why, bool again);
	void *priv;			/* the callbacks' argument */

	/* out */
	struct vm_guest guest;		/* VMBOOT_DONE: what the guest sent */
	double seconds;			/* the last try: qemu's start to its exit */
	double cpu_seconds;		/* the last try: qemu's user + sys time */
	struct contend busy;		/* the last try: the host's PSI stall over it */
	unsigned int tries;		/* tries made */
	char why[768];			/* what went wrong, one line */
	char qemu_line[2048];		/* the qemu command as a shell line */
	/*
	 * where the plugin (vm->plugin) writes its windows and functions
	 * (vm_plugin_paths()), removed before each try: after VMBOOT_DONE,
	 * the last try's
	 */
	char plugin_win[PATH_MAX + 48];
	char plugin_fn[PATH_MAX + 48];
};

/**
 * vmboot_run - boot @b->image until a try ends with every command run,
 * at most 1 + @b->retries tries. Returns how it ended (enum vmboot_end);
 * b->guest is @b's to vm_guest_free() after VMBOOT_DONE.
 */
enum vmboot_end vmboot_run(struct vmboot *b);

/**
 * vmboot_check_cpus - did the guest @g count @c's possible and online
 * CPUs? Returns 0, or -ERANGE with why not in @why: the limit it met
 * (the kernel's NR_CPUS, the firmware's 255 and a kernel that adds none
 * from possible_cpus=), else both counts.
 */
int vmboot_check_cpus(const struct vm_config *c, const struct vm_guest *g, char *why, size_t len);

#define VMBOOT_REBOOTS	5		/* disturbed boots booted again, at most */

/* what one boot said, for the metadata */
struct vmboot_stat {
	unsigned int possible;		/* possible CPUs, as the guest counted them */
	unsigned int online;		/* online CPUs, as the guest counted them */
	double seconds;			/* qemu's start to its exit, wall clock */
	double cpu_seconds;		/* qemu's user + sys time over them */
	bool psi;			/* the host has PSI: psi_us and psi_pct count */
	unsigned long long psi_us;	/* the host's PSI cpu some stall over them, us */
	double psi_pct;			/* the same, % of seconds */
	unsigned int tries;		/* boots it took: 1 + retries */
	unsigned int reboots;		/* disturbed boots booted again, at most VMBOOT_REBOOTS */
	double reboot_pct[VMBOOT_REBOOTS]; /* each one's psi_pct */
	bool unquiet;			/* kept although disturbed: no boot left */
};

struct meta;

/**
 * vmboot_meta - @n boots' @st into @m as "run:value" lists:
 * vm_boots "1:480/2 2:480/2" (possible/online), vm_boot_seconds
 * "1:6.1 2:5.9", vm_boot_tries "1:1 2:2", vm_qemu_cpu_seconds
 * "1:5.71 2:4.02", and where the host has PSI psi_cpu_some_us and
 * psi_cpu_some_pct (lib/results/busy.h); vm_disturbed_tries "2:31.07"
 * the boots booted again as disturbed, with their psi %, and
 * vm_unquiet_boots "3:40.10" the boots kept though disturbed.
 */
void vmboot_meta(struct meta *m, const struct vmboot_stat *st, unsigned int n);

/**
 * vmboot_meta_one - boot @b's record alone (@st[@b]) into @m, the same
 * lists as vmboot_meta()'s, each one pair numbered @b + 1: what a file
 * that boot brought back carries beside it (bench vm's sh files).
 */
void vmboot_meta_one(struct meta *m, const struct vmboot_stat *st, unsigned int b);

/**
 * vmboot_tail - the last @n (at most 8) non-empty lines of the file
 * @path, CRs dropped, joined by " | ", into @buf (read up to a line of
 * more than VM_MAX_LINE bytes, if any); "(nothing on the console)" when
 * there are none.
 */
void vmboot_tail(const char *path, unsigned int n, char *buf, size_t len);

#endif /* KSB_VMBOOT_H */
