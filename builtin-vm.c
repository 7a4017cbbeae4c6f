// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-vm.c - bench vm: boot each kernel under test in qemu with as
 * many possible CPUs as asked, run bench commands inside every boot, and
 * write one CSV per kernel and command whose runs are the boots, ready
 * for bench compare.
 *
 * Why boots and not runs inside one boot: runs in one boot share its
 * per-CPU area, slab caches and placement, and are not independent (on
 * 6.1, six runs in one boot per kernel showed a -10% "improvement" of
 * irq_free_descs() that the patch cannot cause); boots are. Boots of the
 * kernels interleave (A1 B1 A2 B2 ...), so that a drift of the host
 * moves both sides alike, as bench run's ABBA does inside a run.
 *
 * Each boot: an initramfs written here (lib/cpio.h) with busybox, the
 * static bench, the module and an /init made for the commands; qemu
 * with the kernel's console on ttyS0 (kept for the reader, NAME.console)
 * and the results on ttyS1, each command's CSV between "@ksb" lines:
 *
 *	@ksb vm 1
 *	@ksb boot release=6.12.117 possible=0-479 online=0-1 kernel_max=511
 *	@ksb begin 1
 *	# kstats-bench-csv 3 ...		the command's -o CSV
 *	@ksb stderr 1
 *	...					its stderr
 *	@ksb end 1 rc=0
 *	@ksb done
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "lib/csv.h"
#include "lib/format.h"
#include "lib/kimage.h"
#include "lib/outfile.h"
#include "lib/results.h"
#include "lib/runs.h"
#include "lib/testbed.h"
#include "lib/spawn.h"
#include "lib/vm.h"
#include "lib/vmboot.h"
#include "lib/kmod.h"

#define BV_MAX_KERNELS	16
#define BV_MAX_ARGS	64		/* words of one command */
#define BV_BUSYBOX	"/bin/busybox"	/* busybox-static's */
#define BV_MAX_COUNTS	16		/* -p's list */
#define BV_MAX_POSSIBLE	8192		/* -p's counts: the kernel's NR_CPUS at most */

/* the bench commands a guest may run: each writes a CSV with -o */
static const char *const bv_guest_cmds[] = { "kernel", "run", "trace", NULL };

/* one command, run inside every boot */
struct bv_cmd {
	char *argv[BV_MAX_ARGS + 1];	/* bench's words: "kernel", "-w", ... */
	unsigned int argc;		/* used */
	char what[256];			/* argv joined, for titles and metadata */
};

/* what one boot said */
struct bv_boot {
	unsigned int possible;		/* possible CPUs, as the guest counted them */
	unsigned int online;		/* online CPUs, as the guest counted them */
	double seconds;			/* qemu's start to its exit, wall clock */
	unsigned int tries;		/* boots it took: 1 + retries */
};

/* the boots' results of one command on one kernel at one count */
struct bv_runs {
	struct runs set;		/* the boots as runs 1.., and their merge */
	struct outfile out;		/* NAME[-CMD][-pN].csv */
	char path[PATH_MAX];		/* its path */
};

/* one kernel under test */
struct bv_kernel {
	char name[64];			/* label: files, progress, metadata */
	const char *image;		/* its bzImage */
	const char *tree;		/* its build tree, NULL: given as an image */
	char image_buf[PATH_MAX];	/* tree/arch/x86/boot/bzImage */
	char release[KIMAGE_RELEASE_MAX]; /* the bzImage's */
	char ko[PATH_MAX];		/* the module it boots with, "" none */
	char initrd[PATH_MAX];		/* its initramfs, in the work directory */
	struct outfile console;		/* NAME.console: every boot's console */
	char console_path[PATH_MAX];	/* its path */
};

/* one kernel booted at one possible-CPU count: the unit of the files */
struct bv_cell {
	struct bv_kernel *k;		/* the kernel */
	struct vm_config vm;		/* the machine, at this count */
	char label[80];			/* NAME, or NAME-pN with several counts */
	char qemu_line[2048];		/* its qemu command, for the metadata */
	struct bv_boot *boot;		/* [boots] */
	unsigned int nr_boots;		/* finished */
	struct bv_runs runs[VM_MAX_CMDS]; /* per command */
};

/* One global, as bench run's: configuration, then run state. */
static struct bv_global {
	/* configuration */
	uint64_t boots;			/* -B, per kernel and count */
	uint64_t cpus;			/* -c, online vCPUs */
	unsigned int possible[BV_MAX_COUNTS]; /* -p, in order */
	unsigned int nr_p;		/* used; 0: --cpus */
	uint64_t nodes;			/* --nodes */
	uint64_t memory;		/* -m, MiB */
	enum vm_accel accel;		/* --accel */
	uint64_t timeout;		/* --timeout, s per boot */
	uint64_t retries;		/* --retries, per boot */
	const char *append;		/* --append, more kernel command line */
	const char *module;		/* --module, for kernels given as images */
	const char *kbuild;		/* --kbuild, build the module there */
	const char *outdir;		/* -o */
	const char *qemu;		/* --qemu */
	const char *busybox;		/* --busybox, static */
	const char *bench;		/* --bench, static; NULL: bench-static */
	int format;			/* -f, an index of formats[] */
	bool quiet;			/* -q */
	char cmdline[1024];		/* for the metadata */

	/* run state */
	struct testbed tb;		/* this host, read before the first boot */
	time_t started;			/* when: the files' timestamp */
	struct bv_kernel k[BV_MAX_KERNELS]; /* operands, in order */
	unsigned int nr_k;		/* used */
	struct bv_cmd c[VM_MAX_CMDS];	/* after "--", in order */
	unsigned int nr_c;		/* used */
	struct bv_cell *cell;		/* [nr_k * nr_p]: kernel k at count p is k * nr_p + p */
	unsigned int nr_cells;		/* allocated */
	char bench_path[PATH_MAX];	/* the static bench the guests run */
	char work[PATH_MAX];		/* temp directory: initramfs, logs */
	int signo;			/* SIGINT/SIGTERM that stopped us, or 0 */
} vmg;

