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
 * results on ttyS1 as "@ksb" frames (lib/kernel/vm.h). The checks before
 * a boot and one boot are builtin-vm-boot.c's (through lib/kernel/vmprep.h
 * and lib/kernel/vmboot.h), the process helpers lib/kernel/spawn.h's:
 * this file is the options, their parsing and the driver.
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
#include "lib/report/csv.h"
#include "lib/report/format.h"
#include "lib/report/kcidb.h"
#include "lib/report/results.h"
#include "lib/kernel/spawn.h"
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
	struct bv_global *bv = o->value;

	return vmprep_memory(arg, 128, 1 << 20, &bv->memory, why, len);
}

/* --tuxmake [NAME=]DIR: kept, added as a kernel once the options are read */
static int bv_opt_tuxmake(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bv_global *bv = o->value;

	if (bv->nr_tuxmake == BV_MAX_KERNELS) {
		snprintf(why, len, "--tuxmake: at most %d kernels", BV_MAX_KERNELS);
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
	unsigned int i;

	if (!colon || (eq && eq < colon))
		return bench_opt_label(o, arg, why, len);
	for (i = 0; i < bv->nr_klabel; i++)
		if (strlen(bv->klabel[i].name) == n && !strncmp(bv->klabel[i].name, arg, n))
			break;
	if (i == bv->nr_klabel) {
		if (!n || n > VMPREP_NAME_MAX || i == BV_MAX_KERNELS) {
			snprintf(why, len, "--label: '%s': NAME:KEY=VALUE takes a NAME of 1-%d bytes, for at most %d kernels",
				 arg, VMPREP_NAME_MAX, BV_MAX_KERNELS);
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
		for (k = 0; k < bv->nr_k && strcmp(bv->k[k].name, bv->klabel[i].name); k++)
			;
		if (k == bv->nr_k) {
			const char *name = bv->klabel[i].name;

			bench_err("--label %s:%s=...: no kernel is called %s (NAME=KERNEL names one)",
				  name, bv->klabel[i].l.kv[0].key, name);
			return -1;
		}
	}
	return 0;
}

/* -p N[,N...]: each 1..8192, none twice */
static int bv_opt_possible(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bv_global *bv = o->value;

	return vmprep_counts(arg, bv->possible, BV_MAX_COUNTS, BV_MAX_POSSIBLE, &bv->nr_p, why,
			     len);
}

/* --file SRC[=DST]: checked now, so that a bad one is named before anything boots */
static int bv_opt_file(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bv_global *bv = o->value;
	struct vmprep_file *f = &bv->file[bv->nr_file];
	unsigned int i;
	int ret;

	if (bv->nr_file == BV_MAX_FILES) {
		snprintf(why, len, "--file: at most %d files", BV_MAX_FILES);
		return -EINVAL;
	}
	ret = vmprep_file(arg, f, why, len);
	for (i = 0; !ret && i < bv->nr_file; i++) {
		if (!strcmp(bv->file[i].dst, f->dst)) {
			snprintf(why, len, "--file %.2000s: /%s is given twice (--file %.1000s)",
				 arg, f->dst, bv->file[i].src);
			ret = -EINVAL;
		}
	}
	if (ret)
		return ret;
	bv->extra[bv->nr_file] = (struct vm_extra) { .src = f->src, .dst = f->dst };
	bv->nr_file++;
	return 0;
}

static const struct opt bv_opts[] = {
	OPT_U64('B', "boots", &bv_global.boots, 1, 1000, "N",
		"boots per kernel and count, each one run of every\n"
		"command (default 6: bench compare needs 5 a side)"),
	OPT_CALL('p', "possible-cpus", &bv_global, bv_opt_possible, "N[,N...]",
		 "possible CPUs the guests boot with, each 1..8192\n"
		 "(default: --cpus); a list is a sweep: every kernel\n"
		 "boots at every count"),
	OPT_U64('c', "cpus", &bv_global.cpus, 1, VM_FW_MAX_CPUS, "N", "online vCPUs, 1..255 (default 2)"),
	OPT_U64(0, "nodes", &bv_global.nodes, 1, 64, "N",
		"NUMA nodes, one socket each, memory split evenly\n(default 1)"),
	OPT_CALL('m', "memory", &bv_global, bv_opt_memory, "SIZE",
		 "guest memory: 512M, 2G, or a number of MiB,\n"
		 "128M..1024G (default 1G)"),
	OPT_ENUM(0, "accel", &bv_global.accel, vm_accels, "tcg|kvm",
		 "qemu's accelerator (default tcg; kvm where /dev/kvm\nworks)"),
	OPT_U64(0, "timeout", &bv_global.timeout, 10, 86400, "S",
		"seconds a boot may take before it is killed (300)"),
	OPT_U64(0, "retries", &bv_global.retries, 0, 10, "N",
		"boots again after a hang or a crash (default 1)"),
	OPT_U64(0, "reboot-disturbed", &bv_global.reboot_disturbed, 0, VMBOOT_REBOOTS, "N",
		"boots again when the host's cpu pressure disturbed\n"
		"a boot, 0..5 (default 1; 0: keep it, marked)"),
	OPT_STRING(0, "append", &bv_global.append, "ARGS", "more kernel command line"),
	OPT_CALL(0, "file", &bv_global, bv_opt_file, "SRC[=DST]",
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
	OPT_STRING(0, "qemu", &bv_global.qemu, "PROG", "default qemu-system-x86_64"),
	OPT_STRING(0, "busybox", &bv_global.busybox, "FILE", "a static busybox (default /bin/busybox)"),
	OPT_STRING(0, "bench", &bv_global.bench, "FILE",
		   "the static bench the guests run (default\nbench-static beside this one)"),
	OPT_CALL(0, "label", &bv_global, bv_opt_label, "[NAME:]KEY=VALUE",
		 "record label_KEY: VALUE in every file, or with NAME:\n"
		 "in kernel NAME's alone; repeatable"),
	OPT_CALL(0, "origin", NULL, bench_opt_origin, "NAME",
		 KCIDB_ORIGIN_HELP ", kept in the file"),
	OPT_CALL(0, "tuxmake", &bv_global, bv_opt_tuxmake, "[NAME=]DIR",
		 "a kernel from a tuxmake output directory: its\n"
		 "bzImage, and its reproducer_cmdline in the files;\n"
		 "repeatable, before the KERNEL operands"),
	OPT_CALL(0, "shard", &bv_global, bv_opt_shard, "I/N",
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
	"(named), 130/143 interrupted (finished boots kept, partial: yes).\n";

static void bv_defaults(struct bv_global *bv)
{
	memset(bv, 0, sizeof(*bv));
	bv->boots = 6;
	bv->cpus = 2;
	bv->nodes = 1;
	bv->memory = 1024;
	bv->timeout = 300;
	bv->retries = 1;
	bv->reboot_disturbed = 1;
	bv->outdir = ".";
	bv->format = FORMAT_TABLE;
	bv->also = (struct outset)OUTSET_INIT(formats);
	bv->qemu = "qemu-system-x86_64";
	bv->busybox = BV_BUSYBOX;
}

/* NAME=PATH, or PATH named after its directory (or itself, a tree) */
static int bv_add_kernel(struct bv_global *bv, char *arg)
{
	struct bv_kernel *k = &bv->k[bv->nr_k];
	const char *path;
	char why[PATH_MAX + 128];
	unsigned int i;
	bool tree;

	if (bv->nr_k == BV_MAX_KERNELS) {
		bench_err("at most %d kernels", BV_MAX_KERNELS);
		return -1;
	}
	if (bv_said(vmprep_kernel(arg, &path, &tree, k->name, why, sizeof(why)), why))
		return -1;
	k->image = path;
	if (tree) {
		k->tree = path;
		snprintf(k->image_buf, sizeof(k->image_buf), "%s/arch/x86/boot/bzImage", path);
		k->image = k->image_buf;
	}
	for (i = 0; i < bv->nr_k; i++)
		if (!strcmp(bv->k[i].name, k->name)) {
			bench_err("two kernels named '%s': name them, NAME=%s", k->name, path);
			return -1;
		}
	bv->nr_k++;
	return 0;
}

/* --tuxmake [NAME=]DIR: DIR/bzImage, named after DIR, and its reproducer */
static int bv_add_tuxmake(struct bv_global *bv, const char *arg)
{
	struct bv_kernel *k = &bv->k[bv->nr_k];
	const char *eq = strchr(arg, '='), *dir = eq ? eq + 1 : arg;
	char why[PATH_MAX + 256], image[PATH_MAX];

	if (bv->nr_k == BV_MAX_KERNELS) {
		bench_err("at most %d kernels", BV_MAX_KERNELS);
		return -1;
	}
	if (bv_said(vmprep_tuxmake(dir, image, sizeof(image), k->tuxmake_cmd,
				   sizeof(k->tuxmake_cmd), why, sizeof(why)), why))
		return -1;
	snprintf(k->arg_buf, sizeof(k->arg_buf), "%.*s%s", eq ? (int)(eq - arg + 1) : 0, arg,
		 image);
	k->tuxmake = dir;
	return bv_add_kernel(bv, k->arg_buf);
}

/* one command after a "--" (lib/kernel/vmprep.h: trace's own "--" is its PROG's) */
static int bv_add_cmd(struct bv_global *bv, int argc, char **argv, int i)
{
	char why[256];
	unsigned int j;

	if (bv->nr_c == VM_MAX_CMDS) {
		bench_err("at most %d commands", VM_MAX_CMDS);
		return -1;
	}
	i = vmprep_cmd(&bv->c[bv->nr_c], argc, argv, i, why, sizeof(why));
	if (i < 0) {
		bv_said(i, why);
		return -1;
	}
	/* the guest's bench parses it so: refused here, before anything boots */
	if (bench_check_cmd((int)bv->c[bv->nr_c].argc, bv->c[bv->nr_c].argv, why, sizeof(why))) {
		bench_err("-- %s: %s", bv->c[bv->nr_c].argv[0], why);
		return -1;
	}
	for (j = 0; j < bv->nr_c; j++)
		if (!strcmp(bv->c[j].argv[0], bv->c[bv->nr_c].argv[0])) {
			bench_err("two '%s' commands: their files would have one name",
				  bv->c[j].argv[0]);
			return -1;
		}
	bv->nr_c++;
	return i;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int bv_parse(struct bv_global *bv, int argc, char **argv)
{
	const struct opt *tab[] = { bv_opts, NULL };
	struct opt_parser p = { .tab = tab };
	const char *opt;
	struct stat st;
	int i, dash, ret;

	bv_defaults(bv);
	bench_cmdline(bv->cmdline, sizeof(bv->cmdline), argc, argv);
	/* the first "--" ends bench vm's words; getopt would move it */
	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	ret = bench_options(&p, bv_head, bv_tail, dash, argv);
	if (ret)
		return ret;
	for (i = 0; i < (int)bv->nr_tuxmake; i++)
		if (bv_add_tuxmake(bv, bv->tuxmake[i]))
			return -1;
	for (i = optind; i < dash; i++)
		if (bv_add_kernel(bv, argv[i]))
			return -1;
	if (!bv->nr_k || dash == argc) {
		bench_err("%s", bv->nr_k ? "no command: -- kernel ... or -- run ..." :
			  "no kernel: give a bzImage or a build tree");
		return -1;
	}
	if (bv_check_klabels(bv))
		return -1;
	for (i = dash + 1; i <= argc; i++) {
		i = bv_add_cmd(bv, argc, argv, i);
		if (i < 0)
			return -1;
	}
	if (!bv->nr_p)
		bv->possible[bv->nr_p++] = (unsigned int)bv->cpus;
	if (!stat(bv->outdir, &st) && !S_ISDIR(st.st_mode)) {
		bench_err("-o %s: not a directory (-o names the directory the CSVs go to)",
			  bv->outdir);
		return -1;
	}
	i = bench_one_document(bv->format, &bv->also, &opt);
	if (i >= 0 && bv->nr_k * bv->nr_c * bv->nr_p > 1) {
		bench_err("%s %s: one document for %u kernels x %u commands x %u counts; the files are %s/NAME*.csv (bench show -f %s FILE)",
			  opt, formats[i].name, bv->nr_k, bv->nr_c, bv->nr_p, bv->outdir,
			  formats[i].name);
		return -1;
	}
	return bv_shard_check(bv);
}

/* ---- results: one CSV per kernel, count and command, the boots its runs ---- */

/* the first boot's metadata, with the VM's and every boot's */
static void bv_meta(struct bv_global *bv, struct bv_cell *c, unsigned int i)
{
	struct meta *m = &c->runs[i].set.all->meta;
	unsigned int j;

	runs_meta(&c->runs[i].set, bv->cmdline, bv->signo);
	/*
	 * possible_cpus as the guest counted it (every boot is checked to
	 * be the count asked): what bench scale puts on its x axis, whatever
	 * the guest command wrote
	 */
	meta_put(m, "possible_cpus", "%u", c->boot[0].possible);
	meta_put(m, "vm_name", "%s", c->k->name);
	meta_put(m, "vm_image", "%s", c->k->image);
	meta_put(m, "vm_release", "%s", c->k->release);
	meta_put(m, "vm_image_sha256", "%s", c->k->sha256);
	meta_put(m, "vm_module", "%s", c->k->ko[0] ? c->k->ko : "none");
	if (c->k->tuxmake) {
		meta_put(m, "vm_tuxmake", "%s", c->k->tuxmake);
		meta_put(m, "vm_tuxmake_reproducer", "%s",
			 c->k->tuxmake_cmd[0] ? c->k->tuxmake_cmd : "none");
	}
	meta_put(m, "vm_guest_command", "bench %s", bv->c[i].what);
	meta_put(m, "vm_qemu", "%s", c->qemu_line);
	vmboot_meta(m, c->boot, c->nr_boots);
	/*
	 * The guests' testbed keys say what they ran in; this host's
	 * settings move a TCG guest's timings as much. The guests' build
	 * stays: it measured; the start and the labels are this command's.
	 */
	testbed_meta(&bv->tb, m, TB_VM_HOST);
	bv_shard_meta(bv, c, m);
	meta_timestamp(m, bv->started);
	bench_meta_origin(m);
	for (j = 0; j < bv->nr_klabel; j++)
		if (!strcmp(bv->klabel[j].name, c->k->name))
			testbed_origin(m, bench_release, bench_git, &bv->klabel[j].l);
}

/* command @i on @c, merged over its boots, in format @fmt, under a title (none in JSON) */
static int bv_print(struct bv_global *bv, FILE *f, int fmt, const struct bv_cell *c, unsigned int i)
{
	const struct bv_runs *r = &c->runs[i];

	if (fmt != FORMAT_CSV && !(formats[fmt].flags & REPORT_JSON))
		fprintf(f, "# %s: bench %s, %u boots of %s, %u possible CPUs, %u online, qemu %s\n",
			c->label, bv->c[i].what, r->set.n, c->k->release, c->vm.possible,
			c->vm.cpus, vm_accels[bv->accel]);
	return format_write(f, (unsigned int)fmt, r->set.all);
}

/* ---- bench vm ---- */

/* @c's files: DIR/NAME[-CMD][-pN].csv, opened before anything boots */
static int bv_open_cell(struct bv_global *bv, struct bv_cell *c)
{
	char base[3200], pn[16] = "";
	unsigned int i;
	int ret;

	if (bv->nr_p > 1)
		snprintf(pn, sizeof(pn), "-p%u", c->vm.possible);
	/* a copy: GCC's -Wrestrict sees k->name inside *k */
	snprintf(base, sizeof(base), "%.3000s/%.63s", bv->outdir, c->k->name);
	for (i = 0; i < bv->nr_c; i++) {
		struct bv_runs *r = &c->runs[i];

		if (bv_is_sh(bv, i))
			continue;	/* its files go to DIR/NAME[-pN]-sh/ */
		if (bv->nr_c == 1)
			snprintf(r->path, sizeof(r->path), "%s%s.csv", base, pn);
		else
			snprintf(r->path, sizeof(r->path), "%s-%.16s%s.csv", base, bv->c[i].argv[0], pn);
		ret = outfile_open(&r->out, r->path);
		if (ret) {
			bench_err("-o %s: %s: %s", bv->outdir, r->path, strerror(-ret));
			return EXIT_USAGE;
		}
		r->set.asked = bv_plan_boots(bv, c);
	}
	c->boot = calloc(bv->boots, sizeof(*c->boot));
	return c->boot ? 0 : bench_refused("%s", strerror(ENOMEM));
}

/* every output file, opened before anything boots: bad paths fail first */
static int bv_open_outputs(struct bv_global *bv)
{
	struct bv_kernel *k;
	unsigned int i;
	int ret = 0;

	if (mkdir(bv->outdir, 0755) && errno != EEXIST) {
		bench_err("-o %s: %s", bv->outdir, strerror(errno));
		return EXIT_USAGE;
	}
	for (i = 0; i < bv->nr_cells && !ret; i++)
		ret = bv_open_cell(bv, &bv->cell[i]);
	for (k = bv->k; k < bv->k + bv->nr_k && !ret; k++) {
		snprintf(k->console_path, sizeof(k->console_path), "%.3000s/%.63s.console",
			 bv->outdir, k->name);
		ret = outfile_open(&k->console, k->console_path);
		if (ret) {
			bench_err("-o %s: %s: %s", bv->outdir, k->console_path, strerror(-ret));
			return EXIT_USAGE;
		}
	}
	return ret ?: bench_open_also(&bv->also);
}

/* every CSV with the boots that finished; the tables on stdout and --also's */
static int bv_report(struct bv_global *bv)
{
	unsigned int n, i, a;
	int ret = 0, err;

	for (n = 0; n < bv->nr_cells; n++)
		for (i = 0; i < bv->nr_c; i++) {
			struct bv_cell *c = &bv->cell[n];
			struct bv_runs *r = &c->runs[i];

			if (!r->set.n)
				continue;
			bv_meta(bv, c, i);
			err = csv_write(r->out.f, r->set.all) ?: outfile_commit(&r->out);
			if (err)
				ret = bench_refused("writing %s: %s", r->path, strerror(-err));
			else if (bv_print(bv, stdout, bv->format, c, i))
				ret = bench_finish_stdout() ?: EXIT_ENV;
			for (a = 0; a < bv->also.n && !ret; a++)
				if (bv_print(bv, bv->also.a[a].o.f, bv->also.a[a].fmt, c, i))
					ret = bench_refused("--also %s: %s", bv->also.a[a].path,
							    strerror(EIO));
		}
	return ret ?: bench_commit_also(&bv->also);
}

/* every kernel's consoles, whatever happened: what a failed boot said */
static int bv_keep_consoles(struct bv_global *bv)
{
	struct bv_kernel *k;
	int ret = 0, err;

	for (k = bv->k; k < bv->k + bv->nr_k; k++) {
		if (!k->console.f)
			continue;
		err = outfile_commit(&k->console);
		if (err)
			ret = bench_refused("writing %s: %s", k->console_path, strerror(-err));
	}
	return ret;
}

/* the host, checks, the work directory, the initramfs of every kernel */
static int bv_setup(struct bv_global *bv)
{
	const char *tmp = getenv("TMPDIR");
	char qemu[PATH_MAX];
	struct bv_kernel *k;
	int ret;

	/* this host once, before the first boot: the files' vm_host_ keys */
	bv->started = time(NULL);
	ret = bench_testbed(&bv->tb);
	if (ret)
		return ret;
	if (!bv->dry_run && spawn_which(bv->qemu, qemu, sizeof(qemu)))
		return bench_refused("%s: not found (apt-get install qemu-system-x86, or --qemu PROG)",
				     bv->qemu);
	ret = bv_check_config(bv) ?: bv_check_guest_files(bv);
	if (ret)
		return ret;
	snprintf(bv->work, sizeof(bv->work), "%s/ksb-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(bv->work)) {
		ret = bench_refused("a work directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
				    strerror(errno));
		bv->work[0] = 0;
		return ret;
	}
	ret = bv_check_kernels(bv) ?: bv_plan_key(bv);
	if (bv->dry_run)
		return ret;
	ret = ret ?: bv_open_outputs(bv);
	for (k = bv->k; !ret && k < bv->k + bv->nr_k; k++)
		ret = bv_initramfs(bv, k);
	return ret;
}

/*
 * --dry-run: each boot's qemu line, each initramfs's files and the /init
 * every guest runs, on stdout; nothing boots, no file is written
 */
static int bv_dry_run(struct bv_global *bv)
{
	char *const *cmds[VM_MAX_CMDS], line[4096];
	struct vm_argv a;
	struct bv_cell *c;
	struct bv_kernel *k;
	unsigned int i;

	for (k = bv->k; k < bv->k + bv->nr_k; k++)
		snprintf(k->initrd, sizeof(k->initrd), "WORK/%.63s.cpio", k->name);
	for (c = bv->cell; c < bv->cell + bv->nr_cells; c++) {
		vm_qemu_argv(&a, &c->vm, c->k->image, c->k->initrd, "WORK/console", "WORK/data");
		spawn_sh_line(line, sizeof(line), (int)a.n, a.argv);
		printf("# %s: %lu boots of %s, %u possible CPUs\n%s\n", c->label,
		       (unsigned long)bv->boots, c->k->release, c->vm.possible, line);
	}
	for (k = bv->k; k < bv->k + bv->nr_k; k++) {
		printf("# %s: %s (sha256 %s), initramfs %s:\n", k->name, k->image, k->sha256,
		       k->initrd);
		printf("/init\t\t\t%u commands, below\n/bin/busybox\t\t%s\n/bench\t\t\t%s\n",
		       bv->nr_c, bv->busybox, bv->bench_path);
		if (k->ko[0] || k->ko_tree)
			printf("/kmod/kstats_bench.ko\t%s%s\n", k->ko_tree ? "built from kmod/ against " : "",
			       k->ko_tree ? k->ko_tree : k->ko);
		for (i = 0; i < bv->nr_c; i++)
			if (bv_is_sh(bv, i))
				printf("/sh/%u.sh\t\t%s\n", i + 1, bv->c[i].argv[1]);
		for (i = 0; i < bv->nr_file; i++)
			printf("/%s\t%s%s\n", bv->file[i].dst, strlen(bv->file[i].dst) < 15 ? "\t" : "",
			       bv->file[i].src);
		if (k->tuxmake)
			printf("# %s: tuxmake %s: %s\n", k->name, k->tuxmake,
			       k->tuxmake_cmd[0] ? k->tuxmake_cmd : "(no reproducer_cmdline)");
	}
	bv_dry_plan(bv);
	for (i = 0; i < bv->nr_c; i++)
		cmds[i] = bv->c[i].argv;
	printf("# /init\n");
	return vm_write_init(stdout, cmds, bv->nr_c) ? EXIT_ENV : 0;
}

int cmd_vm(int argc, char **argv)
{
	struct bv_global *bv = &bv_global;
	sigset_t stop;
	int ret;

	ret = bv_parse(bv, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_USAGE : bench_finish_stdout();
	/* SIGINT/SIGTERM are taken in bv_wait(), between two boots at the latest */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGCHLD, SIG_DFL);
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
	bv_free(bv);
	free(bv->cell);
	bv->cell = NULL;
	bv_cleanup(bv);
	return ret;
}
