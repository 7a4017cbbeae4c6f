/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmsweep.h - bench vm's sweep: kernels under test, each booted at every
 * possible-CPU count of a list, -B times, in a balanced order (the plan),
 * or one shard of that plan; every boot runs the same commands, and what
 * each command sent back is one run of its cell's set (lib/measure/runs.h).
 * Here are the sweep's state, the plan's order, its key, the shard
 * arithmetic and the boot loop: each cell booted in the plan's order
 * through lib/kernel/vmboot.h (its tries after a hang or a crash), booted
 * again when the host disturbed it (lib/results/busy.h's rule), and what
 * the guest sent absorbed into the cell's runs. Nothing here prints or
 * exits: the caller waits for qemu (its signals, its progress line), says
 * what it prints through struct vmsweep_ops, and writes the files.
 *
 *	struct vmsweep sw = { .boots = 6, .cpus = 2, .nodes = 1, .memory = 1024,
 *			      .timeout = 300, .retries = 1, .reboot_disturbed = 1,
 *			      .qemu = "qemu-system-x86_64", .work = dir };
 *	kernels into sw.k[sw.nr_k++] (name, image), commands into
 *	sw.c[sw.nr_c++] (lib/kernel/vmprep.h), counts into sw.possible[]
 *	vmsweep_plan(&sw, why, len);	the shard's boots, -EINVAL: why
 *	vmsweep_cells(&sw, why, len);	every kernel at every count, checked
 *	each kernel's sha256, release, ko, initrd and console filled in
 *	vmsweep_plan_key(&sw);
 *	ret = vmsweep_run(&sw, &ops, why, len);
 *	each cell's runs[i].all written (its runs are its boots)
 *	vmsweep_free(&sw);
 *
 * THE PLAN
 *
 * Round after round, each round booting every cell (kernel, count) once
 * in vm_sweep_slot()'s order (lib/kernel/vm.h: kernels and counts rotated
 * round by round, so that none is always early or late): plan boot p is
 * round p / cells, slot p % cells, and boots 0..boots * cells - 1 in all.
 * A cell's boots are its runs 1.., in the order they went. The plan's key
 * (vmsweep_plan_key()) is the SHA-256 of what defines the plan, one line
 * each: -B, the machine, --append, the counts, each kernel's name and
 * image digest, each command's words quoted as one shell line
 * (spawn_sh_line(): "a b" is not "a" "b"), each --file's path in the guest,
 * the clock, and the plugin's settings where it runs (plugin_key);
 * never a path on the host, a label, a timeout or the shard, so that
 * every runner of one plan computes one key.
 *
 * A SHARD
 *
 * --shard I/N boots the part of the plan vm_shard_range() gives shard I
 * (whole rounds where N divides them: each shard stays balanced over
 * kernels and counts), [plan_first, plan_end). Its files are an
 * unsharded run's with fewer runs, numbered 1.. as its boots went, and
 * say which runs of the plan they are (vmsweep_plan_meta()):
 *
 *	vm_plan: 3f6c...		the plan's key
 *	vm_shard: 2/3
 *	vm_shard_boots: 5-8 of 12	the plan's boots this shard ran
 *	vm_plan_runs: 3 4		the plan run of each of the file's runs
 *	vm_plan_files: 4		the CSV files of the whole plan, the
 *					plugin's (plugin_files a cell) too
 *	vm_plan_file_runs: 6		the runs each holds in the whole plan (-B)
 *
 * bench merge joins the shards' files by them, and proves by the last
 * two that the shards it was given hold the whole plan.
 *
 * RETURNS AND THREADS
 *
 * Actions return 0 or -errno, with one line in @why where they say so.
 * Not thread-safe: the boots fork and wait for qemu (lib/subcmd/spawn.h);
 * call from one thread.
 */
#ifndef KSB_VMSWEEP_H
#define KSB_VMSWEEP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/kernel/kimage.h"
#include "lib/measure/runs.h"
#include "lib/kernel/sha256.h"
#include "lib/kernel/vm.h"
#include "lib/kernel/vmboot.h"
#include "lib/kernel/vmprep.h"

#define VMSWEEP_MAX_KERNELS	16
#define VMSWEEP_MAX_COUNTS	16	/* -p's list */
#define VMSWEEP_MAX_FILES	16	/* --file */
#define VMSWEEP_MAX_SHARDS	1000	/* --shard's N */
#define VMSWEEP_RC_USAGE	2	/* a guest bench command's exit code on bad words */

struct meta;
struct results;

