/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin-vm.h - what bench vm's three files share: builtin-vm.c (its
 * options, parsing and driver), builtin-vm-boot.c (the checks before
 * any boot, and one boot through lib/kernel/vmboot.h with bench_wait()'s
 * signals and progress, and the teardown) and builtin-vm-shard.c (the
 * plan, its key and the shard of it a run boots). The calls go one way,
 * builtin-vm.c -> builtin-vm-shard.c -> builtin-vm-boot.c, never back;
 * the state goes by pointer. Nothing else includes it.
 */
#ifndef KSB_BUILTIN_VM_H
#define KSB_BUILTIN_VM_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "lib/kernel/kimage.h"
#include "lib/report/options.h"
#include "lib/report/outfile.h"
#include "lib/kernel/runs.h"
#include "lib/report/outset.h"
#include "lib/kernel/sha256.h"
#include "lib/report/testbed.h"
#include "lib/kernel/vm.h"
#include "lib/kernel/vmboot.h"
#include "lib/kernel/vmprep.h"

#define BV_MAX_KERNELS	16
#define BV_BUSYBOX	"/bin/busybox"	/* busybox-static's */
#define BV_MAX_COUNTS	16		/* -p's list */
#define BV_MAX_POSSIBLE	8192		/* -p's counts: the kernel's NR_CPUS at most */
#define BV_MAX_FILES	16		/* --file */
#define BV_MAX_SHARDS	1000		/* --shard's N */

/* the boots' results of one command on one kernel at one count */
struct bv_runs {
	struct runs set;		/* the boots as runs 1.., and their merge */
	struct outfile out;		/* NAME[-CMD][-pN].csv */
	char path[PATH_MAX];		/* its path */
};

/* one kernel under test */
struct bv_kernel {
	char name[VMPREP_NAME_MAX + 1];	/* label: files, progress, metadata */
	const char *image;		/* its bzImage */
	const char *tree;		/* its build tree, NULL: given as an image */
	char image_buf[PATH_MAX];	/* tree/arch/x86/boot/bzImage */
	char release[KIMAGE_RELEASE_MAX]; /* the bzImage's */
	char ko[PATH_MAX];		/* the module it boots with, "" none */
	char initrd[PATH_MAX];		/* its initramfs, in the work directory */
	struct outfile console;		/* NAME.console: every boot's console */
	char console_path[PATH_MAX];	/* its path */
	char sha256[SHA256_HEX];	/* the bzImage's */
	const char *ko_tree;		/* --dry-run: the tree the module would build against */
	const char *tuxmake;		/* --tuxmake DIR, or NULL */
	char tuxmake_cmd[2048];		/* its metadata.json's reproducer_cmdline */
	char arg_buf[PATH_MAX + 80];	/* --tuxmake's [NAME=]DIR/bzImage */
};

/* one kernel booted at one possible-CPU count: the unit of the files */
struct bv_cell {
	struct bv_kernel *k;		/* the kernel */
	struct vm_config vm;		/* the machine, at this count */
	char label[80];			/* NAME, or NAME-pN with several counts */
	char qemu_line[2048];		/* its qemu command, for the metadata */
	struct vmboot_stat *boot;	/* [boots] */
	unsigned int nr_boots;		/* finished */
	struct bv_runs runs[VM_MAX_CMDS]; /* per command */
};

/* --label NAME:KEY=VALUE: the labels of kernel NAME's files alone */
struct bv_klabels {
	char name[VMPREP_NAME_MAX + 1];	/* the kernel, checked once operands are read */
	struct tb_labels l;		/* its labels, in the order given */
};

/*
 * bench vm's state, configuration then run state: builtin-vm.c holds
 * the one instance and passes its address to every function here.
 */
