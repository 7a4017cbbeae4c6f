// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm.c - bench vm: boot each kernel under test in qemu with as
 * many possible CPUs as asked (a list of counts: a sweep), run bench
 * commands inside every boot, and write one CSV per kernel, count and
 * command whose runs are the boots, ready for bench compare and bench
 * scale.
 *
 * Why boots and not runs inside one boot: runs in one boot share its
 * per-CPU area, slab caches and placement, and are not independent (on
 * 6.1, six runs in one boot per kernel showed a -10% "improvement" of
 * irq_free_descs() that the patch cannot cause); boots are. The boots
 * go round by round, every kernel at every count once a round, in the
 * order of vm_sweep_slot() (lib/kernel/vm.h: kernels and counts rotated,
 * A B, B A, ...), so that a drift of the host moves every side alike, as
 * bench run's ABBA does inside a run.
 *
 * Each boot (lib/kernel/vmboot.h): an initramfs with busybox, the static
 * bench, the module and an /init made for the commands, qemu with the
 * kernel's console on ttyS0 (kept for the reader, NAME.console) and the
 * results on ttyS1 as "@ksb" frames (lib/kernel/vm.h). The sweep, its
 * plan, shards and boot loop, is lib/kernel/vmsweep.h's; the checks before
 * a boot and what bench vm says while it boots are builtin-vm-boot.c's,
 * what it writes builtin-vm-out.c's: this file is the options, their
 * parsing, the setup and the driver.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "lib/results/counted.h"
#include "lib/results/csv.h"
#include "lib/report/format.h"
#include "lib/report/kcidb.h"
#include "lib/results/results.h"
#include "lib/subcmd/spawn.h"
#include "builtin-vm.h"

/*
 * The one state, whose address cmd_vm() passes down (perf's struct
 * record); bv_opts[] names it, and its OPT_CALLs get it as o->value.
 */
static struct bv_global bv_global;

/* ---- options ---- */

/* -m SIZE: 512M, 2G, or MiB */
static int bv_opt_memory(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct vmsweep *sw = o->value;

	return vmprep_memory(arg, 128, 1 << 20, &sw->memory, why, len);
}

/* --tuxmake [NAME=]DIR: kept, added as a kernel once the options are read */
static int bv_opt_tuxmake(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bv_global *bv = o->value;

	if (bv->nr_tuxmake == VMSWEEP_MAX_KERNELS) {
		snprintf(why, len, "--tuxmake: at most %d kernels", VMSWEEP_MAX_KERNELS);
		return -EINVAL;
	}
	bv->tuxmake[bv->nr_tuxmake++] = arg;
	return 0;
}

/*
 * --label [NAME:]KEY=VALUE: KEY=VALUE in every kernel's files, or with
 * NAME: in kernel NAME's alone (its commit, beside the other side's).
 * A KEY has no ':', so a ':' before the '=' ends a NAME.
 */
static int bv_opt_label(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bv_global *bv = o->value;
	const char *colon = strchr(arg, ':'), *eq = strchr(arg, '=');
	size_t n = colon ? (size_t)(colon - arg) : 0;
	struct opt every = *o;
	unsigned int i;

	every.value = &bv->who;
	if (!colon || (eq && eq < colon))
		return bench_opt_label(&every, arg, why, len);
	for (i = 0; i < bv->nr_klabel; i++)
		if (strlen(bv->klabel[i].name) == n && !strncmp(bv->klabel[i].name, arg, n))
			break;
	if (i == bv->nr_klabel) {
		if (!n || n > VMPREP_NAME_MAX || i == VMSWEEP_MAX_KERNELS) {
			snprintf(why, len, "--label: '%s': NAME:KEY=VALUE takes a NAME of 1-%d bytes, for at most %d kernels",
				 arg, VMPREP_NAME_MAX, VMSWEEP_MAX_KERNELS);
			return -EINVAL;
		}
		snprintf(bv->klabel[i].name, sizeof(bv->klabel[i].name), "%.*s", (int)n, arg);
		bv->nr_klabel++;
	}
	return testbed_label(&bv->klabel[i].l, colon + 1, why, len);
}

/* every --label NAME:... names a kernel; -1 after saying which does not */
static int bv_check_klabels(struct bv_global *bv)
{
	unsigned int i, k;

	for (i = 0; i < bv->nr_klabel; i++) {
		for (k = 0; k < bv->sw.nr_k && strcmp(bv->sw.k[k].name, bv->klabel[i].name); k++)
			;
		if (k == bv->sw.nr_k) {
			const char *name = bv->klabel[i].name;

			bench_err("--label %s:%s=...: no kernel is called %s (NAME=KERNEL names one)",
				  name, bv->klabel[i].l.kv[0].key, name);
			return -1;
		}
	}
	return 0;
}