/* one kernel under test */
struct vmsweep_kernel {
	char name[VMPREP_NAME_MAX + 1];	/* label: files, messages, metadata */
	const char *image;		/* its bzImage */
	char release[KIMAGE_RELEASE_MAX]; /* the bzImage's */
	char sha256[SHA256_HEX];	/* the bzImage's: in the plan's key */
	char ko[PATH_MAX];		/* the module it boots with, "" none */
	char initrd[PATH_MAX];		/* its initramfs */
	FILE *console;			/* every boot's console appended, or NULL */
	const char *console_path;	/* its name, for a boot that gave up; NULL: none */
	const char *plugin;		/* its boots' vm_config.plugin, or NULL: none */
};

/* one kernel booted at one possible-CPU count: a cell of the sweep */
struct vmsweep_cell {
	struct vmsweep_kernel *k;	/* the kernel */
	struct vm_config vm;		/* the machine, at this count */
	char label[80];			/* NAME, or NAME-pN with several counts */
	char qemu_line[2048];		/* its first boot's qemu command, a shell line */
	struct vmboot_stat *boot;	/* [boots]: what each boot said */
	unsigned int nr_boots;		/* finished */
	struct runs runs[VM_MAX_CMDS];	/* per command: the boots as runs 1.. */
};

/* the sweep: configuration, set before vmsweep_plan(), then its state */
struct vmsweep {
	/* configuration */
	uint64_t boots;			/* per kernel and count */
	uint64_t cpus;			/* online vCPUs */
	unsigned int possible[VMSWEEP_MAX_COUNTS]; /* possible CPUs, in order */
	unsigned int nr_p;		/* used, at least 1 */
	uint64_t nodes;			/* NUMA nodes */
	unsigned long memory;		/* MiB */
	enum vm_accel accel;		/* qemu's accelerator */
	enum vm_clock clock;		/* the guest's clock: counted under TCG */
	const char *append;		/* more kernel command line, or NULL */
	const char *qemu;		/* the qemu program */
	uint64_t timeout;		/* s a try may take */
	uint64_t retries;		/* tries after one that hung or crashed */
	uint64_t reboot_disturbed;	/* boots again when disturbed, at most VMBOOT_REBOOTS */
	struct vmprep_file file[VMSWEEP_MAX_FILES]; /* more files in every initramfs */
	struct vm_extra extra[VMSWEEP_MAX_FILES]; /* the same, for vm_initramfs() */
	unsigned int nr_file;		/* used */
	unsigned int shard_i, shard_n;	/* shard I of N; 0/0: the whole plan */
	const char *plugin_key;		/* the plugin's settings, in the plan's key; NULL: none */
	unsigned int plugin_files;	/* the plugin's CSV files of a cell, beside the commands' */
	const char *work;		/* the work directory: each try's files */
	struct vmsweep_kernel k[VMSWEEP_MAX_KERNELS]; /* in order */
	unsigned int nr_k;		/* used */
	struct vm_cmd c[VM_MAX_CMDS];	/* what every boot runs, in order */
	unsigned int nr_c;		/* used */

	/* state */
	struct vmsweep_cell *cell;	/* [nr_k * nr_p]: kernel k at count p is k * nr_p + p */
	unsigned int nr_cells;		/* allocated */
	unsigned int plan_first;	/* the plan's boots this run boots: from */
	unsigned int plan_end;		/* up to, not included */
	char plan_key[SHA256_HEX];	/* vmsweep_plan_key() */
};

/* what the boot loop calls back; any may be NULL but signo */
struct vmsweep_ops {
	/*
	 * wait for qemu @s booting @c's boot @b, spawn_poll(@s, timeout) until
	 * it is reaped: 0 once reaped, 1 when a signal stopped it (killed and
	 * reaped, *signo set), -errno. NULL: spawn_wait() to the timeout.
	 */
	int (*wait)(void *priv, struct spawn *s, const struct vmsweep_cell *c, unsigned int b);
	/* a try of @c's boot @b hung or crashed: @why; @again: another try follows */
	void (*retry)(void *priv, const struct vmsweep_cell *c, unsigned int b, const char *why,
		      bool again);
	/*
	 * the host disturbed @c's boot @b: @why ("disturbed: psi cpu some
	 * ..."); @again: it boots again, else it is kept, marked unquiet
	 */
	void (*disturbed)(void *priv, const struct vmsweep_cell *c, unsigned int b,
			  const char *why, bool again);
	/* @c's boot @b is in its runs: @c->boot[@b] says what it took */
	void (*booted)(void *priv, const struct vmsweep_cell *c, unsigned int b);
	/*
	 * sh command @i's files of @c's boot @b (@g->file, even when it
	 * failed: they say why), for the caller to keep: 0, or -errno with
	 * one line in @why
	 */
	int (*files)(void *priv, const struct vmsweep_cell *c, unsigned int b, unsigned int i,
		     const struct vm_guest *g, char *why, size_t len);
	/*
	 * @c's boot @b with the plugin (its kernel's plugin): what each
	 * command sent, @guest[i] a one-run set (NULL: an sh command), and
	 * the plugin's files @win and @fn (lib/kernel/vmplug.h), for the
	 * caller to make its figures of, before the boot is counted: 0, or
	 * -errno with one line in @why (the boot fails)
	 */
	int (*plugin)(void *priv, const struct vmsweep_cell *c, unsigned int b,
		      struct results *const *guest, const char *win, const char *fn, char *why,
		      size_t len);
	void *priv;			/* the callbacks' argument */
	int *signo;			/* the SIGINT/SIGTERM that stopped us, or 0 */
};