struct bv_global {
	/* configuration */
	uint64_t boots;			/* -B, per kernel and count */
	uint64_t cpus;			/* -c, online vCPUs */
	unsigned int possible[BV_MAX_COUNTS]; /* -p, in order */
	unsigned int nr_p;		/* used; 0: --cpus */
	uint64_t nodes;			/* --nodes */
	unsigned long memory;		/* -m, MiB */
	bool dry_run;			/* --dry-run */
	const char *tuxmake[BV_MAX_KERNELS]; /* --tuxmake [NAME=]DIR, in order */
	unsigned int nr_tuxmake;	/* used */
	struct bv_klabels klabel[BV_MAX_KERNELS]; /* --label NAME:KEY=VALUE */
	unsigned int nr_klabel;		/* kernels with labels of their own */
	enum vm_accel accel;		/* --accel */
	uint64_t timeout;		/* --timeout, s per boot */
	uint64_t retries;		/* --retries, per boot */
	uint64_t reboot_disturbed;	/* --reboot-disturbed, per boot */
	const char *append;		/* --append, more kernel command line */
	const char *module;		/* --module, for kernels given as images */
	const char *kbuild;		/* --kbuild, build the module there */
	const char *outdir;		/* -o */
	const char *qemu;		/* --qemu */
	const char *busybox;		/* --busybox, static */
	const char *bench;		/* --bench, static; NULL: bench-static */
	struct vmprep_file file[BV_MAX_FILES]; /* --file SRC[=DST], in order */
	struct vm_extra extra[BV_MAX_FILES]; /* the same, for vm_initramfs() */
	unsigned int nr_file;		/* used */
	int format;			/* -f, an index of formats[] */
	struct outset also;		/* --also FMT=FILE: what stdout gets, again */
	bool quiet;			/* -q */
	unsigned int shard_i, shard_n;	/* --shard I/N; 0/0: the whole plan */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct testbed tb;		/* this host, read before the first boot */
	time_t started;			/* when: the files' timestamp */
	struct bv_kernel k[BV_MAX_KERNELS]; /* operands, in order */
	unsigned int nr_k;		/* used */
	struct vm_cmd c[VM_MAX_CMDS];	/* after "--", in order */
	unsigned int nr_c;		/* used */
	struct bv_cell *cell;		/* [nr_k * nr_p]: kernel k at count p is k * nr_p + p */
	unsigned int nr_cells;		/* allocated */
	char bench_path[PATH_MAX];	/* the static bench the guests run */
	char work[PATH_MAX];		/* temp directory: initramfs, logs */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
	unsigned int plan_first;	/* the plan's boots this run boots: from */
	unsigned int plan_end;		/* up to, not included */
	char plan_key[SHA256_HEX];	/* the plan's SHA-256 (builtin-vm-shard.c) */
};

/* ---- builtin-vm-boot.c ---- */

/* bv_said - a lib/kernel/vmprep.h check's return as ours: 0, 2 (-EINVAL), or 3, said */
int bv_said(int ret, const char *why);

/* bv_check_config - the machine of every count checked, the cells made: 0 or 2/3 */
int bv_check_config(struct bv_global *bv);

/* bv_check_guest_files - the static bench and busybox the guests get: 0 or 2/3 */
int bv_check_guest_files(struct bv_global *bv);

/* bv_check_kernels - every kernel's image, and its module where a command needs it */
int bv_check_kernels(struct bv_global *bv);

/* bv_is_sh - is command @i an sh SCRIPT (files back, no CSV)? */
bool bv_is_sh(struct bv_global *bv, unsigned int i);

/* bv_initramfs - @k's initramfs in the work directory: 0 or 3 */
int bv_initramfs(struct bv_global *bv, struct bv_kernel *k);

/*
 * bv_boot - boot cell @c once (again after a hang or a crash), its
 * results read back as run @b + 1. Returns 0, 128 + signal when stopped,
 * or an exit code after a message.
 */
int bv_boot(struct bv_global *bv, struct bv_cell *c, unsigned int b);

/* bv_stopped - a SIGINT/SIGTERM came between two boots: start no other */
bool bv_stopped(struct bv_global *bv);

/* bv_free - every output's temp file removed, the cells' boots freed */
void bv_free(struct bv_global *bv);

/* bv_cleanup - the work directory removed, no rm forked */
void bv_cleanup(struct bv_global *bv);

/* ---- builtin-vm-shard.c: the plan, and the shard of it this run boots ---- */

/* bv_opt_shard - --shard I/N: 0, or -EINVAL with the ranges in @why */
int bv_opt_shard(const struct opt *o, const char *arg, char *why, size_t len);

/* bv_shard_check - the shard's boots of the plan, once parsed: 0, or -1 said */
int bv_shard_check(struct bv_global *bv);

/* bv_plan_key - the plan's key, once the kernels' digests are read: 0 or 3 */
int bv_plan_key(struct bv_global *bv);

/* bv_plan_boots - how many boots of cell @c this run boots */
unsigned int bv_plan_boots(struct bv_global *bv, const struct bv_cell *c);

/* bv_shard_meta - the plan, the shard and the runner into @c's metadata @m */
void bv_shard_meta(struct bv_global *bv, const struct bv_cell *c, struct meta *m);

/* bv_measure - this run's boots in the plan's order: 0, 128 + signal, or an exit code */
int bv_measure(struct bv_global *bv);

/* bv_dry_plan - --dry-run --shard: the plan's key and the shard's boots on stdout */
void bv_dry_plan(struct bv_global *bv);

#endif /* KSB_BUILTIN_VM_H */