/* -p N[,N...]: each 1..NR_CPUS_MAX, none twice */
static int bv_opt_possible(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct vmsweep *sw = o->value;

	return vmprep_counts(arg, sw->possible, VMSWEEP_MAX_COUNTS, NR_CPUS_MAX,
			     &sw->nr_p, why, len);
}

/* --file SRC[=DST]: checked now, so that a bad one is named before anything boots */
static int bv_opt_file(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct vmsweep *sw = o->value;
	struct vmprep_file *f = &sw->file[sw->nr_file];
	unsigned int i;
	int ret;

	if (sw->nr_file == VMSWEEP_MAX_FILES) {
		snprintf(why, len, "--file: at most %d files", VMSWEEP_MAX_FILES);
		return -EINVAL;
	}
	ret = vmprep_file(arg, f, why, len);
	for (i = 0; !ret && i < sw->nr_file; i++) {
		if (!strcmp(sw->file[i].dst, f->dst)) {
			snprintf(why, len, "--file %.2000s: /%s is given twice (--file %.1000s)",
				 arg, f->dst, sw->file[i].src);
			ret = -EINVAL;
		}
	}
	if (ret)
		return ret;
	sw->extra[sw->nr_file] = (struct vm_extra) { .src = f->src, .dst = f->dst };
	sw->nr_file++;
	return 0;
}

/* --shard I/N: I in 1..N, N in 1..VMSWEEP_MAX_SHARDS */
static int bv_opt_shard(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct vmsweep *sw = o->value;
	unsigned int i, n;

	if (vm_shard_parse(arg, VMSWEEP_MAX_SHARDS, &i, &n)) {
		snprintf(why, len, "--shard: '%s' is not I/N with N in 1..%d and I in 1..N (e.g. 2/3)",
			 arg, VMSWEEP_MAX_SHARDS);
		return -EINVAL;
	}
	sw->shard_i = i;
	sw->shard_n = n;
	return 0;
}