/**
 * vmsweep_is_sh - is command @i an sh SCRIPT (files back, no CSV)?
 */
bool vmsweep_is_sh(const struct vmsweep *sw, unsigned int i);

/**
 * vmsweep_plan - the shard's boots of the plan into @sw->plan_first and
 * @sw->plan_end, once the kernels, counts and commands are in. Returns 0,
 * or -EINVAL with @why: a shard of a plan with an sh command (its files
 * are per boot, not merged), or N above the plan's boots.
 */
int vmsweep_plan(struct vmsweep *sw, char *why, size_t len);

/**
 * vmsweep_plan_total - the plan's boots: -B x kernels x counts
 */
unsigned int vmsweep_plan_total(const struct vmsweep *sw);

/**
 * vmsweep_plan_cell - the cell plan boot @p (0..) boots: its index in
 * @sw->cell, kernel * nr_p + count, with its round (0..) into *@round.
 * Needs no cells.
 */
unsigned int vmsweep_plan_cell(const struct vmsweep *sw, unsigned int p, unsigned int *round);

/**
 * vmsweep_cell_boots - how many boots of cell @n this shard boots (all: -B)
 */
unsigned int vmsweep_cell_boots(const struct vmsweep *sw, unsigned int n);

/**
 * vmsweep_cells - every kernel at every count: @sw->cell, each machine
 * checked by vm_check_config(), its boots' records allocated and each
 * command's runs asked for vmsweep_cell_boots(). Returns 0; -EINVAL with
 * @why naming the option a machine breaks; -ENOMEM. vmsweep_free() undoes
 * it either way.
 */
int vmsweep_cells(struct vmsweep *sw, char *why, size_t len);

/**
 * vmsweep_plan_key - the plan's key (THE PLAN) into @sw->plan_key, once
 * every kernel's sha256 is in. Returns 0, or -ENOMEM.
 */
int vmsweep_plan_key(struct vmsweep *sw);

/**
 * vmsweep_plan_meta - the plan and the shard (A SHARD) into cell @c's
 * metadata @m: vm_plan, and for a shard vm_shard, vm_shard_boots,
 * vm_plan_runs of the boots @c has finished, vm_plan_files and
 * vm_plan_file_runs.
 */
void vmsweep_plan_meta(const struct vmsweep *sw, const struct vmsweep_cell *c, struct meta *m);

/**
 * vmsweep_run - the shard's boots in the plan's order, each through
 * lib/kernel/vmboot.h (1 + retries tries while a try hangs or crashes;
 * booted again while the host disturbed it, reboot_disturbed times),
 * then its results: the guest's CPU counts checked
 * (vmboot_check_cpus()), each sh command's files handed to @ops->files,
 * each command's exit code checked, each bench command's CSV read, the
 * plugin's files handed to @ops->plugin with them where the kernel has
 * the plugin, and each CSV added to its runs as run nr_boots + 1
 * (runs_add()). Before each boot a
 * pending SIGINT/SIGTERM (runs_stop_pending()) sets *@ops->signo, and no
 * further boot starts once it is set. Returns 0 (every boot); -EINTR
 * when a signal stopped it (the boots finished are kept); -EINVAL when a
 * guest's bench command exited VMSWEEP_RC_USAGE (it refused its words:
 * @why says which, with its message); another -errno when a boot or its
 * results failed (@why: the cell, the boot, what).
 */
int vmsweep_run(struct vmsweep *sw, const struct vmsweep_ops *ops, char *why, size_t len);

/**
 * vmsweep_free - the cells, their boots' records and runs freed; free(NULL)-safe
 */
void vmsweep_free(struct vmsweep *sw);

#endif /* KSB_VMSWEEP_H */
