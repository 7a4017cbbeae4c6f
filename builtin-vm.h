/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin-vm.h - what bench vm's three files share. The sweep itself,
 * its state, plan, shards and boot loop, is lib/kernel/vmsweep.h's;
 * bench vm drives it. builtin-vm.c: the options, their parsing, the
 * setup and the driver. builtin-vm-boot.c: the checks before any boot
 * (through lib/kernel/vmprep.h), the guests' initramfs, and what the
 * sweep calls back while it boots (bench_wait()'s signals and progress,
 * the lines on stderr, an sh command's files), and the teardown.
 * builtin-vm-out.c: what bench vm writes, the CSVs, their metadata, the
 * consoles, an sh command's files, stdout's reports and --dry-run's
 * listing. The calls go builtin-vm.c -> builtin-vm-boot.c ->
 * builtin-vm-out.c (and builtin-vm.c -> builtin-vm-out.c), never back;
 * the state goes by pointer. Nothing else includes it.
 */
#ifndef KSB_BUILTIN_VM_H
#define KSB_BUILTIN_VM_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "lib/subcmd/options.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/outset.h"
#include "lib/host/testbed.h"
#include "lib/kernel/vmsweep.h"
#include "bench.h"

#define BV_BUSYBOX	"/bin/busybox"	/* busybox-static's */
#define BV_UNSET	UINT64_MAX	/* an option not given: bv_resolve_clock() decides */

/* what bench vm keeps of kernel i beside the sweep's sw.k[i] */
struct bv_kernel {
	const char *tree;		/* its build tree, NULL: given as an image */
	char image_buf[PATH_MAX];	/* tree/arch/x86/boot/bzImage */
	struct outfile console;		/* NAME.console: every boot's console */
	char console_path[PATH_MAX];	/* its path */
	const char *ko_tree;		/* --dry-run: the tree the module would build against */
	const char *tuxmake;		/* --tuxmake DIR, or NULL */
	char tuxmake_cmd[2048];		/* its metadata.json's reproducer_cmdline */
	char arg_buf[PATH_MAX + 80];	/* --tuxmake's [NAME=]DIR/bzImage */
};

/* the CSVs of cell n, sw.cell[n]: one per command but sh */
struct bv_files {
	struct outfile out[VM_MAX_CMDS];	/* NAME[-CMD][-pN].csv */
	char path[VM_MAX_CMDS][PATH_MAX];	/* their paths */
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
	/* the sweep: its configuration is the options', then its kernels, commands, cells */
	struct vmsweep sw;

	/* configuration */
	int clock;			/* --clock, an enum vm_clock; -1: not given */
	bool dry_run;			/* --dry-run */
	const char *tuxmake[VMSWEEP_MAX_KERNELS]; /* --tuxmake [NAME=]DIR, in order */
	unsigned int nr_tuxmake;	/* used */
	struct bv_klabels klabel[VMSWEEP_MAX_KERNELS]; /* --label NAME:KEY=VALUE */
	unsigned int nr_klabel;		/* kernels with labels of their own */
	const char *module;		/* --module, for kernels given as images */
	const char *kbuild;		/* --kbuild, build the module there */
	const char *outdir;		/* -o */
	const char *busybox;		/* --busybox, static */
	const char *bench;		/* --bench, static; NULL: bench-static */
	int format;			/* -f, an index of formats[] */
	struct outset also;		/* --also FMT=FILE: what stdout gets, again */
	struct bench_origin who;	/* --label KEY=VALUE for every kernel, --origin */
	bool quiet;			/* -q */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct testbed tb;		/* this host, read before the first boot */
	time_t started;			/* when: the files' timestamp */
	struct bv_kernel k[VMSWEEP_MAX_KERNELS]; /* beside sw.k[], in order */
	struct bv_files *files;		/* [sw.nr_cells] */
	char bench_path[PATH_MAX];	/* the static bench the guests run */
	char work[PATH_MAX];		/* temp directory: initramfs, logs */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
};

/* ---- builtin-vm-boot.c ---- */

/**
 * bv_said - a lib/kernel/vmprep.h check's return as ours: 0, 2 (-EINVAL), or 3, said
 */
int bv_said(int ret, const char *why);

/**
 * bv_check_config - the sweep's cells, each machine checked: 0 or 2/3
 */
int bv_check_config(struct bv_global *bv);

/**
 * bv_check_guest_files - the static bench and busybox the guests get: 0 or 2/3
 */
int bv_check_guest_files(struct bv_global *bv);

/**
 * bv_check_kernels - every kernel's image, and its module where a command needs it
 */
int bv_check_kernels(struct bv_global *bv);

/**
 * bv_initramfs - kernel @i's initramfs in the work directory: 0 or 3
 */
int bv_initramfs(struct bv_global *bv, unsigned int i);

/**
 * bv_measure - the sweep's boots (lib/kernel/vmsweep.h's vmsweep_run()),
 * said on stderr as they go: 0, 128 + signal when stopped, or an exit
 * code after a message
 */
int bv_measure(struct bv_global *bv);

/**
 * bv_cleanup - the work directory removed, no rm forked
 */
void bv_cleanup(struct bv_global *bv);

/* ---- builtin-vm-out.c ---- */

/**
 * bv_open_outputs - every file written, opened before anything boots: 0 or 2
 */
int bv_open_outputs(struct bv_global *bv);

/**
 * bv_keep_files - sh command @i's files of cell @c's boot @b, from the
 * guest @g, into DIR/LABEL-sh/: 0, or -errno with @why
 */
int bv_keep_files(struct bv_global *bv, const struct vmsweep_cell *c, unsigned int b,
		  unsigned int i, const struct vm_guest *g, char *why, size_t len);

/**
 * bv_report - every CSV with the boots that finished, the reports: an exit code
 */
int bv_report(struct bv_global *bv);

/**
 * bv_keep_consoles - every kernel's console file committed: 0 or 3
 */
int bv_keep_consoles(struct bv_global *bv);

/**
 * bv_abort - every output's temp file removed
 */
void bv_abort(struct bv_global *bv);

/**
 * bv_dry_run - --dry-run's qemu lines, initramfs files, plan and /init on stdout
 */
int bv_dry_run(struct bv_global *bv);

#endif /* KSB_BUILTIN_VM_H */