static const struct opt bv_opts[] = {
	OPT_U64('B', "boots", &bv_global.sw.boots, 1, 1000, "N",
		"boots per kernel and count, each one run of every\n"
		"command (default 2 counted, 6 timed: what bench\n"
		"compare needs a side)"),
	OPT_CALL('p', "possible-cpus", &bv_global.sw, bv_opt_possible, "N[,N...]",
		 "possible CPUs the guests boot with, each 1.." BENCH_STR(NR_CPUS_MAX) "\n"
		 "(default: --cpus); a list is a sweep: every kernel\n"
		 "boots at every count"),
	OPT_U64('c', "cpus", &bv_global.sw.cpus, 1, VM_FW_MAX_CPUS, "N",
		"online vCPUs, 1..255 (default 1 counted: the only\ncount the counted clock takes; 2 timed)"),
	OPT_U64(0, "nodes", &bv_global.sw.nodes, 1, 64, "N",
		"NUMA nodes, one socket each, memory split evenly\n(default 1)"),
	OPT_CALL('m', "memory", &bv_global.sw, bv_opt_memory, "SIZE",
		 "guest memory: 512M, 2G, or a number of MiB,\n"
		 "128M..1024G (default 1G)"),
	OPT_ENUM(0, "accel", &bv_global.sw.accel, vm_accels, "tcg|kvm",
		 "qemu's accelerator (default tcg; kvm where /dev/kvm\nworks)"),
	OPT_ENUM(0, "clock", &bv_global.clock, vm_clocks, "counted|timed",
		 "the guests' clock: counted, one ns per guest\n"
		 "instruction (qemu -icount: exact, whatever the host\n"
		 "does; TCG's default), or timed, the host's (KVM's)"),
	OPT_U64(0, "timeout", &bv_global.sw.timeout, 10, 86400, "S",
		"seconds a boot may take before it is killed (300)"),
	OPT_U64(0, "retries", &bv_global.sw.retries, 0, 10, "N",
		"boots again after a hang or a crash (default 1)"),
	OPT_U64(0, "reboot-disturbed", &bv_global.sw.reboot_disturbed, 0, VMBOOT_REBOOTS, "N",
		"timed: boots again when the host's cpu pressure\n"
		"disturbed a boot, 0..5 (default 1; 0: keep it,\n"
		"marked); counted boots are never disturbed"),
	OPT_STRING(0, "append", &bv_global.sw.append, "ARGS", "more kernel command line"),
	OPT_CALL(0, "file", &bv_global.sw, bv_opt_file, "SRC[=DST]",
		 "one more file in every initramfs, as /DST (default\n"
		 "/SRC's base name; 0755 if SRC is executable);\n"
		 "repeatable, at most 16"),
	OPT_STRING(0, "module", &bv_global.module, "KO",
		   "kstats_bench.ko for the kernels given as images"),
	OPT_STRING(0, "kbuild", &bv_global.kbuild, "DIR",
		   "build the module against this tree for the kernels\ngiven as images"),
	OPT_STRING('o', "output", &bv_global.outdir, "DIR", "where the CSVs go (default .)"),
	OPT_FORMAT('f', "format", &bv_global.format, formats, "FMT",
		       "what goes to stdout, per kernel and command:"),
	OPT_ALSO(&bv_global.also),
	OPT_ENUM(0, "plugin", &bv_global.plug.mode, bvp_modes, "insns|cache",
		 "counted: the project's QEMU plugin in every boot\n"
		 "(make plugin): each marked window's instructions,\n"
		 "by kernel function too, and with cache its cache\n"
		 "model's misses, loads and stores and an estimate\n"
		 "of cycles, in files beside each CSV"),
	OPT_CALL(0, "plugin-opt", &bv_global.plug, bvp_opt, "KEY=VALUE",
		 "the plugin's model: l1d_size, l1d_ways, llc_size,\n"
		 "llc_ways, line, cold=window|none; the estimate's\n"
		 "llc_lat, mem_lat (cycles); repeatable"),
	OPT_CALL(0, "plugin-syms", &bv_global.plug, bvp_opt_syms, "auto|none|[NAME=]FILE",
		 "the kernels' functions: auto (default) reads each\n"
		 "one's kallsyms in one nokaslr boot, kept by its\n"
		 "digest; FILE a System.map; each boot gets nokaslr"),
	OPT_STRING(0, "qemu", &bv_global.sw.qemu, "PROG", "default qemu-system-x86_64"),
	OPT_STRING(0, "busybox", &bv_global.busybox, "FILE", "a static busybox (default /bin/busybox)"),
	OPT_STRING(0, "bench", &bv_global.bench, "FILE",
		   "the static bench the guests run (default\nbench-static beside this one)"),
	OPT_CALL(0, "label", &bv_global, bv_opt_label, "[NAME:]KEY=VALUE",
		 "record label_KEY: VALUE in every file, or with NAME:\n"
		 "in kernel NAME's alone; repeatable"),
	OPT_ORIGIN(&bv_global.who, bench_opt_origin, ", kept in the file"),
	OPT_CALL(0, "tuxmake", &bv_global, bv_opt_tuxmake, "[NAME=]DIR",
		 "a kernel from a tuxmake output directory: its\n"
		 "bzImage, and its reproducer_cmdline in the files;\n"
		 "repeatable, before the KERNEL operands"),
	OPT_CALL(0, "shard", &bv_global.sw, bv_opt_shard, "I/N",
		 "boot shard I of the plan cut into N (whole rounds\n"
		 "where N divides them); bench merge joins the shards"),
	OPT_FLAG(0, "dry-run", &bv_global.dry_run,
		 "print the qemu lines and what the initramfs holds;\n"
		 "boot nothing, write no file"),
	OPT_FLAG('q', "quiet", &bv_global.quiet, "no progress on stderr"),
	OPT_END()
};

