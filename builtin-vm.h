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
 * listing. builtin-vm-plugin.c: --plugin, the project's QEMU plugin in
 * every boot (docs/plugin.md): its options, its symbols, the plan's
 * settings; builtin-vm-windows.c: its figures of each boot and their
 * files. The calls go builtin-vm.c -> builtin-vm-boot.c ->
 * builtin-vm-out.c (and builtin-vm.c -> builtin-vm-out.c), each of them
 * -> builtin-vm-windows.c -> builtin-vm-plugin.c, never back; the state
 * goes by pointer. Nothing else includes it.
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
#include "lib/kernel/vmplug.h"
#include "lib/kernel/vmsweep.h"
#include "plugin/pconf.h"
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
	/* --plugin */
	const char *syms_given;		/* --plugin-syms [NAME=]FILE, or NULL */
	char syms[PATH_MAX];		/* its symbols' file, "" none */
	char syms_sha[SHA256_HEX];	/* that file's sha256 */
	bool syms_boot;			/* auto: not cached, one boot reads them first */
	unsigned int nr_funcs;		/* functions in it */
	char plugin_arg[2 * PATH_MAX + 1280]; /* its boots' -plugin, sw.k[i].plugin */
};

/* the plugin's figures of a cell: per command and figure, the boots as runs */
struct bv_plugged {
	struct runs fig[VM_MAX_CMDS][VMPLUG_NR_FIGURES];
	uint64_t *windows;		/* [-B] each boot's windows, every command's */
	uint64_t *dropped;		/* [-B] each boot's windows dropped */
};

/* --plugin's settings */
struct bv_plugin {
	int mode;			/* --plugin, an index of bvp_modes[]; -1: none */
	struct pconf conf;		/* its model (--plugin-opt's model keys) */
	char opts[1024];		/* those keys as given: ",KEY=VALUE" each */
	bool model_given;		/* one of them was given */
	struct vmplug_lat lat;		/* --plugin-opt llc_lat, mem_lat */
	bool lat_given;			/* one of them was given */
	bool given;			/* a --plugin-opt or --plugin-syms was given */
	int syms;			/* --plugin-syms auto or none: BVP_SYMS_AUTO, _NONE */
	struct {
		char name[VMPREP_NAME_MAX + 1];	/* the kernel, "" every kernel */
		const char *file;	/* its symbols */
	} sf[VMSWEEP_MAX_KERNELS + 1];	/* --plugin-syms [NAME=]FILE, in order */
	unsigned int nr_sf;		/* used */
	char append[VM_APPEND_MAX + 16]; /* --append with nokaslr */
	char so[PATH_MAX];		/* the plugin found (bvp_find()) */
	char cache[PATH_MAX];		/* auto: where the symbols are kept */
	char key[1400];			/* its settings in the plan's key */
	struct bv_plugged *cell;	/* [sw.nr_cells], NULL until the setup */
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
	struct bv_plugin plug;		/* --plugin, --plugin-opt, --plugin-syms */
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
 * bv_boot_syms - kernel @i's symbols for --plugin-syms auto, where it
 * has none kept yet: one boot with nokaslr reads them
 * (bvp_syms_script(), bvp_syms_keep()). 0 or an exit code said.
 */
int bv_boot_syms(struct bv_global *bv, unsigned int i);

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

/* ---- builtin-vm-plugin.c ---- */

extern const char *const bvp_modes[];	/* --plugin's: "insns", "cache" */

#define BVP_SYMS_AUTO	0		/* --plugin-syms auto: kallsyms of a nokaslr boot */
#define BVP_SYMS_NONE	1		/* --plugin-syms none */

/**
 * bvp_defaults - no plugin, the model's defaults, the estimate's latencies
 */
void bvp_defaults(struct bv_plugin *p);

/**
 * bvp_opt - --plugin-opt KEY=VALUE, an OPT_CALL on struct bv_plugin: 0 or -EINVAL, @why
 */
int bvp_opt(const struct opt *o, const char *arg, char *why, size_t len);

/**
 * bvp_opt_syms - --plugin-syms auto|none|[NAME=]FILE, the same
 */
int bvp_opt_syms(const struct opt *o, const char *arg, char *why, size_t len);

/**
 * bvp_resolve - once the clock and the kernels are known: the rules
 * between --plugin's options (the counted clock; the model's keys under
 * cache alone; --plugin-syms NAME a kernel), nokaslr appended where a
 * kernel has symbols, each kernel's -plugin set up. 0 or EXIT_USAGE said.
 */
int bvp_resolve(struct bv_global *bv);

/**
 * bvp_setup - once the kernels are checked, before the plan's key: the
 * plugin found (EXIT_ENV naming make plugin), each kernel's symbols (a
 * file given, or auto's kept ones, else marked for a boot) and -plugin
 * argument, the plan's settings and files, the cells' runs. 0 or an exit
 * code said.
 */
int bvp_setup(struct bv_global *bv);

/**
 * bvp_syms_script - the script that reads a kernel's symbols, written into @path: 0 or -errno
 */
int bvp_syms_script(const struct bv_global *bv, char *path, size_t len);

/**
 * bvp_syms_keep - kernel @i's symbols as its boot sent them (@f, the
 * script's kallsyms file), kept where auto finds them again: 0, or
 * EXIT_ENV said (none, or their addresses hidden)
 */
int bvp_syms_keep(struct bv_global *bv, unsigned int i, FILE *f);

/**
 * bvp_marks - does command @i of @sw mark windows (bench kernel, run, audit)?
 */
bool bvp_marks(const struct vmsweep *sw, unsigned int i);

/**
 * bvp_dry_run - --dry-run's lines of the plugin: where it is, each kernel's symbols
 */
void bvp_dry_run(const struct bv_global *bv);

/**
 * bvp_free - the cells' runs of the plugin's figures
 */
void bvp_free(struct bv_global *bv);

/* ---- builtin-vm-windows.c ---- */

/**
 * bvw_absorb - the sweep's plugin callback (vmsweep_ops.plugin), @priv
 * the state: boot @b of @c, what each command sent (@guest), the
 * plugin's files @win and @fn, made each command's figures, added to
 * the cell's runs. 0, or -errno with one line in @why: the plugin wrote
 * nothing, its file ends early (qemu did not exit), a command that marks
 * windows got none.
 */
int bvw_absorb(void *priv, const struct vmsweep_cell *c, unsigned int b,
	       struct results *const *guest, const char *win, const char *fn, char *why,
	       size_t len);

/**
 * bvw_write - cell @n's command @i's plugin files beside its CSV @csv
 * (NAME[-CMD][-pN]-FIGURE.csv), the plugin's keys, then the command's
 * metadata @guest: 0, or EXIT_ENV said
 */
int bvw_write(struct bv_global *bv, unsigned int n, unsigned int i, const char *csv,
	      const struct meta *guest);

#endif /* KSB_BUILTIN_VM_H */