/* ---- options ---- */

/* -p N[,N...]: each 1..8192, none twice */
static int bv_opt_possible(const struct opt *o, const char *arg, char *why, size_t len)
{
	const char *p = arg;
	unsigned long n;
	unsigned int i;
	char *end;

	(void)o;
	vmg.nr_p = 0;
	do {
		errno = 0;
		n = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
		if (!n || errno || n > BV_MAX_POSSIBLE || (*end && *end != ',') ||
		    vmg.nr_p == BV_MAX_COUNTS) {
			snprintf(why, len, "--possible-cpus: '%s' is not a list of at most %d counts, each in 1..%d (e.g. 64,128,255)",
				 arg, BV_MAX_COUNTS, BV_MAX_POSSIBLE);
			return -EINVAL;
		}
		for (i = 0; i < vmg.nr_p; i++)
			if (vmg.possible[i] == n) {
				snprintf(why, len, "--possible-cpus: '%s' asks %lu twice", arg, n);
				return -EINVAL;
			}
		vmg.possible[vmg.nr_p++] = (unsigned int)n;
		p = end + 1;
	} while (*end);
	return 0;
}

static const struct opt bv_opts[] = {
	OPT_U64('B', "boots", &vmg.boots, 1, 1000, "N",
		"boots per kernel and count, each one run of every\n"
		"command (default 6: bench compare needs 5 a side)"),
	OPT_CALL('p', "possible-cpus", NULL, bv_opt_possible, "N[,N...]",
		 "possible CPUs the guests boot with, each 1..8192\n"
		 "(default: --cpus); a list is a sweep: every kernel\n"
		 "boots at every count"),
	OPT_U64('c', "cpus", &vmg.cpus, 1, VM_FW_MAX_CPUS, "N", "online vCPUs, 1..255 (default 2)"),
	OPT_U64(0, "nodes", &vmg.nodes, 1, 64, "N",
		"NUMA nodes, one socket each, memory split evenly\n(default 1)"),
	OPT_U64('m', "memory", &vmg.memory, 128, 1 << 20, "MIB", "guest memory (default 1024)"),
	OPT_ENUM(0, "accel", &vmg.accel, vm_accels, "tcg|kvm",
		 "qemu's accelerator (default tcg; kvm where /dev/kvm\nworks)"),
	OPT_U64(0, "timeout", &vmg.timeout, 10, 86400, "S",
		"seconds a boot may take before it is killed (300)"),
	OPT_U64(0, "retries", &vmg.retries, 0, 10, "N",
		"boots again after a hang or a crash (default 1)"),
	OPT_STRING(0, "append", &vmg.append, "ARGS", "more kernel command line"),
	OPT_STRING(0, "module", &vmg.module, "KO",
		   "kstats_bench.ko for the kernels given as images"),
	OPT_STRING(0, "kbuild", &vmg.kbuild, "DIR",
		   "build the module against this tree for the kernels\ngiven as images"),
	OPT_STRING('o', "output", &vmg.outdir, "DIR", "where the CSVs go (default .)"),
	OPT_ENUM_TABLE('f', "format", &vmg.format, formats, "FMT",
		       "what goes to stdout, per kernel and command:"),
	OPT_STRING(0, "qemu", &vmg.qemu, "PROG", "default qemu-system-x86_64"),
	OPT_STRING(0, "busybox", &vmg.busybox, "FILE", "a static busybox (default /bin/busybox)"),
	OPT_STRING(0, "bench", &vmg.bench, "FILE",
		   "the static bench the guests run (default\nbench-static beside this one)"),
	OPT_CALL(0, "label", NULL, bench_opt_label, "KEY=VALUE",
		 "record label_KEY: VALUE in every file; repeatable"),
	OPT_FLAG('q', "quiet", &vmg.quiet, "no progress on stderr"),
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
	"..., or trace FUNC [OPTIONS] [-- PROG ARGS]: inside a trace command the first\n"
	"'--' starts the traced PROG (busybox's, or /bench ...), which runs to the next\n"
	"'--' or the end. Every kernel boots at every count, -B times, in a balanced\n"
	"order: each round boots every (kernel, count) once, kernels and counts\n"
	"rotated round by round (A B, B A, ...). NAME defaults to the file's directory\n"
	"(stock/bzImage: stock) or the tree's name.\n";

static const char bv_tail[] =
	"Above 255 possible CPUs the firmware declares 255 and the kernel adds the\n"
	"rest from possible_cpus=: 6.1 does, 6.9 and later only with\n"
	"tests/kernel/patches/test-only-possible-cpus.patch. Each boot's guest count\n"
	"is checked. qemu TCG models no caches: its figures are instruction-bound\n"
	"(see README, \"Gating a kernel in CI\").\n"
	"Exit: 0 done, 2 bad usage or files, 3 qemu, a boot or the guest refused\n"
	"(named), 130/143 interrupted (finished boots kept, partial: yes).\n";

static void bv_defaults(void)
{
	memset(&vmg, 0, sizeof(vmg));
	vmg.boots = 6;
	vmg.cpus = 2;
	vmg.nodes = 1;
	vmg.memory = 1024;
	vmg.timeout = 300;
	vmg.retries = 1;
	vmg.outdir = ".";
	vmg.format = FORMAT_TABLE;
	vmg.qemu = "qemu-system-x86_64";
	vmg.busybox = BV_BUSYBOX;
}

/* a name for file names: [A-Za-z0-9._-], not starting with '.' */
static bool bv_name_ok(const char *s)
{
	return *s && *s != '.' && strlen(s) < sizeof(vmg.k[0].name) &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") ==
	       strlen(s);
}

/* NAME=PATH, or PATH named after its directory (or itself, a tree) */
static int bv_add_kernel(char *arg)
{
	struct bv_kernel *k = &vmg.k[vmg.nr_k];
	char *eq = strchr(arg, '='), dir[PATH_MAX], *base;
	const char *path = eq ? eq + 1 : arg;
	struct stat st;

	if (vmg.nr_k == BV_MAX_KERNELS) {
		bench_err("at most %d kernels", BV_MAX_KERNELS);
		return -1;
	}
	if (stat(path, &st)) {
		bench_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		k->tree = path;
		snprintf(k->image_buf, sizeof(k->image_buf), "%s/arch/x86/boot/bzImage", path);
		k->image = k->image_buf;
	} else {
		k->image = path;
	}
	snprintf(dir, sizeof(dir), "%s", k->tree ? k->tree : path);
	if (!k->tree && (base = strrchr(dir, '/')))
		*base = 0;
	else if (!k->tree)
		snprintf(dir, sizeof(dir), "%s", path);
	base = strrchr(dir, '/');
	base = base && base[1] ? base + 1 : dir;
	if (eq)
		*eq = 0;
	snprintf(k->name, sizeof(k->name), "%.63s", eq ? arg : base);
	if (!bv_name_ok(eq ? arg : k->name)) {
		bench_err("'%s': a kernel's NAME is [A-Za-z0-9._-], at most 63 (NAME=%s)",
			  eq ? arg : k->name, path);
		return -1;
	}
	for (unsigned int i = 0; i < vmg.nr_k; i++)
		if (!strcmp(vmg.k[i].name, k->name)) {
			bench_err("two kernels named '%s': name them, NAME=%s", k->name, path);
			return -1;
		}
	vmg.nr_k++;
	return 0;
}

/* is @c a trace command whose "--" (its PROG follows) is still to come? */
static bool bv_trace_open(const struct bv_cmd *c)
{
	unsigned int j;

	if (!c->argc || strcmp(c->argv[0], "trace"))
		return false;
	for (j = 1; j < c->argc; j++)
		if (!strcmp(c->argv[j], "--"))
			return false;
	return true;
}

/* is word @j of @c in trace's PROG, after its "--"? */
static bool bv_trace_prog(const struct bv_cmd *c, unsigned int j)
{
	unsigned int i;

	for (i = 1; i < j; i++)
		if (!strcmp(c->argv[i], "--"))
			return true;
	return false;
}

/*
 * the words from @argv[@i] up to the next "--" or the end: one command;
 * a trace command's first "--" is its own (its PROG follows)
 */
static int bv_add_cmd(int argc, char **argv, int i)
{
	struct bv_cmd *c = &vmg.c[vmg.nr_c];
	unsigned int j;
	size_t used = 0;

	if (vmg.nr_c == VM_MAX_CMDS) {
		bench_err("at most %d commands", VM_MAX_CMDS);
		return -1;
	}
	/* trace's first "--" starts its PROG, which runs to the next "--" */
	for (; i < argc && (strcmp(argv[i], "--") || bv_trace_open(c)); i++) {
		if (c->argc == BV_MAX_ARGS) {
			bench_err("a command of more than %d words", BV_MAX_ARGS);
			return -1;
		}
		c->argv[c->argc++] = argv[i];
	}
	if (!c->argc) {
		bench_err("an empty command after '--' (e.g. -- kernel -w kernel-irq-alloc)");
		return -1;
	}
	for (j = 0; bv_guest_cmds[j] && strcmp(bv_guest_cmds[j], c->argv[0]); j++)
		;
	if (!bv_guest_cmds[j]) {
		bench_err("'%s': the guests run bench kernel, bench run or bench trace", c->argv[0]);
		return -1;
	}
	for (j = 0; j < vmg.nr_c; j++)
		if (!strcmp(vmg.c[j].argv[0], c->argv[0])) {
			bench_err("two '%s' commands: their files would have one name", c->argv[0]);
			return -1;
		}
	if (!strcmp(c->argv[0], "trace") && c->argc > 1 && !strcmp(c->argv[c->argc - 1], "--")) {
		bench_err("'trace ... --': no program after '--' (e.g. -- trace show_stat -- cat /proc/stat)");
		return -1;
	}
	for (j = 0; j < c->argc; j++) {
		if (!bv_trace_prog(c, j) && (!strncmp(c->argv[j], "--output", 8) ||
					     !strncmp(c->argv[j], "-o", 2))) {
			bench_err("'%s %s': bench vm writes the command's CSV itself (-o DIR)",
				  c->argv[0], c->argv[j]);
			return -1;
		}
		used += (size_t)snprintf(c->what + used, used < sizeof(c->what) ?
					 sizeof(c->what) - used : 0, "%s%s", j ? " " : "",
					 c->argv[j]);
	}
	vmg.nr_c++;
	return i;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int bv_parse(int argc, char **argv)
{
	const struct opt *tab[] = { bv_opts, NULL };
	struct opt_parser p = { .tab = tab };
	int i, dash, ret;

	bv_defaults();
	bench_cmdline(vmg.cmdline, sizeof(vmg.cmdline), argc, argv);
	/* the first "--" ends bench vm's words; getopt would move it */
	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	ret = bench_options(&p, bv_head, bv_tail, dash, argv);
	if (ret)
		return ret;
	for (i = optind; i < dash; i++)
		if (bv_add_kernel(argv[i]))
			return -1;
	if (!vmg.nr_k || dash == argc) {
		bench_err("%s", vmg.nr_k ? "no command: -- kernel ... or -- run ..." :
			  "no kernel: give a bzImage or a build tree");
		return -1;
	}
	for (i = dash + 1; i <= argc; i++) {
		i = bv_add_cmd(argc, argv, i);
		if (i < 0)
			return -1;
	}
	if (!vmg.nr_p)
		vmg.possible[vmg.nr_p++] = (unsigned int)vmg.cpus;
	if ((vmg.format == FORMAT_CSV || !strcmp(formats[vmg.format].name, "json")) &&
	    vmg.nr_k * vmg.nr_c * vmg.nr_p > 1) {
		bench_err("-f %s: one document for %u kernels x %u commands x %u counts; the files are %s/NAME*.csv (bench show -f %s FILE)",
			  formats[vmg.format].name, vmg.nr_k, vmg.nr_c, vmg.nr_p, vmg.outdir,
			  formats[vmg.format].name);
		return -1;
	}
	return 0;
}

/* ---- checks, before anything boots ---- */

/* --bench, else bench-static (or kstats-bench-static) beside us, else us if static */
static int bv_find_bench(void)
{
	static const char *const names[] = { "bench-static", "kstats-bench-static", NULL };
	char dir[PATH_MAX];
	unsigned int i;
	int ret;

	if (vmg.bench) {
		snprintf(vmg.bench_path, sizeof(vmg.bench_path), "%s", vmg.bench);
	} else if (!spawn_exe_dir(dir, sizeof(dir))) {
		for (i = 0; names[i]; i++) {
			snprintf(vmg.bench_path, sizeof(vmg.bench_path), "%.4000s/%s", dir, names[i]);
			if (!access(vmg.bench_path, X_OK))
				break;
		}
		if (!names[i])
			snprintf(vmg.bench_path, sizeof(vmg.bench_path), "/proc/self/exe");
	}
	ret = kimage_elf_static(vmg.bench_path);
	if (ret == 1)
		return 0;
	if (vmg.bench) {
		bench_err("--bench %s: %s", vmg.bench, ret < 0 ? strerror(-ret) :
			  "dynamically linked; the guests have no shared libraries (make static)");
		return EXIT_USAGE;
	}
	return bench_refused("no static bench for the guests: make static builds bench-static beside bench (or --bench FILE)");
}

/* does @path carry busybox's banner, "BusyBox v"? 1 yes, 0 no, -errno */
static int bv_is_busybox(const char *path)
{
	static const char banner[] = "BusyBox v";
	char buf[1 << 16];
	size_t n, keep = 0;
	int ret = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	/* keep a banner's length of each block for the next: one cut in two is found */
	while (!ret && (n = fread(buf + keep, 1, sizeof(buf) - keep, f)) > 0) {
		ret = memmem(buf, keep + n, banner, sizeof(banner) - 1) != NULL;
		keep = keep + n < sizeof(banner) ? keep + n : sizeof(banner) - 1;
		memmove(buf, buf + sizeof(buf) - keep, keep);
	}
	if (ferror(f))
		ret = -EIO;
	fclose(f);
	return ret;
}

/*
 * the guests' busybox: static, and a busybox. A --busybox FILE that
 * cannot be read is a bad argument (2); the default missing, or a file
 * that is no static busybox, is what this host lacks (3)
 */
static int bv_check_busybox(void)
{
	bool given = strcmp(vmg.busybox, BV_BUSYBOX);
	int ret = access(vmg.busybox, R_OK) ? -errno : kimage_elf_static(vmg.busybox);

	if (given && ret < 0 && ret != -EINVAL) {
		bench_err("--busybox %s: %s", vmg.busybox, strerror(-ret));
		return EXIT_USAGE;
	}
	if (ret == 0)
		return bench_refused("%s is dynamically linked: the guests need a static one (apt-get install busybox-static, or --busybox FILE)",
				     vmg.busybox);
	if (ret == 1)
		ret = bv_is_busybox(vmg.busybox);
	if (ret == 1)
		return 0;
	if (ret == 0 || ret == -EINVAL)
		return bench_refused("%s is not a busybox (no \"BusyBox v\" in it): the guests need a static busybox (apt-get install busybox-static, or --busybox FILE)",
				     vmg.busybox);
	return bench_refused("%s: %s (apt-get install busybox-static, or --busybox FILE)",
			     vmg.busybox, strerror(-ret));
}

/* does any command need the module? */
static bool bv_needs_module(void)
{
	unsigned int i;

	for (i = 0; i < vmg.nr_c; i++)
		if (!strcmp(vmg.c[i].argv[0], "kernel"))
			return true;
	return false;
}

/* the tree's release, and the image's: what was built is what boots */
static int bv_check_image(struct bv_kernel *k)
{
	char rel[KIMAGE_RELEASE_MAX];
	int ret;

	if (k->tree && kimage_tree_release(k->tree, rel, sizeof(rel))) {
		bench_err("%s: %s is not a configured kernel tree (no include/config/kernel.release: make olddefconfig prepare)",
			  k->name, k->tree);
		return EXIT_USAGE;
	}
	ret = kimage_bzimage_release(k->image, k->release, sizeof(k->release));
	if (ret == -EINVAL) {
		bench_err("%s: %s is not a bzImage (no \"HdrS\" boot header)", k->name, k->image);
		return EXIT_USAGE;
	}
	if (ret) {
		bench_err("%s: %s: %s%s", k->name, k->image, strerror(-ret),
			  k->tree ? " (is the tree built? make bzImage)" : "");
		return EXIT_USAGE;
	}
	if (k->tree && strcmp(rel, k->release)) {
		bench_err("%s: %s is %s, its bzImage %s: rebuild it (make bzImage)",
			  k->name, k->tree, rel, k->release);
		return EXIT_USAGE;
	}
	return 0;
}

/* a module file built for @k's release */
static int bv_check_ko(struct bv_kernel *k, const char *ko, const char *opt)
{
	char rel[KIMAGE_RELEASE_MAX];
	int ret = kimage_ko_release(ko, rel, sizeof(rel));

	if (ret) {
		bench_err("%s%s: %s", opt, ko, ret == -EINVAL ? "not a kernel module (no vermagic)" :
			  strerror(-ret));
		return EXIT_USAGE;
	}
	if (strcmp(rel, k->release)) {
		bench_err("%s%s is built for %s, kernel %s is %s", opt, ko, rel, k->name, k->release);
		return EXIT_USAGE;
	}
	snprintf(k->ko, sizeof(k->ko), "%s", ko);
	return 0;
}

/* the module built against @tree in the work directory, for @k */
static int bv_build_kmod(struct bv_kernel *k, const char *tree, const char *opt)
{
	char rel[KIMAGE_RELEASE_MAX], src[PATH_MAX], dir[PATH_MAX], ko[PATH_MAX + 32];
	int ret;

	if (kimage_tree_release(tree, rel, sizeof(rel))) {
		bench_err("%s%s is not a configured kernel tree (no include/config/kernel.release: make olddefconfig prepare)",
			  opt, tree);
		return EXIT_USAGE;
	}
	if (kmod_src_dir(src, sizeof(src)))
		return bench_refused("no module sources (kmod/) beside bench or in share/kstats-bench");
	snprintf(dir, sizeof(dir), "%.3000s/kmod-%.63s", vmg.work, k->name);
	if (!vmg.quiet)
		fprintf(stderr, "%s: %s: building kstats_bench.ko against %s\n", bench_prog,
			k->name, tree);
	ret = kmod_build(tree, dir, STDERR_FILENO);
	if (ret < 0)
		return bench_refused("copying the module's sources to %s: %s", dir, strerror(-ret));
	if (ret)
		return bench_refused("%s: building the module against %s failed (make -C %s M=%s modules)",
				  k->name, tree, tree, dir);
	snprintf(ko, sizeof(ko), "%s/kstats_bench.ko", dir);
	return bv_check_ko(k, ko, opt);
}

/* every kernel: its image, its module when a command needs one */
static int bv_check_kernels(void)
{
	struct bv_kernel *k;
	int ret = 0;

	for (k = vmg.k; !ret && k < vmg.k + vmg.nr_k; k++) {
		ret = bv_check_image(k);
		if (ret || !bv_needs_module())
			continue;
		if (k->tree)
			ret = bv_build_kmod(k, k->tree, "");
		else if (vmg.module)
			ret = bv_check_ko(k, vmg.module, "--module ");
		else if (vmg.kbuild && k > vmg.k && vmg.k[0].ko[0] && !vmg.k[0].tree)
			ret = bv_check_ko(k, vmg.k[0].ko, "--kbuild ");	/* built once */
		else if (vmg.kbuild)
			ret = bv_build_kmod(k, vmg.kbuild, "--kbuild ");
		else {
			bench_err("%s: bench kernel needs the module: give the kernel's build tree, --kbuild DIR or --module KO",
				  k->name);
			ret = EXIT_USAGE;
		}
	}
	return ret;
}

/* ---- the guest ---- */

/* the machine of every count, checked; the cells: every kernel at every count */
static int bv_check_config(void)
{
	unsigned int i, p;
	char why[256];

	vmg.nr_cells = vmg.nr_k * vmg.nr_p;
	vmg.cell = calloc(vmg.nr_cells, sizeof(*vmg.cell));
	if (!vmg.cell)
		return bench_refused("%s", strerror(ENOMEM));
	for (i = 0; i < vmg.nr_cells; i++) {
		struct bv_cell *c = &vmg.cell[i];

		p = vmg.possible[i % vmg.nr_p];
		c->k = &vmg.k[i / vmg.nr_p];
		c->vm = (struct vm_config) {
			.qemu = vmg.qemu, .accel = vmg.accel, .cpus = (unsigned int)vmg.cpus,
			.possible = p, .nodes = (unsigned int)vmg.nodes,
			.memory = (unsigned long)vmg.memory, .append = vmg.append,
		};
		if (vmg.nr_p == 1)
			snprintf(c->label, sizeof(c->label), "%s", c->k->name);
		else
			snprintf(c->label, sizeof(c->label), "%s-p%u", c->k->name, p);
		if (vm_check_config(&c->vm, why, sizeof(why))) {
			bench_err("%s", why);
			return EXIT_USAGE;
		}
	}
	if (vmg.accel == VM_KVM && access("/dev/kvm", R_OK | W_OK))
		return bench_refused("--accel kvm: /dev/kvm: %s", strerror(errno));
	return 0;
}

/* @k's initramfs: busybox, bench, the module, /init for the commands */
static int bv_initramfs(struct bv_kernel *k)
{
	char *const *cmds[VM_MAX_CMDS];
	unsigned int i;
	int ret;

	for (i = 0; i < vmg.nr_c; i++)
		cmds[i] = vmg.c[i].argv;
	snprintf(k->initrd, sizeof(k->initrd), "%.3000s/%.63s.cpio", vmg.work, k->name);
	ret = vm_initramfs(k->initrd, cmds, vmg.nr_c, vmg.busybox, vmg.bench_path,
			   k->ko[0] ? k->ko : NULL);
	if (ret)
		return bench_refused("%s: writing its initramfs %s: %s", k->name, k->initrd,
				  strerror(-ret));
	return 0;
}

/* ---- booting ---- */

static void bv_free(void);
static void bv_cleanup(void);

/* one boot being waited for, for bench_wait() and lib/vmboot's callbacks */
struct bv_wait {
	struct spawn *s;		/* qemu, once started */
	const struct bv_cell *c;	/* what it boots */
	unsigned int b;			/* which boot, 0.. */
	bool stopped;			/* a SIGINT/SIGTERM killed it */
};

static int bv_qemu_poll(void *priv)
{
	struct bv_wait *w = priv;

	return spawn_poll(w->s, (unsigned long)vmg.timeout * 1000);
}

/* the first SIGINT/SIGTERM: the boot is not kept, so qemu goes at once */
static void bv_qemu_stop(void *priv, int sig)
{
	struct bv_wait *w = priv;

	(void)sig;
	w->stopped = true;
	spawn_kill(w->s, SIGKILL);
}

/* the second: no temp file beside an output, no work directory left */
static void bv_qemu_leave(void *priv)
{
	spawn_kill(((struct bv_wait *)priv)->s, SIGKILL);
	bv_free();
	bv_cleanup();
}

static void bv_qemu_progress(void *priv)
{
	const struct bv_wait *w = priv;

	fprintf(stderr, "%s: %s boot %u/%lu: %.0f s ", bench_prog, w->c->label, w->b + 1,
		(unsigned long)vmg.boots, spawn_now() - w->s->t0);
}

/*
 * lib/vmboot's wait: qemu at most --timeout seconds; the first SIGINT or
 * SIGTERM kills it and is kept in vmg.signo. 0, 1 when stopped, -errno.
 */
static int bv_wait(struct spawn *s, void *priv)
{
	struct bv_wait *w = priv;
	struct bench_wait bw = {
		.poll = bv_qemu_poll, .stop = bv_qemu_stop, .leave = bv_qemu_leave,
		.progress = bv_qemu_progress, .priv = w, .tick_ms = 200, .wake = SIGCHLD,
		.quiet = vmg.quiet, .signo = &vmg.signo,
	};
	int ret;

	w->s = s;
	ret = bench_wait(&bw);
	return ret ? ret : w->stopped;
}

/* a try that hung or crashed, said */
static void bv_retry(void *priv, const char *why, bool again)
{
	const struct bv_wait *w = priv;

	fprintf(stderr, "%s: %s boot %u %s%s\n", bench_prog, w->c->label, w->b + 1, why,
		again ? "; booting it again" : "");
}

/* why the guest did not count --possible-cpus: the limit it met */
static int bv_possible_refused(const struct bv_cell *c, unsigned int b,
			       const struct vm_guest *g)
{
	unsigned int fw = vm_fw_cpus(&c->vm);

	if (c->vm.possible > g->kernel_max + 1)
		return bench_refused("%s boot %u: %u possible CPUs, not %u: %s is built with NR_CPUS=%u",
				     c->label, b + 1, g->possible, c->vm.possible,
				     g->release, g->kernel_max + 1);
	if (c->vm.possible > fw && g->possible <= fw)
		return bench_refused("%s boot %u: %u possible CPUs, not %u: qemu's firmware declares at most %u, and %s added none from possible_cpus= (kernels since 6.9 do not: apply tests/kernel/patches/test-only-possible-cpus.patch to every kernel compared, boot one before 6.9, or ask -p %u)",
				     c->label, b + 1, g->possible, c->vm.possible, fw,
				     g->release, fw);
	return bench_refused("%s boot %u: the guest counted %u possible CPUs and %u online, not %u and %u",
			     c->label, b + 1, g->possible, g->online, c->vm.possible,
			     c->vm.cpus);
}

/* a command's exit code in the guest, as ours: 2 for its usage errors */
static int bv_cmd_failed(const struct bv_cell *c, unsigned int b, unsigned int i,
			 const struct vm_guest *g)
{
	int rc = g->rc[i];

	fprintf(stderr, "%s: %s boot %u: bench %s exited %d in the guest: %s\n", bench_prog,
		c->label, b + 1, vmg.c[i].argv[0], rc, g->err[i][0] ? g->err[i] : "(no message)");
	return rc == EXIT_USAGE ? EXIT_USAGE : EXIT_ENV;
}

/*
 * the CSV command @i wrote in boot @b, read back as run b + 1; per-CPU
 * series of each boot kept while they stay few (lib/runs.h, as bench
 * run --runs)
 */
static int bv_absorb(struct bv_cell *c, unsigned int b, unsigned int i, struct vm_guest *g)
{
	struct csv_error err = { 0, "no CSV" };
	int ret = -EINVAL;

	if (g->csv[i])
		ret = runs_absorb(&c->runs[i].set, g->csv[i], b + 1, &err);
	if (!ret)
		return 0;
	return bench_refused("%s boot %u: bench %s's CSV from the guest: line %lu: %s", c->label,
			     b + 1, vmg.c[i].argv[0], err.line,
			     ret == -EINVAL ? err.why : strerror(-ret));
}

/* what a finished boot brought: the CPUs it counted, every command's CSV */
static int bv_boot_results(struct bv_cell *c, unsigned int b, struct vm_guest *g)
{
	unsigned int i;
	int ret = 0;

	if (g->possible != c->vm.possible || g->online != c->vm.cpus)
		return bv_possible_refused(c, b, g);
	for (i = 0; i < vmg.nr_c && !ret; i++)
		ret = g->rc[i] ? bv_cmd_failed(c, b, i, g) : 0;
	for (i = 0; i < vmg.nr_c && !ret; i++)
		ret = bv_absorb(c, b, i, g);
	return ret;
}

/*
 * Boot @c once (and again after a hang or a crash, --retries times,
 * lib/vmboot.h), keep its console and read its results back as run
 * @b + 1. Returns 0, 128 + signal when stopped, or an exit code after a
 * message.
 */
static int bv_boot(struct bv_cell *c, unsigned int b)
{
	struct bv_boot *bt = &c->boot[b];
	struct bv_wait w = { .c = c, .b = b };
	struct vmboot vb = {
		.vm = &c->vm, .image = c->k->image, .initrd = c->k->initrd, .work = vmg.work,
		.nr_cmds = vmg.nr_c, .timeout_ms = (unsigned long)vmg.timeout * 1000,
		.retries = (unsigned int)vmg.retries, .console = c->k->console.f,
		.name = c->label, .boot = b + 1, .wait = bv_wait, .retry = bv_retry, .priv = &w,
	};
	enum vmboot_end end = vmboot_run(&vb);
	int ret;

	if (!c->qemu_line[0])
		snprintf(c->qemu_line, sizeof(c->qemu_line), "%s", vb.qemu_line);
	bt->tries = vb.tries;
	bt->seconds = vb.seconds;
	switch (end) {
	case VMBOOT_DONE:
		break;
	case VMBOOT_STOPPED:
		return 128 + vmg.signo;
	case VMBOOT_GAVE_UP:
		return bench_refused("%s boot %u failed %u times (see %s)", c->label, b + 1,
				     bt->tries, c->k->console_path);
	default:
		return bench_refused("%s boot %u: %s", c->label, b + 1, vb.why);
	}
	bt->possible = vb.guest.possible;
	bt->online = vb.guest.online;
	ret = bv_boot_results(c, b, &vb.guest);
	vm_guest_free(&vb.guest);
	if (!ret)
		c->nr_boots++;
	return ret;
}

/* ---- results: one CSV per kernel, count and command, the boots its runs ---- */

/* "1:480/2 2:480/2": per boot, "run:value" for @key */
static void bv_meta_boots(struct meta *m, const struct bv_cell *c, const char *key)
{
	char buf[1024];
	size_t used = 0;
	unsigned int b;

	buf[0] = 0;
	for (b = 0; b < c->nr_boots && used < sizeof(buf); b++) {
		const struct bv_boot *bt = &c->boot[b];
		size_t room = sizeof(buf) - used;
		const char *sp = b ? " " : "";

		if (!strcmp(key, "vm_boots"))
			used += (size_t)snprintf(buf + used, room, "%s%u:%u/%u", sp, b + 1,
						 bt->possible, bt->online);
		else if (!strcmp(key, "vm_boot_seconds"))
			used += (size_t)snprintf(buf + used, room, "%s%u:%.1f", sp, b + 1,
						 bt->seconds);
		else
			used += (size_t)snprintf(buf + used, room, "%s%u:%u", sp, b + 1, bt->tries);
	}
	meta_put(m, key, "%s", buf);
}

/* the first boot's metadata, with the VM's and every boot's */
static void bv_meta(struct bv_cell *c, unsigned int i)
{
	struct meta *m = &c->runs[i].set.all->meta;

	runs_meta(&c->runs[i].set, vmg.cmdline, vmg.signo);
	/*
	 * possible_cpus as the guest counted it (every boot is checked to
	 * be the count asked): what bench scale puts on its x axis, whatever
	 * the guest command wrote
	 */
	meta_put(m, "possible_cpus", "%u", c->boot[0].possible);
	meta_put(m, "vm_name", "%s", c->k->name);
	meta_put(m, "vm_image", "%s", c->k->image);
	meta_put(m, "vm_release", "%s", c->k->release);
	meta_put(m, "vm_module", "%s", c->k->ko[0] ? c->k->ko : "none");
	meta_put(m, "vm_guest_command", "bench %s", vmg.c[i].what);
	meta_put(m, "vm_qemu", "%s", c->qemu_line);
	bv_meta_boots(m, c, "vm_boots");
	bv_meta_boots(m, c, "vm_boot_seconds");
	bv_meta_boots(m, c, "vm_boot_tries");
	/*
	 * The guests' testbed keys say what they ran in; this host's
	 * settings move a TCG guest's timings as much. The guests' build
	 * stays: it measured; the start and the labels are this command's.
	 */
	testbed_meta(&vmg.tb, m, TB_VM_HOST);
	meta_timestamp(m, vmg.started);
	bench_meta_origin(m);
}

/* command @i on @c, merged over its boots, in -f's format, under a title */
static int bv_print(FILE *f, const struct bv_cell *c, unsigned int i)
{
	const struct bv_runs *r = &c->runs[i];

	if (vmg.format != FORMAT_CSV && strcmp(formats[vmg.format].name, "json"))
		fprintf(f, "# %s: bench %s, %u boots of %s, %u possible CPUs, %u online, qemu %s\n",
			c->label, vmg.c[i].what, r->set.n, c->k->release, c->vm.possible,
			c->vm.cpus, vm_accels[vmg.accel]);
	return format_write(f, (unsigned int)vmg.format, r->set.all);
}

/* ---- bench vm ---- */

/* @c's files: DIR/NAME[-CMD][-pN].csv, opened before anything boots */
static int bv_open_cell(struct bv_cell *c)
{
	char base[3200], pn[16] = "";
	unsigned int i;
	int ret;

	if (vmg.nr_p > 1)
		snprintf(pn, sizeof(pn), "-p%u", c->vm.possible);
	/* a copy: GCC's -Wrestrict sees k->name inside *k */
	snprintf(base, sizeof(base), "%.3000s/%.63s", vmg.outdir, c->k->name);
	for (i = 0; i < vmg.nr_c; i++) {
		struct bv_runs *r = &c->runs[i];

		if (vmg.nr_c == 1)
			snprintf(r->path, sizeof(r->path), "%s%s.csv", base, pn);
		else
			snprintf(r->path, sizeof(r->path), "%s-%.16s%s.csv", base, vmg.c[i].argv[0], pn);
		ret = outfile_open(&r->out, r->path);
		if (ret) {
			bench_err("-o %s: %s: %s", vmg.outdir, r->path, strerror(-ret));
			return EXIT_USAGE;
		}
		r->set.asked = (unsigned int)vmg.boots;
	}
	c->boot = calloc(vmg.boots, sizeof(*c->boot));
	return c->boot ? 0 : bench_refused("%s", strerror(ENOMEM));
}

/* every output file, opened before anything boots: bad paths fail first */
static int bv_open_outputs(void)
{
	struct bv_kernel *k;
	unsigned int i;
	int ret = 0;

	if (mkdir(vmg.outdir, 0755) && errno != EEXIST) {
		bench_err("-o %s: %s", vmg.outdir, strerror(errno));
		return EXIT_USAGE;
	}
	for (i = 0; i < vmg.nr_cells && !ret; i++)
		ret = bv_open_cell(&vmg.cell[i]);
	for (k = vmg.k; k < vmg.k + vmg.nr_k && !ret; k++) {
		snprintf(k->console_path, sizeof(k->console_path), "%.3000s/%.63s.console",
			 vmg.outdir, k->name);
		ret = outfile_open(&k->console, k->console_path);
		if (ret) {
			bench_err("-o %s: %s: %s", vmg.outdir, k->console_path, strerror(-ret));
			return EXIT_USAGE;
		}
	}
	return ret;
}

/* a SIGINT/SIGTERM that came between two boots: start no other */
static bool bv_stopped(void)
{
	if (!vmg.signo)
		vmg.signo = runs_stop_pending();
	return vmg.signo;
}

/*
 * every kernel at every count --boots times: round b boots each cell
 * once, in the order of vm_sweep_slot() (lib/vm.h: kernels and counts
 * rotated round by round, so that none is always early or late)
 */
static int bv_measure(void)
{
	unsigned int b, s, ki, pi;
	struct bv_cell *c;
	int ret = 0;

	for (b = 0; b < vmg.boots && !ret; b++)
		for (s = 0; s < vmg.nr_cells && !ret; s++) {
			vm_sweep_slot(vmg.nr_k, vmg.nr_p, b, s, &ki, &pi);
			c = &vmg.cell[ki * vmg.nr_p + pi];
			ret = bv_stopped() ? 128 + vmg.signo : bv_boot(c, b);
			if (!ret && !vmg.quiet)
				fprintf(stderr, "%s: %s boot %u/%lu: %.1f s, %u possible CPUs, %u online%s\n",
					bench_prog, c->label, b + 1, (unsigned long)vmg.boots,
					c->boot[b].seconds, c->boot[b].possible, c->boot[b].online,
					c->boot[b].tries > 1 ? " (booted again)" : "");
		}
	return ret;
}

/* every CSV with the boots that finished; the tables on stdout */
static int bv_report(void)
{
	unsigned int n, i;
	int ret = 0, err;

	for (n = 0; n < vmg.nr_cells; n++)
		for (i = 0; i < vmg.nr_c; i++) {
			struct bv_cell *c = &vmg.cell[n];
			struct bv_runs *r = &c->runs[i];

			if (!r->set.n)
				continue;
			bv_meta(c, i);
			err = csv_write(r->out.f, r->set.all) ?: outfile_commit(&r->out);
			if (err)
				ret = bench_refused("writing %s: %s", r->path, strerror(-err));
			else if (bv_print(stdout, c, i))
				ret = bench_finish_stdout() ?: EXIT_ENV;
		}
	return ret;
}

/* every kernel's consoles, whatever happened: what a failed boot said */
static int bv_keep_consoles(void)
{
	struct bv_kernel *k;
	int ret = 0, err;

	for (k = vmg.k; k < vmg.k + vmg.nr_k; k++) {
		if (!k->console.f)
			continue;
		err = outfile_commit(&k->console);
		if (err)
			ret = bench_refused("writing %s: %s", k->console_path, strerror(-err));
	}
	return ret;
}

/* remove the work directory and what it holds (kmod-NAME/ too), no rm forked */
static void bv_cleanup(void)
{
	if (vmg.work[0])
		spawn_remove_tree(vmg.work);
}

static void bv_free(void)
{
	struct bv_kernel *k;
	unsigned int n, i;

	for (n = 0; vmg.cell && n < vmg.nr_cells; n++) {
		for (i = 0; i < vmg.nr_c; i++) {
			runs_fini(&vmg.cell[n].runs[i].set);
			outfile_abort(&vmg.cell[n].runs[i].out);
		}
		free(vmg.cell[n].boot);
		vmg.cell[n].boot = NULL;
	}
	for (k = vmg.k; k < vmg.k + vmg.nr_k; k++)
		outfile_abort(&k->console);
}

/* the host, checks, the work directory, the initramfs of every kernel */
static int bv_setup(void)
{
	const char *tmp = getenv("TMPDIR");
	char qemu[PATH_MAX];
	struct bv_kernel *k;
	int ret;

	/* this host once, before the first boot: the files' vm_host_ keys */
	vmg.started = time(NULL);
	ret = bench_testbed(&vmg.tb);
	if (ret)
		return ret;
	if (spawn_which(vmg.qemu, qemu, sizeof(qemu)))
		return bench_refused("%s: not found (apt-get install qemu-system-x86, or --qemu PROG)",
				     vmg.qemu);
	ret = bv_check_config() ?: bv_find_bench() ?: bv_check_busybox();
	if (ret)
		return ret;
	snprintf(vmg.work, sizeof(vmg.work), "%s/ksb-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(vmg.work)) {
		ret = bench_refused("a work directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
				    strerror(errno));
		vmg.work[0] = 0;
		return ret;
	}
	ret = bv_check_kernels() ?: bv_open_outputs();
	for (k = vmg.k; !ret && k < vmg.k + vmg.nr_k; k++)
		ret = bv_initramfs(k);
	return ret;
}

int cmd_vm(int argc, char **argv)
{
	sigset_t stop;
	int ret;

	ret = bv_parse(argc, argv);
	if (ret)
		return ret < 0 ? EXIT_USAGE : bench_finish_stdout();
	/* SIGINT/SIGTERM are taken in bv_wait(), between two boots at the latest */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGCHLD, SIG_DFL);
	ret = bv_setup();
	if (!ret)
		ret = bv_measure();
	if (ret == 0 || ret == 128 + SIGINT || ret == 128 + SIGTERM) {
		int err = bv_report();

		ret = err ? err : ret ? ret : bench_finish_stdout();
	}
	ret = bv_keep_consoles() ?: ret;
	bv_free();
	free(vmg.cell);
	vmg.cell = NULL;
	bv_cleanup();
	return ret;
}