static const char bv_head[] =
	"Usage: bench vm [OPTIONS] [NAME=]KERNEL... -- COMMAND [ARGS] [-- COMMAND ...]\n"
	"Boot each KERNEL (a bzImage, or a configured build tree: its bzImage and\n"
	"the module built against it) under qemu with --possible-cpus, run each bench\n"
	"COMMAND inside every boot, and write DIR/NAME.csv (DIR/NAME-COMMAND.csv for\n"
	"several commands; with several -p counts DIR/NAME[-COMMAND]-pN.csv), whose\n"
	"runs are the boots: bench compare A.csv -- B.csv is the gate between two\n"
	"kernels, bench scale reads a sweep. COMMAND: kernel ..., run -w WORKLOAD\n"
	"..., audit ... (boot B gets ksb_boot=B on its kernel command line, by which\n"
	"the audit rotates its battery), or trace FUNC [OPTIONS] [-- PROG ARGS]:\n"
	"inside a trace command the first '--' starts the traced PROG (busybox's, or\n"
	"/bench ...), which runs to the next '--' or the end. COMMAND sh SCRIPT [ARGS]\n"
	"runs the host file SCRIPT under the guest's busybox sh with $KSB_OUT an\n"
	"empty directory: each regular file it leaves there comes back as\n"
	"DIR/NAME[-pN]-sh/bootB/FILE, its stdout and stderr as\n"
	"DIR/NAME[-pN]-sh/bootB.stdout and .stderr, the boot's record (its seconds,\n"
	"qemu's cpu, the host's PSI stall) as bootB.meta (no CSV). Every kernel boots\n"
	"at every count, -B times, in a balanced order: each round boots every\n"
	"(kernel, count) once, kernels and counts rotated round by round (A B, B A,\n"
	"...). NAME defaults to the file's directory (stock/bzImage: stock) or the\n"
	"tree's name.\n";

static const char bv_tail[] =
	"Above 255 possible CPUs the firmware declares 255 and the kernel adds the\n"
	"rest from possible_cpus=: 6.1 does, 6.9 and later only with\n"
	"tests/kernel/patches/test-only-possible-cpus.patch. Each boot's guest count\n"
	"is checked. qemu TCG models no caches: its figures are instruction-bound\n"
	"(see docs/kernel-ci.md, \"Gating a kernel in CI\").\n"
	"Exit: 0 done, 2 bad usage or files, 3 qemu, a boot or the guest refused\n"
	"(named) or writing an output failed, 130/143 interrupted (finished boots\n"
	"kept, partial: yes).\n";

static void bv_defaults(struct bv_global *bv)
{
	memset(bv, 0, sizeof(*bv));
	bv->clock = -1;			/* bv_resolve_clock() decides, and -B, -c */
	bv->sw.nodes = 1;
	bv->sw.memory = 1024;
	bv->sw.timeout = 300;
	bv->sw.retries = 1;
	bv->sw.reboot_disturbed = BV_UNSET;
	bv->sw.qemu = "qemu-system-x86_64";
	bv->outdir = ".";
	bv->format = FORMAT_TABLE;
	bv->also = (struct outset)OUTSET_INIT(formats);
	bv->busybox = BV_BUSYBOX;
	bvp_defaults(&bv->plug);
}

/* NAME=PATH, or PATH named after its directory (or itself, a tree) */
static int bv_add_kernel(struct bv_global *bv, char *arg)
{
	struct vmsweep_kernel *k = &bv->sw.k[bv->sw.nr_k];
	struct bv_kernel *x = &bv->k[bv->sw.nr_k];
	const char *path;
	char why[PATH_MAX + 128];
	unsigned int i;
	bool tree;

	if (bv->sw.nr_k == VMSWEEP_MAX_KERNELS) {
		bench_err("at most %d kernels", VMSWEEP_MAX_KERNELS);
		return -1;
	}
	if (bv_said(vmprep_kernel(arg, &path, &tree, k->name, why, sizeof(why)), why))
		return -1;
	k->image = path;
	if (tree) {
		x->tree = path;
		snprintf(x->image_buf, sizeof(x->image_buf), "%s/arch/x86/boot/bzImage", path);
		k->image = x->image_buf;
	}
	for (i = 0; i < bv->sw.nr_k; i++)
		if (!strcmp(bv->sw.k[i].name, k->name)) {
			bench_err("two kernels named '%s': name them, NAME=%s", k->name, path);
			return -1;
		}
	bv->sw.nr_k++;
	return 0;
}

/* --tuxmake [NAME=]DIR: DIR/bzImage, named after DIR, and its reproducer */
static int bv_add_tuxmake(struct bv_global *bv, const char *arg)
{
	struct bv_kernel *x = &bv->k[bv->sw.nr_k];
	const char *eq = strchr(arg, '='), *dir = eq ? eq + 1 : arg;
	char why[PATH_MAX + 256], image[PATH_MAX];

	if (bv->sw.nr_k == VMSWEEP_MAX_KERNELS) {
		bench_err("at most %d kernels", VMSWEEP_MAX_KERNELS);
		return -1;
	}
	if (bv_said(vmprep_tuxmake(dir, image, sizeof(image), x->tuxmake_cmd,
				   sizeof(x->tuxmake_cmd), why, sizeof(why)), why))
		return -1;
	snprintf(x->arg_buf, sizeof(x->arg_buf), "%.*s%s", eq ? (int)(eq - arg + 1) : 0, arg,
		 image);
	x->tuxmake = dir;
	return bv_add_kernel(bv, x->arg_buf);
}

/* an audit that every boot would refuse: -EINVAL with @why (-ENOMEM: said so) */
static int bv_check_audit(const struct vmsweep *sw, struct vm_cmd *c, char *why,
			  size_t len)
{
	int ret;

	if (strcmp(c->argv[0], "audit"))
		return 0;
	ret = cmd_audit_vm_check((int)c->argc, c->argv, sw->file, sw->nr_file, why, len);
	if (ret == -ENOMEM)
		snprintf(why, len, "%s", strerror(ENOMEM));
	return ret;
}

/* one command after a "--" (lib/kernel/vmprep.h: trace's own "--" is its PROG's) */
static int bv_add_cmd(struct vmsweep *sw, int argc, char **argv, int i)
{
	struct vm_cmd *c = &sw->c[sw->nr_c];
	char why[256];
	unsigned int j;

	if (sw->nr_c == VM_MAX_CMDS) {
		bench_err("at most %d commands", VM_MAX_CMDS);
		return -1;
	}
	i = vmprep_cmd(c, argc, argv, i, why, sizeof(why));
	if (i < 0) {
		bv_said(i, why);
		return -1;
	}
	/* the guest's bench parses it so: refused here, before anything boots */
	if (bench_check_cmd((int)c->argc, c->argv, why, sizeof(why)) ||
	    bv_check_audit(sw, c, why, sizeof(why))) {
		bench_err("-- %s: %s", c->argv[0], why);
		return -1;
	}
	for (j = 0; j < sw->nr_c; j++)
		if (!strcmp(sw->c[j].argv[0], c->argv[0])) {
			bench_err("two '%s' commands: their files would have one name",
				  sw->c[j].argv[0]);
			return -1;
		}
	sw->nr_c++;
	return i;
}

/* the operands: --tuxmake's kernels, then KERNEL... before @dash; 0, or -1 said */
static int bv_add_kernels(struct bv_global *bv, int dash, char **argv)
{
	int i;

	for (i = 0; i < (int)bv->nr_tuxmake; i++)
		if (bv_add_tuxmake(bv, bv->tuxmake[i]))
			return -1;
	for (i = optind; i < dash; i++)
		if (bv_add_kernel(bv, argv[i]))
			return -1;
	return 0;
}

/* -o and -f against what is written: 0, or -1 said */
static int bv_check_outputs(struct bv_global *bv)
{
	const struct vmsweep *sw = &bv->sw;
	const char *opt;
	struct stat st;
	int i;

	if (!stat(bv->outdir, &st) && !S_ISDIR(st.st_mode)) {
		bench_err("-o %s: not a directory (-o names the directory the CSVs go to)",
			  bv->outdir);
		return -1;
	}
	i = bench_one_document(bv->format, &bv->also, &opt);
	if (i >= 0 && sw->nr_k * sw->nr_c * sw->nr_p > 1) {
		bench_err("%s %s: one document for %u kernels x %u commands x %u counts; the files are %s/NAME*.csv (bench show -f %s FILE)",
			  opt, formats[i].name, sw->nr_k, sw->nr_c, sw->nr_p, bv->outdir,
			  formats[i].name);
		return -1;
	}
	return 0;
}

/*
 * The clock and what follows from it, once the options are read (vm.h,
 * enum vm_clock): counted under TCG unless --clock timed, timed under
 * KVM; one online vCPU counted, two timed; 2 boots counted, which show
 * whether a count repeats, 6 timed, for compare's test; counted boots
 * are never booted again as disturbed, since the host's load cannot move
 * a count. 0, or -1 said.
 */
static int bv_resolve_clock(struct bv_global *bv)
{
	struct vmsweep *sw = &bv->sw;

	if (bv->clock < 0)
		bv->clock = sw->accel == VM_KVM ? VM_TIMED : VM_COUNTED;
	sw->clock = (enum vm_clock)bv->clock;
	if (!sw->cpus)
		sw->cpus = sw->clock == VM_COUNTED ? 1 : 2;
	if (!sw->boots)
		sw->boots = sw->clock == VM_COUNTED ? COUNTED_MIN_RUNS : 6;
	if (sw->reboot_disturbed == BV_UNSET) {
		sw->reboot_disturbed = sw->clock == VM_COUNTED ? 0 : 1;
	} else if (sw->clock == VM_COUNTED && sw->reboot_disturbed) {
		bench_err("--reboot-disturbed %lu under --clock counted: the host's load cannot disturb a count, so booting again would measure the same (--clock timed)",
			  (unsigned long)sw->reboot_disturbed);
		return -1;
	}
	return 0;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int bv_parse(struct bv_global *bv, int argc, char **argv)
{
	const struct opt *tab[] = { bv_opts, NULL };
	struct opt_parser p = { .tab = tab };
	struct vmsweep *sw = &bv->sw;
	char why[256];
	int i, dash, ret;

	bv_defaults(bv);
	bench_cmdline(bv->cmdline, sizeof(bv->cmdline), argc, argv);
	/* the first "--" ends bench vm's words; getopt would move it */
	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	ret = bench_options(&p, bv_head, bv_tail, dash, argv);
	if (ret)
		return ret;
	if (bv_resolve_clock(bv) || bv_add_kernels(bv, dash, argv))
		return -1;
	if (!sw->nr_k || dash == argc) {
		bench_err("%s", sw->nr_k ? "no command: -- kernel ... or -- run ..." :
			  "no kernel: give a bzImage or a build tree");
		return -1;
	}
	if (bv_check_klabels(bv) || bvp_resolve(bv))
		return -1;
	for (i = dash + 1; i <= argc; i++) {
		i = bv_add_cmd(sw, argc, argv, i);
		if (i < 0)
			return -1;
	}
	if (!sw->nr_p)
		sw->possible[sw->nr_p++] = (unsigned int)sw->cpus;
	if (bv_check_outputs(bv))
		return -1;
	if (vmsweep_plan(sw, why, sizeof(why))) {
		bench_err("%s", why);
		return -1;
	}
	return 0;
}

/* ---- bench vm ---- */

/* the work directory, in $TMPDIR: 0 or 3 */
static int bv_workdir(struct bv_global *bv)
{
	const char *tmp = getenv("TMPDIR");
	int ret;

	snprintf(bv->work, sizeof(bv->work), "%s/ksb-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(bv->work))
		return 0;
	ret = bench_refused("a work directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
			    strerror(errno));
	bv->work[0] = 0;
	return ret;
}

/* the host, checks, the work directory, the initramfs of every kernel */
static int bv_setup(struct bv_global *bv)
{
	char qemu[PATH_MAX];
	unsigned int i;
	int ret;

	/* this host once, before the first boot: the files' vm_host_ keys */
	bv->started = time(NULL);
	ret = bench_testbed(&bv->tb);
	if (ret)
		return ret;
	if (!bv->dry_run && spawn_which(bv->sw.qemu, qemu, sizeof(qemu)))
		return bench_refused("%s: not found (apt-get install qemu-system-x86, or --qemu PROG)",
				     bv->sw.qemu);
	ret = bv_check_config(bv) ?: bv_check_guest_files(bv) ?: bv_workdir(bv) ?:
	      bv_check_kernels(bv) ?: bvp_setup(bv);
	if (!ret && vmsweep_plan_key(&bv->sw))
		ret = bench_nomem();
	if (bv->dry_run)
		return ret;
	ret = ret ?: bv_open_outputs(bv);
	for (i = 0; !ret && i < bv->sw.nr_k; i++)
		ret = bv_initramfs(bv, i) ?: bv_boot_syms(bv, i);
	return ret;
}

int cmd_vm(int argc, char **argv)
{
	struct bv_global *bv = &bv_global;
	int ret;

	ret = bv_parse(bv, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_USAGE : bench_finish_stdout();
	/* SIGINT/SIGTERM are taken in bv_wait(), between two boots at the latest */
	bench_wait_signals();
	ret = bv_setup(bv);
	if (!ret && bv->dry_run)
		ret = bv_dry_run(bv) ?: bench_finish_stdout();
	else if (!ret)
		ret = bv_measure(bv);
	if (!bv->dry_run && (ret == 0 || ret == 128 + SIGINT || ret == 128 + SIGTERM)) {
		int err = bv_report(bv);

		ret = err ? err : ret ? ret : bench_finish_stdout();
	}
	ret = bv_keep_consoles(bv) ?: ret;
	bv_abort(bv);
	free(bv->files);
	bv->files = NULL;
	bvp_free(bv);
	vmsweep_free(&bv->sw);
	bv_cleanup(bv);
	return ret;
}
